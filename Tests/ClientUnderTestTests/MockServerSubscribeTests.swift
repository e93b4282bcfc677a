// SPDX-License-Identifier: MIT
import MockPubNubServer
import PubNubCrypto
import Testing
@testable import ClientUnderTest

/// Subscribe-loop statuses produced by the real mock server's subscribe faults.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct MockServerSubscribeTests {
    static let firstLongPoll = #"{"endpoint":"subscribe","query":{"tt":"!0"}}"#

    private func subscribed(_ mock: MockServerHarness, configure: (inout PubNubConfiguration) -> Void = { _ in })
        async throws -> (PubNubClient, Recorder)
    {
        let client = try makeClient(origin: mock.origin, configure: configure)
        let recorder = Recorder()
        client.addListener(recorder)
        try await client.subscribe(channels: ["feed"])
        return (client, recorder)
    }

    @Test func messageCountThresholdIsReportedBeforeTheMessages() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        try mock.installRule(match: Self.firstLongPoll, times: 1, fault: #"{"kind":"messages","count":5}"#)
        let (client, recorder) = try await subscribed(mock) { $0.requestMessageCountThreshold = 5 }
        let events = try #require(await recorder.events.wait { $0.compactMap(\.messageEvent).count >= 5 })
        #expect(recorder.statuses.map(\.category) == [.connected, .requestMessageCountExceeded])
        let statusIndex = try #require(events.firstIndex {
            if case .status(let s) = $0 { s.category == .requestMessageCountExceeded } else { false }
        })
        let firstMessage = try #require(events.firstIndex { $0.messageEvent != nil })
        #expect(statusIndex < firstMessage)
        let messages = events.compactMap(\.messageEvent)
        #expect(messages.map(\.message) == (1...5).map { JSONValue.object(["n": .int(Int64($0)), "text": .string("message \($0) of 5")]) })
        #expect(Set(messages.map(\.channel)) == ["feed"])
        #expect(messages.map(\.publisher) == Array(repeating: "fault-injector", count: 5))
        await client.unsubscribeAll()
    }

    @Test func belowTheThresholdNothingIsReported() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        try mock.installRule(match: Self.firstLongPoll, times: 1, fault: #"{"kind":"messages","count":4}"#)
        let (client, recorder) = try await subscribed(mock) { $0.requestMessageCountThreshold = 5 }
        _ = try #require(await recorder.events.wait { $0.compactMap(\.messageEvent).count >= 4 })
        #expect(recorder.statuses.map(\.category) == [.connected])
        await client.unsubscribeAll()
    }

    @Test(arguments: CryptoScheme.allCases)
    func aMessageEncryptedWithAnotherKeyIsDeliveredAsReceived(scheme: CryptoScheme) async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let fault = #"{"kind":"foreign-encrypted","cipherKey":"other","scheme":"\#(scheme.rawValue)","message":"{\"x\":1}"}"#
        try mock.installRule(match: Self.firstLongPoll, times: 1, fault: fault)
        let cipher = try PubNubCryptoCipher(cipherKey: "enigma", scheme: scheme)
        let (client, recorder) = try await subscribed(mock) { $0.cipher = cipher }
        let events = try #require(await recorder.events.wait { $0.compactMap(\.messageEvent).count >= 1 })
        let message = try #require(events.compactMap(\.messageEvent).first)
        #expect(message.decryptionFailed)
        let ciphertext = try #require(message.message.stringValue)
        #expect(try CryptoModule(cipherKey: "other", scheme: scheme).decryptMessage(ciphertext) == #"{"x":1}"#)
        #expect(recorder.statuses.map(\.category) == [.connected, .decryptionError])
        #expect(recorder.statuses.last?.errorData?.channels == ["feed"])
        await client.unsubscribeAll()
    }

    @Test func accessDeniedOnTheHandshakeStopsTheLoop() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        try mock.installRule(match: #"{"endpoint":"subscribe"}"#, fault: #"{"kind":"status","status":403}"#)
        let (client, recorder) = try await subscribed(mock)
        let statuses = try #require(await recorder.waitStatuses(1))
        #expect(statuses.map(\.category) == [.accessDenied])
        #expect(statuses[0].statusCode == 403)
        #expect(statuses[0].errorData?.channels == ["feed"])
        #expect(statuses[0].operation == .subscribe)
        #expect(mock.journal.filter { $0.endpoint == .subscribe }.count == 1)
        await client.unsubscribeAll()
    }

    @Test func accessDeniedOnALongPollAfterConnected() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        try mock.installRule(match: Self.firstLongPoll, fault: #"{"kind":"status","status":403}"#)
        let (client, recorder) = try await subscribed(mock)
        let statuses = try #require(await recorder.waitStatuses(2))
        #expect(statuses.map(\.category) == [.connected, .accessDenied])
        #expect(statuses[1].errorData?.channels == ["feed"])
        await client.unsubscribeAll()
        #expect(recorder.statuses.map(\.category) == [.connected, .accessDenied, .disconnected])
    }

    @Test(arguments: [500, 502, 504])
    func serverErrorsOnALongPollAreUnexpectedDisconnects(code: Int) async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        try mock.installRule(match: Self.firstLongPoll, times: 1, fault: #"{"kind":"status","status":\#(code)}"#)
        let (client, recorder) = try await subscribed(mock) { $0.reconnectionPingInterval = 0.05 }
        let statuses = try #require(await recorder.waitStatuses(3))
        #expect(statuses.map(\.category) == [.connected, .unexpectedDisconnect, .reconnected])
        #expect(statuses[1].statusCode == code)
        await client.unsubscribeAll()
    }

    @Test func heartbeatsRunOnTheirIntervalAndFailuresAreReported() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        try mock.installRule(match: #"{"endpoint":"heartbeat"}"#, times: 2, fault: #"{"kind":"status","status":500}"#)
        let (client, recorder) = try await subscribed(mock) {
            $0.presenceHeartbeatValue = 20
            $0.presenceHeartbeatInterval = 0.1
        }
        let statuses = try #require(await recorder.waitStatuses(3))
        #expect(statuses.map(\.category) == [.connected, .unknown, .unknown])
        #expect(statuses.dropFirst().map(\.operation) == [.heartbeat, .heartbeat])
        #expect(statuses.dropFirst().map(\.statusCode) == [500, 500])
        let journal = mock.journal
        #expect(journal.first { $0.isHandshake }?.query("heartbeat") == "20")
        let beats = journal.filter { $0.endpoint == .heartbeat }
        #expect(beats.prefix(2).map(\.rule) == ["r", "r"])
        #expect(beats.allSatisfy { $0.path == "/v2/presence/sub-key/sub-k/channel/feed/heartbeat" && $0.query("heartbeat") == "20" })
        // Each beat starts a full interval after the previous one ended (stamps may be 10 ms late).
        #expect(beats[1].arrivalTime - beats[0].arrivalTime >= 0.09)
        await client.unsubscribeAll()
    }

    @Test func aUserWithoutHeartbeatsTimesOut() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let watcher = try makeClient(origin: mock.origin) { $0.uuid = "watcher" }
        let events = Recorder()
        watcher.addListener(events)
        try await watcher.subscribe(channels: ["room"], withPresence: true)
        #expect(await events.waitStatuses(1)?.map(\.category) == [.connected])
        let alice = try makeClient(origin: mock.origin) {
            $0.uuid = "alice"
            $0.allowsShortPresenceTimeout = true
            $0.presenceHeartbeatValue = 1
            $0.presenceHeartbeatInterval = 0
        }
        #expect(await alice.heartbeat(channels: ["room"]).category == .acknowledgment)
        let seen = try #require(await events.events.wait(timeout: 8) { items in
            items.contains { if case .presence(let p) = $0 { p.uuid == "alice" && p.event == "timeout" } else { false } }
        })
        let aliceEvents = seen.compactMap { event -> PNPresenceEvent? in
            if case .presence(let p) = event, p.uuid == "alice" { p } else { nil }
        }
        #expect(aliceEvents.map(\.event) == ["join", "timeout"])
        #expect(aliceEvents.last?.occupancy == 1)
        let beat = try #require(mock.journal.first { $0.endpoint == .heartbeat })
        #expect(beat.uuid == "alice")
        #expect(beat.query("heartbeat") == "1")
        await watcher.unsubscribeAll()
    }

    @Test func aLongPollTimeoutRestartsSilentlyWithTheSameCursor() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        try mock.installRule(match: Self.firstLongPoll, times: 1, fault: #"{"kind":"hang"}"#)
        let (client, recorder) = try await subscribed(mock) { $0.subscribeMaximumIdleTime = TestTime.budget(0.5) }
        _ = await recorder.waitStatuses(1)
        let publisher = try makeClient(origin: mock.origin) { $0.uuid = "pub" }
        // The publish lands while the hung long-poll waits or after it; either way the restarted
        // long-poll (same cursor) delivers it.
        let sent = try await publisher.publish("after the timeout", channel: "feed")
        let events = try #require(await recorder.events.wait { $0.compactMap(\.messageEvent).count >= 1 })
        #expect(events.compactMap(\.messageEvent).map(\.timetoken) == [sent.timetoken])
        #expect(recorder.statuses.map(\.category) == [.connected])
        let longPolls = mock.journal.filter { $0.isLongPoll }
        #expect(longPolls.count >= 2)
        #expect(longPolls.first?.rule == "r")
        #expect(longPolls.prefix(2).map { $0.query("tt") } == [longPolls[0].query("tt"), longPolls[0].query("tt")])
        await client.unsubscribeAll()
    }

    @Test func aHandshakeTimeoutIsAnUnexpectedDisconnect() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        try mock.installRule(match: #"{"endpoint":"subscribe","query":{"tt":"0"}}"#, times: 1, fault: #"{"kind":"hang"}"#)
        let (client, recorder) = try await subscribed(mock) {
            $0.subscribeMaximumIdleTime = TestTime.budget(0.5)
            $0.reconnectionPingInterval = 0.05
        }
        let statuses = try #require(await recorder.waitStatuses(2))
        #expect(statuses.map(\.category) == [.unexpectedDisconnect, .reconnected])
        #expect(mock.journal.filter { $0.endpoint == .subscribe || $0.endpoint == .time }.map(\.endpoint)
            .prefix(3) == [.subscribe, .time, .subscribe])
        await client.unsubscribeAll()
    }

    @Test(arguments: [true, false])
    func aChannelListChangeKeepsTheTimetokenWhenAsked(keep: Bool) async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let (client, recorder) = try await subscribed(mock) { $0.keepTimeTokenOnListChange = keep }
        _ = await recorder.waitStatuses(1)
        let publisher = try makeClient(origin: mock.origin) { $0.uuid = "pub" }
        let first = try await publisher.publish(1, channel: "feed")
        _ = try #require(await recorder.events.wait { $0.compactMap(\.messageEvent).count >= 1 })
        let cursor = await client.currentTimetoken()
        try await client.subscribe(channels: ["more"])
        _ = await recorder.waitStatuses(2)
        let second = try await publisher.publish(2, channel: "more")
        let events = try #require(await recorder.events.wait { $0.compactMap(\.messageEvent).count >= 2 })
        #expect(events.compactMap(\.messageEvent).map(\.timetoken) == [first.timetoken, second.timetoken])
        let journal = mock.journal.filter { $0.endpoint == .subscribe }
        let rehandshake = try #require(journal.indices.last { journal[$0].isHandshake })
        #expect(journal[rehandshake].path == "/v2/subscribe/sub-k/feed,more/0")
        let next = try #require(journal.indices.first { $0 > rehandshake })
        let nextCursor = try #require(journal[next].query("tt").flatMap { UInt64($0) })
        if keep {
            #expect(nextCursor == cursor)
        } else {
            #expect(nextCursor > cursor)
        }
        await client.unsubscribeAll()
    }
}
