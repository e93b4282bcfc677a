// SPDX-License-Identifier: MIT
import MockPubNubServer
import Testing
@testable import ClientUnderTest

/// Operations and their options end to end against the real mock server, checked in its journal
/// and in its state.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct MockServerOperationTests {
    @Test func publishOptionsAndHistoryWindows() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let client = try makeClient(origin: mock.origin)
        var sent: [UInt64] = []
        for n in 1...4 {
            sent.append(try await client.publish(.int(Int64(n)), channel: "log", meta: ["n": .int(Int64(n))]).timetoken)
        }
        let posted = try await client.publish(["body": "posted"], channel: "log", ttl: 2, usePOST: true)
        _ = try await client.publish("not stored", channel: "log", store: false)

        let post = try #require(mock.journal.last { $0.method == "POST" })
        #expect(post.endpoint == .publish)
        #expect(post.body == #"{"body":"posted"}"#)
        #expect(post.query("ttl") == "2")
        #expect(mock.journal.last?.query("store") == "0")

        let all = try await client.history(channel: "log", includeTimetoken: true, includeMeta: true)
        #expect(all.messages.map(\.message) == [1, 2, 3, 4, ["body": "posted"]])
        #expect(all.messages.map(\.timetoken) == sent + [posted.timetoken])
        #expect(all.messages.prefix(4).map(\.meta) == (1...4).map { ["n": .int(Int64($0))] })
        #expect(all.start == sent[0])
        #expect(all.end == posted.timetoken)
        #expect(try await client.history(channel: "log", count: 2).messages.map(\.message) == [4, ["body": "posted"]])
        #expect(try await client.history(channel: "log", count: 2, reverse: true).messages.map(\.message) == [1, 2])
        #expect(try await client.history(channel: "log", start: sent[2]).messages.map(\.message) == [1, 2])
        let fetched = try await client.fetchMessages(channels: ["log"], maximumPerChannel: 1)
        #expect(fetched.channels["log"]?.map(\.message) == [["body": "posted"]])
        #expect(await client.deleteMessages(channel: "log", start: sent[0], end: sent[1]).category == .acknowledgment)
        #expect(try await client.history(channel: "log").messages.count == 4)
    }

    @Test func presenceOperationsWithStateAndHeartbeat() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let alice = try makeClient(origin: mock.origin) { $0.uuid = "alice" }
        let bob = try makeClient(origin: mock.origin) { $0.uuid = "bob" }
        let aliceEvents = Recorder()
        alice.addListener(aliceEvents)
        try await alice.subscribe(channels: ["a", "b"], state: ["mood": "calm"])
        #expect(await aliceEvents.waitStatuses(1)?.map(\.category) == [.connected])
        let handshake = try #require(mock.journal.first { $0.isHandshake })
        #expect(handshake.path == "/v2/subscribe/sub-k/a,b/0")
        #expect(handshake.query("state") == #"{"a":{"mood":"calm"},"b":{"mood":"calm"}}"#)
        #expect(await bob.heartbeat(channels: ["b"]).category == .acknowledgment)

        let several = try await bob.hereNow(channels: ["a", "b"], includeState: true)
        #expect(several.totalChannels == 2)
        #expect(several.totalOccupancy == 3)
        #expect(several.channels["a"]?.occupants == [PNOccupant(uuid: "alice", state: ["mood": "calm"])])
        #expect(several.channels["b"]?.occupants.map(\.uuid).sorted() == ["alice", "bob"])
        let global = try await bob.hereNow()
        #expect(global.channels.keys.sorted() == ["a", "b"])
        #expect(global.totalOccupancy == 3)
        let counts = try await bob.hereNow(channels: ["b"], includeUUIDs: false)
        #expect(counts.channels["b"]?.occupancy == 2)
        #expect(counts.channels["b"]?.occupants.isEmpty == true)
        #expect(try await bob.whereNow(uuid: "alice").channels.sorted() == ["a", "b"])
        #expect(try await bob.getState(channels: ["a"], uuid: "alice").channels == ["a": ["mood": "calm"]])
        await alice.unsubscribeAll()
    }

    @Test func changingTheUUIDWhileSubscribedLeavesThenResubscribes() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let client = try makeClient(origin: mock.origin) { $0.uuid = "first" }
        let recorder = Recorder()
        client.addListener(recorder)
        try await client.subscribe(channels: ["a", "b"])
        _ = try #require(await recorder.waitStatuses(1))
        try await client.setUUID("second")
        _ = try #require(await recorder.waitStatuses(2))
        #expect(recorder.statuses.map(\.category) == [.connected, .connected])
        let journal = mock.journal
        let leave = try #require(journal.firstIndex { $0.endpoint == .leave })
        #expect(journal[leave].path == "/v2/presence/sub-key/sub-k/channel/a,b/leave")
        #expect(journal[leave].uuid == "first")
        let resubscribe = try #require(journal.indices.first { $0 > leave && journal[$0].isHandshake })
        #expect(journal[resubscribe].uuid == "second")
        #expect(try await client.hereNow(channels: ["a"]).channels["a"]?.occupants.map(\.uuid) == ["second"])
        await client.unsubscribeAll()
    }

    @Test(arguments: ["a,b", "a/b", ""])
    func invalidChannelNamesAreRefusedBeforeAnyRequest(name: String) async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let client = try makeClient(origin: mock.origin)
        do throws(PNStatus) {
            _ = try await client.publish(1, channel: name)
            Issue.record("expected a status")
        } catch {
            #expect(error.category == .badRequest)
        }
        do throws(PNStatus) {
            try await client.subscribe(channels: [name])
            Issue.record("expected a status")
        } catch {
            #expect(error.category == .badRequest)
        }
        #expect(try await client.time().timetoken > 0)
        #expect(mock.server.journal(subscribeKey: FaultLayer.unattributedKey).map(\.path) == ["/time/0"])
        #expect(mock.journal.isEmpty)
    }

    @Test func completionHandlersDeliverResultsAndStatuses() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        try mock.installRule(match: #"{"endpoint":"here-now"}"#, fault: #"{"kind":"status","status":403}"#)
        let client = try makeClient(origin: mock.origin)
        let published = Waitable<Result<PNPublishResult, PNStatus>>()
        // Weakly: a failed status keeps its retry, which keeps this completion (a cycle through the list).
        client.publish("x", channel: "c") { [weak published] in published?.append($0) }
        let denied = Waitable<Result<PNHereNowResult, PNStatus>>()
        client.hereNow(channels: ["c"]) { [weak denied] in denied?.append($0) }
        let publishOutcome = try #require(await published.wait(count: 1)?.first)
        guard case .success(let result) = publishOutcome else { Issue.record("\(publishOutcome)"); return }
        #expect(try await client.history(channel: "c", includeTimetoken: true).messages.map(\.timetoken) == [result.timetoken])
        let hereNowOutcome = try #require(await denied.wait(count: 1)?.first)
        guard case .failure(let status) = hereNowOutcome else { Issue.record("\(hereNowOutcome)"); return }
        #expect(status.category == .accessDenied)
        #expect(status.operation == .hereNow)
    }

    @Test func retryResendsTheRequest() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        try mock.installRule(match: #"{"endpoint":"publish"}"#, times: 1, fault: #"{"kind":"status","status":500}"#)
        let client = try makeClient(origin: mock.origin)
        let outcomes = Waitable<Result<PNPublishResult, PNStatus>>()
        // Weakly: a failed status keeps its retry, which keeps this completion (a cycle through the list).
        client.publish("again", channel: "c") { [weak outcomes] in outcomes?.append($0) }
        let first = try #require(await outcomes.wait(count: 1)?.first)
        guard case .failure(let status) = first else { Issue.record("\(first)"); return }
        #expect(status.category == .unknown)
        #expect(status.canRetry)
        status.retry()
        let second = try #require(await outcomes.wait(count: 2)?.last)
        guard case .success(let result) = second else { Issue.record("\(second)"); return }
        let publishes = mock.journal.filter { $0.endpoint == .publish }
        #expect(publishes.map(\.rule) == ["r", nil])
        #expect(publishes[0].path == publishes[1].path)
        #expect(try await client.history(channel: "c", includeTimetoken: true).messages.map(\.timetoken) == [result.timetoken])
    }
}
