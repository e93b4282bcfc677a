// SPDX-License-Identifier: MIT
import MockPusher
import PusherServer
import Testing

private let batchApp = PusherApp(id: "7", key: "hook-key", secret: "hook-secret")

/// Batched webhooks (spec §7; the service: at most 250 ms or 20 events per POST), pure and against
/// a real receiver on loopback.
@Suite("Pusher webhooks: batches", .offPool, .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherWebhookBatchTests {
    typealias Item = PusherWebhookDelayBuffer.Item

    @Test func batcherClosesAtTheWindowOrTheLimitPerApp() {
        var batcher = PusherWebhookBatcher(window: .milliseconds(250), limit: 3)
        #expect(batcher.receive(Item(appID: "7", event: .channelOccupied(channel: "a")), at: 0).isEmpty)
        #expect(batcher.receive(Item(appID: "8", event: .channelOccupied(channel: "b")), at: 100).isEmpty)
        #expect(batcher.receive(Item(appID: "7", event: .channelVacated(channel: "a")), at: 249).isEmpty)
        #expect(batcher.nextDue == 250)
        #expect(batcher.heldCount == 3)
        #expect(batcher.due(at: 249).isEmpty)
        #expect(batcher.due(at: 250) == [.init(appID: "7", events: [.channelOccupied(channel: "a"), .channelVacated(channel: "a")])])
        #expect(batcher.receive(Item(appID: "8", event: .channelVacated(channel: "b")), at: 300).isEmpty)
        #expect(batcher.receive(Item(appID: "8", event: .channelOccupied(channel: "b")), at: 301)
            == [.init(appID: "8", events: [.channelOccupied(channel: "b"), .channelVacated(channel: "b"), .channelOccupied(channel: "b")])])
        #expect(batcher.nextDue == nil)
        var single = PusherWebhookBatcher(window: nil)
        #expect(single.receive(Item(appID: "7", event: .cacheMiss(channel: "cache-a")), at: 0) == [.init(appID: "7", events: [.cacheMiss(channel: "cache-a")])])
    }

    @Test func defaultsAreTheService() {
        #expect(PusherWebhookSettings().batchWindow == .milliseconds(250))
        #expect(PusherWebhookSettings().batchLimit == 20)
    }

    @Test(.timeLimit(.minutes(TestTime.limitMinutes(5)))) func twoEventsWithinTheWindowArriveInOneSignedPost() throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        var settings = PusherWebhookSettings()
        settings.batchWindow = .milliseconds(400)
        let dispatcher = try PusherWebhookDispatcher(
            apps: [batchApp], urls: ["7": "http://127.0.0.1:\(receiver.port)/hook/"], settings: settings, wallClockMilliseconds: { 1_700_000_000_000 })
        defer { dispatcher.stop() }
        dispatcher.submit(appID: "7", event: .channelOccupied(channel: "a"))
        dispatcher.submit(appID: "7", event: .memberAdded(channel: "presence-b", userID: "1"))
        let received = try #require(receiver.wait(for: 1))
        #expect(received[0].body == #"{"time_ms":1700000000000,"events":[{"name":"channel_occupied","channel":"a"},"#
            + #"{"name":"member_added","channel":"presence-b","user_id":"1"}]}"#)
        #expect(received[0].headers["X-Pusher-Key"] == "hook-key")
        // openssl dgst -sha256 -hmac hook-secret over the whole body.
        #expect(received[0].headers["X-Pusher-Signature"] == PusherSignatures.hmacSHA256Hex(secret: "hook-secret", message: received[0].body))
        dispatcher.stop()
        #expect(receiver.all.count == 1)
    }

    @Test(.timeLimit(.minutes(TestTime.limitMinutes(5)))) func eventsApartArriveInTwoPosts() throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        var settings = PusherWebhookSettings()
        settings.batchWindow = .milliseconds(50)
        let dispatcher = try PusherWebhookDispatcher(apps: [batchApp], urls: ["7": "http://127.0.0.1:\(receiver.port)/hook/"], settings: settings)
        defer { dispatcher.stop() }
        dispatcher.submit(appID: "7", event: .channelOccupied(channel: "a"))
        // The first batch is posted before the second event exists: it cannot join it.
        #expect(receiver.wait(for: 1) != nil)
        dispatcher.submit(appID: "7", event: .channelVacated(channel: "a"))
        let received = try #require(receiver.wait(for: 2))
        #expect(received.map { $0.body.drop { $0 != "[" } } == [#"[{"name":"channel_occupied","channel":"a"}]}"#, #"[{"name":"channel_vacated","channel":"a"}]}"#])
        #expect(received.allSatisfy { $0.headers["X-Pusher-Signature"] == PusherSignatures.hmacSHA256Hex(secret: "hook-secret", message: $0.body) })
    }

    @Test(.timeLimit(.minutes(TestTime.limitMinutes(5)))) func withoutAWindowEachEventIsItsOwnPost() throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        var settings = PusherWebhookSettings()
        settings.batchWindow = nil
        let dispatcher = try PusherWebhookDispatcher(apps: [batchApp], urls: ["7": "http://127.0.0.1:\(receiver.port)/hook/"], settings: settings)
        defer { dispatcher.stop() }
        dispatcher.submit(appID: "7", event: .channelOccupied(channel: "a"))
        dispatcher.submit(appID: "7", event: .cacheMiss(channel: "cache-a"))
        let received = try #require(receiver.wait(for: 2))
        #expect(received.map { $0.body.drop { $0 != "[" } } == [#"[{"name":"channel_occupied","channel":"a"}]}"#, #"[{"name":"cache_miss","channel":"cache-a"}]}"#])
    }
}
