// SPDX-License-Identifier: MIT
import BuiltInAdapter
import Foundation
import HarnessJSON
import Testing
@testable import ConformanceKit

/// The runner's presence observer: its protocol logic (pure), the loop against the in-process
/// server over loopback, and its steps inside cases run with the built-in client.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(1)))) struct PresenceObserverTests {
    @Test func theFeedReadsPresenceChannelsOnlyAndFollowsTheCursor() throws {
        let handshake = ObserverFeed.target(subscribeKey: "sub-1", channels: ["a", "b-pnpres"], uuid: "obs", cursor: .init())
        #expect(handshake == "/v2/subscribe/sub-1/a-pnpres,b-pnpres/0?uuid=obs&tt=0")
        let body = #"""
            {"t":{"t":"17000000000000001","r":12},"m":[
             {"a":"1","f":0,"p":{"t":"17000000000000001","r":12},"k":"sub-1","c":"a-pnpres","b":"a-pnpres",
              "d":{"action":"state-change","uuid":"u-1","timestamp":1,"data":{"mood":"calm"},"occupancy":2}},
             {"a":"1","f":0,"p":{"t":"17000000000000001","r":12},"k":"sub-1","c":"a","d":{"action":"join","uuid":"not presence"}}]}
            """#
        let page = try #require(ObserverFeed.parse(Array(body.utf8)))
        #expect(page.cursor == ObserverFeed.Cursor(timetoken: "17000000000000001", region: 12))
        #expect(page.events == [PresenceEvent(channel: "a", action: "state-change", uuid: "u-1", occupancy: 2, state: ["mood": "calm"])])
        let next = ObserverFeed.target(subscribeKey: "sub-1", channels: ["a"], uuid: "obs", cursor: page.cursor)
        #expect(next == "/v2/subscribe/sub-1/a-pnpres/0?uuid=obs&tt=17000000000000001&tr=12")
        #expect(ObserverFeed.parse(Array(#"{"status":403,"error":true}"#.utf8)) == nil)
        #expect(ObserverFeed.parse(Array("not json".utf8)) == nil)
    }

    @Test func theObserverSeesAnotherUsersJoinAndStopsWithinItsBound() async throws {
        let server = try InProcessHarnessServer.start()
        let observer = PresenceObserver(address: server.address, subscribeKey: "sub-obs")
        try await observer.start(channels: ["room"], handshakeSeconds: 3)
        await #expect(throws: ObserverError.self) { try await observer.start(channels: ["room"], handshakeSeconds: 3) }
        let heartbeat = try await server.request(method: "GET", path: "/v2/presence/sub-key/sub-obs/channel/room/heartbeat",
                                                 query: [("uuid", "ann"), ("heartbeat", "60")], body: nil)
        #expect(heartbeat.status == 200)
        let (snapshot, seen) = await observer.log.wait(until: .now + .seconds(5)) { $0.presence.contains { $0.action == "join" } }
        #expect(seen)
        #expect(snapshot.presence.map(\.uuid) == ["ann"])
        #expect(snapshot.presence.first?.channel == "room")
        // The observer is present nowhere: it reads `room-pnpres` only.
        let journal = try await server.journal(subscribeKey: "sub-obs")
        #expect(journal.filter { $0.endpointName == "subscribe" }.allSatisfy { $0.path.hasSuffix("/room-pnpres/0") && $0.query["uuid"] == PresenceObserver.uuid })
        #expect(!observer.loopEnded)
        await observer.stop()
        // Its long-poll was parked: stopping cancelled it (the loop returned, not the bound).
        #expect(observer.loopEnded)
        await observer.stop()
        await server.shutdown()
    }

    @Test func observerStepsFailWhenWhatTheyAskForIsNotSeen() async throws {
        let (server, stop) = try await IntegrationHarness.startServer()
        let join = ExpectedPresence(channel: "ch", action: "join", uuid: "{uuid}")
        let cases = [
            // The client never subscribes: no join to see.
            ConformanceCase.test("o.t.missing", steps: [.observerSubscribe(["ch"]), .expectObservedPresence(join, withinMs: 300)], expected: []),
            // The client joins: a "no join" check must fail.
            ConformanceCase.test("o.t.forbidden", steps: [.observerSubscribe(["ch"]), .subscribe(["ch"]), .expect(.connected),
                                                          .expectNoObservedPresence(join, forMs: 1_000)], expected: [.connected]),
            // An expectation without an observer is a case error, not a silent pass.
            ConformanceCase.test("o.t.unstarted", steps: [.expectObservedPresence(join, withinMs: 100)], expected: []),
            // And the positive: the client's join is seen.
            ConformanceCase.test("o.t.seen", steps: [.observerSubscribe(["ch"]), .subscribe(["ch"]), .expect(.connected),
                                                     .expectObservedPresence(join, withinMs: 2_000)], expected: [.connected]),
        ]
        let runner = ConformanceRunner(server: server, client: BuiltInClient(),
                                       options: RunOptions(seed: 3, concurrency: 2, expectations: nil, timeScale: await TestPacing.scale()))
        let report = await runner.run(cases)
        await stop()
        let byID = Dictionary(uniqueKeysWithValues: report.results.map { ($0.id, $0) })
        let missing = try #require(byID["o.t.missing"])
        #expect(missing.outcome == .fail)
        #expect(missing.detail.contains("the observer saw no presence join on ch"), "\(missing.detail)")
        let forbidden = try #require(byID["o.t.forbidden"])
        #expect(forbidden.outcome == .fail)
        #expect(forbidden.detail.contains("the observer saw a presence join on ch"), "\(forbidden.detail)")
        let unstarted = try #require(byID["o.t.unstarted"])
        #expect(unstarted.outcome == .fail)
        #expect(unstarted.detail.contains("the observer is not started"), "\(unstarted.detail)")
        let seen = try #require(byID["o.t.seen"])
        #expect(seen.outcome == .pass, "\(seen.detail)")
        #expect(seen.timeline?.items.contains { $0.label.hasPrefix("observer: presence join") } == true)
    }

    @Test func theTimeScaleStretchesObservedWaitsButNotTheMustNots() {
        let join = ExpectedPresence(channel: "ch", action: "join", uuid: "{uuid}")
        let testCase = ConformanceCase.test("o.t.scaled", steps: [
            .observerSubscribe(["ch"]), .expectObservedPresence(join, withinMs: 1_000), .expectNoObservedPresence(join, forMs: 300),
        ], expected: [])
        let scaled = CaseBudget.scaled(testCase, by: 2)
        #expect(scaled.steps == [.observerSubscribe(["ch"]), .expectObservedPresence(join, withinMs: 2_000),
                                 .expectNoObservedPresence(join, forMs: 300)])
        // Base, one action, the window and the "must not" window (above the declared 2 s).
        #expect(CaseBudget.derive(testCase) == .milliseconds(1_000 + 250 + 1_000 + 300))
        #expect(testCase.requiredCapabilities.isEmpty)
    }
}
