// SPDX-License-Identifier: MIT
import BuiltInAdapter
import Foundation
import HarnessJSON
import PusherServer
import Testing
@testable import ConformanceKit

/// The `pusher` family's machinery: checks that fail when the client misbehaves, profile variants,
/// the catalog, budgets, and the driver protocol's Pusher lines over real pipes.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct PusherFamilyTests {
    /// The built-in client declaring another profile (to see the variants applied).
    struct Declaring: PusherConformanceClient {
        let inner = BuiltInPusherClient()
        let profile: PusherProfile
        var name: String { "declaring" }
        var capabilities: Set<PusherCapability> { inner.capabilities }
        func makeSession(configuration: PusherSessionConfiguration) async throws -> any PusherClientSession {
            try await inner.makeSession(configuration: configuration)
        }
    }

    func run(_ cases: [PusherCase], client: any PusherConformanceClient = BuiltInPusherClient()) async throws -> [String: CaseResult] {
        // Windows stretched by the machine's measured scale, as `run` does: under a loaded full test
        // run the checks still fail for the reason the case is about, not a missed budget.
        await ProgressTime.settle()  // the runner's budgets are wall-clock ones
        let scale = TimeScale.fromProbe(await MachineProbe.measured())
        let options = RunOptions(seed: 2, concurrency: 4, timeScale: scale.factor, retryMissedTime: false)
        let report = try await PusherRunGate.exclusive { try await PusherRunner(client: client, options: options).run(cases) }
        return Dictionary(uniqueKeysWithValues: report.results.map { ($0.id, $0) })
    }

    static let connected: [PusherStep] = [.connect, .expectConnected(withinMs: 2_000)]

    @Test func expectationsFailWhenTheClientDoesOtherwise() async throws {
        let cases = [
            PusherCase("pusher.t.expects-reconnect-after-4004", "", spec: "", steps: Self.connected + [
                .closeConnection(code: 4004, reason: "x"), .expectReconnect(atLeastMs: 0, withinMs: 1_500)]),
            PusherCase("pusher.t.expects-none-after-4200", "", spec: "", steps: Self.connected + [
                .closeConnection(code: 4200, reason: "x"), .expectNoReconnect(forMs: 1_500)]),
            PusherCase("pusher.t.expects-long-backoff", "", spec: "", steps: Self.connected + [
                .closeConnection(code: 4100, reason: "x"), .expectReconnect(atLeastMs: 2_500, withinMs: 4_000)]),
            PusherCase("pusher.t.wrong-data", "", spec: "", steps: Self.connected + [
                .subscribe("news"), .expectSubscribed("news", withinMs: 2_000), .trigger("news", "e", #"{"a":1}"#),
                .expectEvent(channel: "news", event: "e", data: ["a": 2], withinMs: 500)]),
            PusherCase("pusher.t.auth-on-first-only", "", spec: "", steps: Self.connected + [
                .subscribe("private-x"), .expectSubscribed("private-x", withinMs: 2_000),
                .expectJournal(.authorizedForConnection(channel: "private-x", connection: 2), withinMs: 300)]),
            PusherCase("pusher.t.fault-plan-applies", "", spec: "", steps: Self.connected + [
                .subscribe("news"), .expectSubscribed("news", withinMs: 500)],
                faultPlan: PusherFaultPlan(rules: [PusherFaultRule(fault: .dropSubscriptionSucceeded(channel: "news"))])),
            PusherCase("pusher.t.peer-not-subscribed", "", spec: "", steps: Self.connected + [
                .peerSubscribe(PusherPeer("ann"), channel: "private-y"), .subscribe("private-y"), .expectSubscribed("private-y", withinMs: 2_000),
                .expectPeerEvent(PusherPeer("ann"), channel: "private-y", event: "client-never", data: nil, withinMs: 300)]),
        ]
        let results = try await run(cases)
        #expect(results.values.allSatisfy { $0.outcome == .fail })
        #expect(results["pusher.t.expects-reconnect-after-4004"]?.detail.contains("no reconnect within ") == true)
        #expect(results["pusher.t.expects-none-after-4200"]?.detail.contains("the client connected again") == true)
        #expect(results["pusher.t.expects-long-backoff"]?.detail.contains("sooner than the 2500 ms") == true)
        #expect(results["pusher.t.wrong-data"]?.detail.contains(#"no e on news with {"a":2}"#) == true)
        #expect(results["pusher.t.auth-on-first-only"]?.detail.contains("the client made 1 connection(s)") == true, "\(results["pusher.t.auth-on-first-only"]?.detail ?? "-")")
        #expect(results["pusher.t.fault-plan-applies"]?.detail.contains("no subscription_succeeded for news within ") == true, "\(results["pusher.t.fault-plan-applies"]?.detail ?? "-")")
        #expect(results["pusher.t.peer-not-subscribed"]?.detail.contains("peer ann got no client-never") == true, "\(results["pusher.t.peer-not-subscribed"]?.detail ?? "-")")
        #expect(results["pusher.t.expects-none-after-4200"]?.wireLog.first?.hasPrefix("connection 1 socket_id ") == true)
    }

    @Test func profileVariantsReplaceOrSelectCases() async throws {
        let byID = Dictionary(uniqueKeysWithValues: PusherCatalog.all().map { ($0.id, $0) })
        let reauth = try #require(byID["pusher.auth.reauthorize-after-reconnect"])
        let errorEvent = try #require(byID["pusher.close-codes.error-event-4200"])
        // The reference client: the variant-only case is skipped with the reason.
        let reference = try await run([errorEvent])
        #expect(reference[errorEvent.id]?.outcome == .skipped)
        #expect(reference[errorEvent.id]?.detail == "checks closeCodes=error-events-only; this client's is close-codes")
        // A client declaring pysher's values gets the variant steps: the built-in client re-authorizes
        // (no subscription error) and ignores a pusher:error 4200, so both fail there.
        let pysherLike = Declaring(profile: PusherProfile(json: ["closeCodes": "error-events-only", "resubscribe": "no-auth"]))
        let declared = try await run([reauth, errorEvent], client: pysherLike)
        #expect(declared[reauth.id]?.outcome == .fail)
        #expect(declared[reauth.id]?.detail.contains("subscription error for private-room") == true)
        #expect(declared[errorEvent.id]?.outcome == .fail)
        #expect(declared[errorEvent.id]?.detail.contains("no reconnect within 2000 ms") == true)
    }

    @Test func catalogIDsBudgetsAndSelection() throws {
        let cases = PusherCatalog.all()
        #expect(Set(cases.map(\.id)).count == cases.count)
        #expect(cases.allSatisfy { $0.id.hasPrefix("pusher.") && PusherCatalog.groups.contains($0.group) })
        #expect(Set(cases.map(\.group)) == Set(PusherCatalog.groups))
        let backoff = try #require(cases.first { $0.id == "pusher.close-codes.4100-backoff" })
        // 1 s base, 3 actions (connect, close) … every window of the case, at least.
        let windows = 2_000 + 2_000 + 4_000 + 2_000
        let expected: Duration = .milliseconds(1_000 + windows + 2 * 250)
        #expect(PusherCaseBudget.derive(backoff) == expected)
        let scaled = PusherCaseBudget.scaled(backoff, by: 2)
        #expect(scaled.steps.contains(.expectReconnect(atLeastMs: 1_000, withinMs: 8_000)))
        let immediate = try #require(cases.first { $0.id == "pusher.close-codes.4200-immediate" })
        #expect(PusherCaseBudget.scaled(immediate, by: 3).steps.contains(.expectImmediateReconnect(beforeMs: 2_000)))
        #expect(try PusherCatalog.select(cases, groups: ["pusher.presence"], ids: []).map(\.group) == ["presence", "presence", "presence"])
        #expect(try PusherCatalog.select(cases, groups: ["pusher"], ids: []).count == cases.count)
        #expect(throws: SelectionError.self) { try PusherCatalog.select(cases, groups: ["pusher.nope"], ids: []) }
        #expect(throws: SelectionError.unknownCase("pusher.x.y")) { try PusherCatalog.select(cases, groups: [], ids: ["pusher.x.y"]) }
    }

    /// A Pusher driver that answers `hello` and reports one of every event line on `connect`.
    static let scriptedDriver = #"""
    import json, sys
    def out(o):
        sys.stdout.write(json.dumps(o) + "\n"); sys.stdout.flush()
    for line in sys.stdin:
        step = json.loads(line)
        i, t = step["id"], step["type"]
        if t == "hello":
            out({"id": i, "type": "result", "data": {"protocol": "pusher", "client": "scripted",
                 "capabilities": ["presence"], "profile": {"closeCodes": "error-events-only", "unknownAspect": "x"}}})
        elif t == "configure":
            ok = step["appKey"] == "k" and step["authEndpoint"].startswith("http://") and step["reconnectDelayMs"] == 1000
            out({"id": i, "type": "result" if ok else "error", "detail": json.dumps(step)})
        elif t == "connect":
            out({"type": "connected", "socketID": "1.2"})
            out({"type": "subscribed", "channel": "presence-a"})
            out({"type": "members", "channel": "presence-a", "userIDs": ["u", "v"]})
            out({"type": "memberAdded", "channel": "presence-a", "userID": "w"})
            out({"type": "event", "channel": "presence-a", "event": "client-x", "data": "{\"n\":1}", "userID": "v"})
            out({"type": "error", "code": 4301, "message": "rate"})
            out({"type": "subscriptionError", "channel": "private-b", "message": "denied"})
            out({"type": "disconnected", "code": None})
            out({"id": i, "type": "result"})
        elif t == "close":
            out({"id": i, "type": "result"}); break
        else:
            out({"id": i, "type": "unsupported", "detail": t})
    """#

    @Test func pusherDriverLinesOverPipes() async throws {
        let client = PusherDriverClient(command: try ExternalProcessClientTests.script(Self.scriptedDriver), name: "scripted")
        let prepared = await client.prepared()
        #expect(prepared.capabilities == [.presence])
        #expect(prepared.profile == PusherProfile(variants: [.closeCodes: "error-events-only"]))
        let configuration = PusherSessionConfiguration(host: "127.0.0.1", port: 1, appKey: "k", appSecret: "s",
                                                       authEndpoint: "http://127.0.0.1:1/__admin/pusher/auth/k/u", userID: "u",
                                                       settings: PusherClientSettings())
        let session = try await prepared.makeSession(configuration: configuration)
        try await session.perform(.connect)
        await #expect(throws: ClientAdapterError.unsupported("subscribe (subscribe)")) { try await session.perform(.subscribe(channel: "c")) }
        await session.close()
        var seen: [PusherObservation] = []
        for await event in session.events { seen.append(event) }
        #expect(seen == [
            .connected(socketID: "1.2"), .subscribed(channel: "presence-a"), .members(channel: "presence-a", userIDs: ["u", "v"]),
            .memberAdded(channel: "presence-a", userID: "w"), .event(channel: "presence-a", name: "client-x", data: #"{"n":1}"#, userID: "v"),
            .errorEvent(code: 4301, message: "rate"), .subscriptionError(channel: "private-b", message: "denied"), .disconnected(code: nil),
        ])
        // A PubNub driver's hello (no "protocol") is refused for the Pusher family.
        let pubnubDriver = #"""
        import json, sys
        for line in sys.stdin:
            step = json.loads(line)
            out = {"id": step["id"], "type": "result"}
            if step["type"] == "hello": out["data"] = {"client": "pubnub-something", "capabilities": ["presence"]}
            sys.stdout.write(json.dumps(out) + "\n"); sys.stdout.flush()
            if step["type"] == "close": break
        """#
        let wrong = await PusherDriverClient(command: try ExternalProcessClientTests.script(pubnubDriver)).prepared()
        await #expect(throws: ClientAdapterError.startFailed(#"the driver's hello declares protocol none, not "pusher" (docs/driver-protocol.md, Pusher drivers)"#)) {
            _ = try await wrong.makeSession(configuration: configuration)
        }
        #expect(PusherStepRunner.sameData(#"{"n":1}"#, ["n": 1]))
        #expect(!PusherStepRunner.sameData(#"{"n":1}"#, ["n": 2]))
        #expect(throws: ClientAdapterError.self) { try PusherDriverLines.event(#"{"type":"event","channel":"c"}"#) }
        #expect(throws: ClientAdapterError.self) { try PusherDriverLines.event(#"{"type":"teleported"}"#) }
    }
}
