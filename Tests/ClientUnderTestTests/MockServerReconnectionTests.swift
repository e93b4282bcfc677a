// SPDX-License-Identifier: MIT
import MockPubNubServer
import Testing
@testable import ClientUnderTest

/// The reconnection sequence against the real mock server: statuses on the listener, and the
/// requests in the server's journal (the failed long-poll, the `/time/0` pings at the interval,
/// the resubscribe with the right timetoken), catch-up across the outage.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct MockServerReconnectionTests {
    /// The reconnection ping interval used here (seconds).
    static let interval = 0.1
    /// Slack for the journal's arrival stamps, taken when the server has parsed a request (after
    /// the client sent it), so one stamp can be late by the server's scheduling delay.
    static let stampSlack = 0.01

    /// Fails the `nth` long-poll with a reset and every `/time/0` ping (the outage).
    static func outagePlan(failingLongPoll nth: Int) -> String {
        #"{"rules":[{"id":"drop","match":{"endpoint":"subscribe","query":{"tt":"!0"}},"nth":\#(nth),"fault":{"kind":"reset"}},"#
            + #"{"id":"ping-down","match":{"endpoint":"time"},"fault":{"kind":"reset"}}]}"#
    }

    /// Ends the outage after two more failed pings: the third one from now succeeds.
    static let twoMorePingsFail = #"{"rules":[{"id":"ping-down-twice","match":{"endpoint":"time"},"times":2,"fault":{"kind":"reset"}}]}"#

    private func subscriber(_ mock: MockServerHarness, catchUp: Bool = true, restore: Bool = true) throws -> (PubNubClient, Recorder) {
        let client = try makeClient(origin: mock.origin) {
            $0.uuid = "sub"
            $0.reconnectionPingInterval = Self.interval
            $0.catchUpOnSubscriptionRestore = catchUp
            $0.restoreSubscription = restore
        }
        let recorder = Recorder()
        client.addListener(recorder)
        return (client, recorder)
    }

    private func messages(_ recorder: Recorder, count: Int) async throws -> [PNMessageEvent] {
        try #require(await recorder.events.wait { $0.compactMap(\.messageEvent).count >= count }).compactMap(\.messageEvent)
    }

    /// Checks the pings after the failed long-poll: at least `failed` reset ones, then one answered,
    /// each at least the interval after the previous request; returns the answered ping's index.
    private func checkPings(_ journal: [JournalEntry], after dropIndex: Int, failedAtLeast failed: Int) throws -> Int {
        let answered = try #require(journal.indices.first { $0 > dropIndex && journal[$0].endpoint == .time && journal[$0].rule == nil })
        let between = journal[(dropIndex + 1)...answered]
        let pings = between.filter { $0.endpoint == .time }
        #expect(pings.count == between.count, "only pings between the failed long-poll and the answered ping")
        #expect(pings.count >= failed + 1)
        #expect(pings.dropLast().allSatisfy { $0.rule == "ping-down" || $0.rule == "ping-down-twice" })
        #expect(pings.dropLast().suffix(2).map(\.rule) == ["ping-down-twice", "ping-down-twice"])
        let stamps = [journal[dropIndex].arrivalTime] + pings.map(\.arrivalTime)
        for (earlier, later) in zip(stamps, stamps.dropFirst()) {
            #expect(later - earlier >= Self.interval - Self.stampSlack, "pings \(later - earlier) s apart")
        }
        #expect(pings.allSatisfy { $0.uuid == "sub" && $0.path == "/time/0" })
        return answered
    }

    @Test func catchUpDeliversEveryMessageOnceInOrder() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        try mock.install(Self.outagePlan(failingLongPoll: 2))
        let (client, recorder) = try subscriber(mock)
        let publisher = try makeClient(origin: mock.origin) { $0.uuid = "pub" }
        try await client.subscribe(channels: ["feed"])
        #expect(await recorder.waitStatuses(1)?.map(\.category) == [.connected])
        let first = try await publisher.publish(1, channel: "feed")
        _ = try await messages(recorder, count: 1)
        #expect(await recorder.waitStatuses(2)?.map(\.category) == [.connected, .unexpectedDisconnect])
        #expect(recorder.statuses[1].willAutomaticallyRetry)
        let second = try await publisher.publish(2, channel: "feed")
        let third = try await publisher.publish(3, channel: "feed")
        try mock.install(Self.twoMorePingsFail)
        #expect(await recorder.waitStatuses(3)?.map(\.category) == [.connected, .unexpectedDisconnect, .reconnected])
        let fourth = try await publisher.publish(4, channel: "feed")
        let delivered = try await messages(recorder, count: 4)
        #expect(delivered.map(\.timetoken) == [first, second, third, fourth].map(\.timetoken))
        #expect(delivered.map(\.message) == [1, 2, 3, 4])

        let journal = mock.journal.filter { $0.uuid == "sub" }
        let dropIndex = try #require(journal.firstIndex { $0.rule == "drop" })
        #expect(journal[dropIndex].isLongPoll)
        let droppedCursor = try #require(journal[dropIndex].query("tt").flatMap { UInt64($0) })
        #expect(droppedCursor >= first.timetoken)
        let answered = try checkPings(journal, after: dropIndex, failedAtLeast: 2)
        let handshake = try #require(journal.indices.first { $0 > answered && journal[$0].endpoint == .subscribe })
        #expect(journal[handshake].isHandshake)
        let resumed = try #require(journal.indices.first { $0 > handshake && journal[$0].endpoint == .subscribe })
        #expect(journal[resumed].query("tt") == String(droppedCursor))
        await client.unsubscribeAll()
    }

    @Test func withoutCatchUpTheResubscribeStartsFromNow() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        try mock.install(Self.outagePlan(failingLongPoll: 1))
        let (client, recorder) = try subscriber(mock, catchUp: false)
        let publisher = try makeClient(origin: mock.origin) { $0.uuid = "pub" }
        try await client.subscribe(channels: ["feed"])
        #expect(await recorder.waitStatuses(2)?.map(\.category) == [.connected, .unexpectedDisconnect])
        let missed = try await publisher.publish("missed", channel: "feed")
        try mock.install(Self.twoMorePingsFail)
        #expect(await recorder.waitStatuses(3)?.map(\.category) == [.connected, .unexpectedDisconnect, .reconnected])
        let after = try await publisher.publish("after", channel: "feed")
        let delivered = try await messages(recorder, count: 1)
        #expect(delivered.map(\.timetoken) == [after.timetoken])

        let journal = mock.journal.filter { $0.uuid == "sub" }
        let dropIndex = try #require(journal.firstIndex { $0.rule == "drop" })
        let droppedCursor = try #require(journal[dropIndex].query("tt").flatMap { UInt64($0) })
        let answered = try checkPings(journal, after: dropIndex, failedAtLeast: 2)
        let handshake = try #require(journal.indices.first { $0 > answered && journal[$0].endpoint == .subscribe })
        #expect(journal[handshake].isHandshake)
        let resumed = try #require(journal.indices.first { $0 > handshake && journal[$0].endpoint == .subscribe })
        let resumedCursor = try #require(journal[resumed].query("tt").flatMap { UInt64($0) })
        #expect(resumedCursor > missed.timetoken)
        #expect(resumedCursor > droppedCursor)
        await client.unsubscribeAll()
    }

    @Test func withoutRestoreTheChannelsAreForgotten() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        try mock.install(Self.outagePlan(failingLongPoll: 1))
        let (client, recorder) = try subscriber(mock, restore: false)
        try await client.subscribe(channels: ["feed"])
        let statuses = try #require(await recorder.waitStatuses(3))
        #expect(statuses.map(\.category) == [.connected, .unexpectedDisconnect, .disconnected])
        #expect(statuses[1].willAutomaticallyRetry == false)
        let subscribed = await client.subscribedChannels()
        #expect(subscribed.channels.isEmpty)
        #expect(subscribed.channelGroups.isEmpty)
        #expect(mock.journal.filter { $0.endpoint == .subscribe }.map(\.rule) == [nil, "drop"])
    }

    @Test func aCursorGoingBackwardsDeliversNothingTwice() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        // The second long-poll (the one after `first` was delivered) is answered with a cursor 60 s
        // back, so the third one reads `first` again: it must not be delivered twice.
        try mock.install(#"{"rules":[{"id":"r","match":{"endpoint":"subscribe","query":{"tt":"!0"}},"nth":2,"fault":{"kind":"cursor-backwards"}}]}"#)
        let (client, recorder) = try subscriber(mock)
        let publisher = try makeClient(origin: mock.origin) { $0.uuid = "pub" }
        try await client.subscribe(channels: ["feed"])
        _ = await recorder.waitStatuses(1)
        let first = try await publisher.publish(1, channel: "feed")
        _ = try await messages(recorder, count: 1)
        let second = try await publisher.publish(2, channel: "feed")
        let delivered = try await messages(recorder, count: 2)
        #expect(delivered.map(\.timetoken) == [first.timetoken, second.timetoken])
        let longPolls = mock.journal.filter { $0.isLongPoll }
        let back = try #require(longPolls.firstIndex { $0.rule == "r" })
        let backCursor = try #require(longPolls[back].query("tt").flatMap { UInt64($0) })
        #expect(longPolls.count > back + 1)
        #expect(longPolls[back + 1].query("tt") == String(backCursor - 600_000_000))
        #expect(recorder.statuses.map(\.category) == [.connected])
        await client.unsubscribeAll()
    }
}
