// SPDX-License-Identifier: MIT
import HarnessJSON
import MockPubNubServer
import Testing
@testable import ClientUnderTest

/// Push registration, custom message types, filter expressions and wildcard subscriptions of the
/// client against the real in-process server.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct MockServerModernTests {
    @Test func pushRegistrationRoundTripsForV1AndAPNs2() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let client = try makeClient(origin: mock.origin)
        let apns = PNPushDevice(token: "00aa11bb", type: .apns)
        let apns2 = PNPushDevice(token: "00aa11bb", type: .apns2, topic: "com.example.app", environment: .production)
        #expect(await client.addPushChannels(["b", "a"], device: apns).category == .acknowledgment)
        #expect(await client.addPushChannels(["c"], device: apns2).category == .acknowledgment)
        #expect(try await client.pushChannels(for: apns).channels == ["a", "b"])
        #expect(try await client.pushChannels(for: apns2).channels == ["c"])
        #expect(await client.removePushChannels(["a"], device: apns).category == .acknowledgment)
        #expect(try await client.pushChannels(for: apns).channels == ["b"])
        #expect(await client.removePushDevice(apns2).category == .acknowledgment)
        #expect(try await client.pushChannels(for: apns2).channels == [])
        let push = mock.journal.filter { $0.endpoint == .push }
        #expect(push.count == 8)
        #expect(push.first?.query("type") == "apns")
        #expect(push.first?.query("add") == "b,a")
        #expect(push[1].path == "/v2/push/sub-key/sub-k/devices-apns2/00aa11bb")
        #expect(push[1].query("topic") == "com.example.app" && push[1].query("environment") == "production")
    }

    @Test func pushRefusalsComeBeforeOrFromTheServer() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let client = try makeClient(origin: mock.origin)
        let noTopic = await client.addPushChannels(["a"], device: PNPushDevice(token: "00", type: .apns2))
        #expect(noTopic.category == .badRequest && noTopic.statusCode == 0)
        let empty = await client.addPushChannels([], device: PNPushDevice(token: "00", type: .apns))
        #expect(empty.category == .badRequest)
        let badToken = await client.addPushChannels(["a"], device: PNPushDevice(token: "not-hex", type: .apns))
        #expect(badToken.category == .badRequest && badToken.statusCode == 400)
        #expect(mock.journal.filter { $0.endpoint == .push }.count == 1)
    }

    @Test func aPublishWithAPushPayloadIsJournalledAsANotice() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let client = try makeClient(origin: mock.origin)
        _ = await client.addPushChannels(["news"], device: PNPushDevice(token: "fcm-1", type: .fcm))
        let sent = try await client.publish(["pn_fcm": ["notification": ["title": "hi"]]], channel: "news")
        let notice = try #require(mock.journal.first { $0.method == "PUSH" })
        #expect(notice.endpoint == .push)
        #expect(notice.path == "/push/fcm/fcm-1")
        #expect(notice.query("timetoken") == String(sent.timetoken))
        #expect(notice.query("uuid") == "tester")
        #expect(notice.body == "{\"notification\":{\"title\":\"hi\"}}")
    }

    @Test func customMessageTypeIsSentAndReceived() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let client = try makeClient(origin: mock.origin)
        let recorder = Recorder()
        client.addListener(recorder)
        try await client.subscribe(channels: ["typed"])
        _ = try #require(await recorder.events.wait { events in events.contains { if case .status(let s) = $0 { s.category == .connected } else { false } } })
        _ = try await client.publish("hello", channel: "typed", customMessageType: "chat-text")
        _ = try await client.signal("typing", channel: "typed", customMessageType: "typing_on")
        let events = try #require(await recorder.events.wait { $0.compactMap(\.messageEvent).count + $0.compactMap(\.signalEvent).count >= 2 })
        #expect(events.compactMap(\.messageEvent).first?.customMessageType == "chat-text")
        #expect(events.compactMap(\.signalEvent).first?.customMessageType == "typing_on")
        do {
            _ = try await client.publish("x", channel: "typed", customMessageType: "pn-reserved")
            Issue.record("a reserved custom message type was accepted")
        } catch {
            #expect(error.category == .badRequest && error.statusCode == 400)
        }
        await client.unsubscribeAll()
    }

    @Test func filterExpressionAndWildcardSelectWhatArrives() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let client = try makeClient(origin: mock.origin) { $0.filterExpression = "meta.keep == 1" }
        let publisher = try makeClient(origin: mock.origin) { $0.uuid = "publisher" }
        let recorder = Recorder()
        client.addListener(recorder)
        try await client.subscribe(channels: ["room.*"])
        _ = try #require(await recorder.events.wait { events in events.contains { if case .status(let s) = $0 { s.category == .connected } else { false } } })
        _ = try await publisher.publish("dropped", channel: "room.a", meta: ["keep": 0])
        _ = try await publisher.publish("elsewhere", channel: "hall.a", meta: ["keep": 1])
        _ = try await publisher.publish("kept", channel: "room.b", meta: ["keep": 1])
        let events = try #require(await recorder.events.wait { $0.compactMap(\.messageEvent).count >= 1 })
        let message = try #require(events.compactMap(\.messageEvent).first)
        #expect(message.message == "kept" && message.channel == "room.b" && message.subscription == "room.*")
        #expect(mock.journal.contains { $0.endpoint == .subscribe && $0.query("filter-expr") == "meta.keep == 1" })
        await client.unsubscribeAll()
    }
}

private extension PubNubEvent {
    var signalEvent: PNMessageEvent? { if case .signal(let s) = self { s } else { nil } }
}
