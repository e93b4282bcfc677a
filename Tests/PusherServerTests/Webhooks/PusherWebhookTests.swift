// SPDX-License-Identifier: MIT
import Dispatch
import MockPubNubServer
import MockPusher
import PusherServer
import Synchronization
import Testing

private let hookApp = PusherApp(id: "7", key: "hook-key", secret: "hook-secret")

@Suite("Pusher webhooks", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherWebhookTests {
    @Test func bodyIsTimeInMillisecondsAndEventsSignedOverTheRawBody() {
        let request = PusherWebhookRequest(app: hookApp, events: [.memberAdded(channel: "presence-a", userID: "1")], timeMilliseconds: 1_700_000_000_123)
        let body = String(decoding: request.body, as: UTF8.self)
        #expect(body == #"{"time_ms":1700000000123,"events":[{"name":"member_added","channel":"presence-a","user_id":"1"}]}"#)
        #expect(request.headers["X-Pusher-Key"] == "hook-key")
        // openssl dgst -sha256 -hmac hook-secret over the body above.
        #expect(request.headers["X-Pusher-Signature"] == PusherSignatures.hmacSHA256Hex(secret: "hook-secret", message: body))
        #expect(request.headers["X-Pusher-Signature"]?.count == 64)
    }

    @Test(arguments: ["http://127.0.0.1:9/hook", "http://localhost:8080/x?y=1", "http://[::1]:1/", "http://127.1.2.3:80"])
    func acceptsLoopbackURLs(url: String) throws {
        let target = try PusherWebhookTarget(url: url)
        #expect(target.target.hasPrefix("/"))
    }

    @Test func refusesOtherHostsWithAClearMessage() {
        #expect(throws: PusherWebhookError.notLoopback(url: "http://example.com/hook", host: "example.com")) {
            try PusherWebhookTarget(url: "http://example.com/hook")
        }
        #expect(PusherWebhookError.notLoopback(url: "http://10.0.0.1/", host: "10.0.0.1").description
            == "refused webhook URL 'http://10.0.0.1/': host '10.0.0.1' is not loopback (webhooks only go to 127.0.0.0/8, ::1 or localhost)")
        for url in ["https://127.0.0.1/", "127.0.0.1:80", "http://127.0.0.1:0/", "http://127.0.0.1:x/", "http://128.0.0.1/", "http://127.0.0.256/"] {
            #expect(throws: PusherWebhookError.self) { try PusherWebhookTarget(url: url) }
        }
    }

    @Test func delayBufferSuppressesAVacateUndoneWithinTheWindow() {
        var buffer = PusherWebhookDelayBuffer(delay: .seconds(3))
        typealias Item = PusherWebhookDelayBuffer.Item
        #expect(buffer.receive(Item(appID: "7", event: .channelVacated(channel: "a")), at: 0).isEmpty)
        #expect(buffer.receive(Item(appID: "7", event: .memberRemoved(channel: "presence-b", userID: "1")), at: 0).isEmpty)
        #expect(buffer.receive(Item(appID: "7", event: .channelOccupied(channel: "a")), at: 2_999).isEmpty)
        #expect(buffer.receive(Item(appID: "7", event: .memberAdded(channel: "presence-b", userID: "2")), at: 2_999)
            == [Item(appID: "7", event: .memberAdded(channel: "presence-b", userID: "2"))])
        #expect(buffer.due(at: 2_999).isEmpty)
        #expect(buffer.nextDue == 3_000)
        #expect(buffer.due(at: 3_000) == [Item(appID: "7", event: .memberRemoved(channel: "presence-b", userID: "1"))])
        #expect(buffer.heldCount == 0)
        var off = PusherWebhookDelayBuffer(delay: nil)
        #expect(off.receive(Item(appID: "7", event: .channelVacated(channel: "a")), at: 0).count == 1)
    }

    @Test(.timeLimit(.minutes(TestTime.limitMinutes(5)))) func deliversInOrderWithRetriesAndSignedHeaders() throws {
        let receiver = try WebhookReceiver(statuses: [500, 503])
        defer { receiver.stop() }
        var settings = PusherWebhookSettings()
        settings.initialBackoff = .milliseconds(20)
        settings.batchWindow = nil  // the one-event form: each event its own POST, retried on its own
        let deliveries = Mutex<[PusherWebhookDelivery]>([])
        let dispatcher = try PusherWebhookDispatcher(
            apps: [hookApp], urls: ["7": "http://127.0.0.1:\(receiver.port)/hook/pusher"], settings: settings,
            wallClockMilliseconds: { 1_700_000_000_000 }, observer: { delivery in deliveries.withLock { $0.append(delivery) } })
        defer { dispatcher.stop() }
        dispatcher.submit([.webhook(appID: "7", .channelOccupied(channel: "a")), .send(PusherConnectionID(1), "x"),
                           .webhook(appID: "7", .channelVacated(channel: "a")), .webhook(appID: "8", .channelOccupied(channel: "b"))])
        let received = try #require(receiver.wait(for: 4))
        #expect(received.map(\.body) == [
            #"{"time_ms":1700000000000,"events":[{"name":"channel_occupied","channel":"a"}]}"#,
            #"{"time_ms":1700000000000,"events":[{"name":"channel_occupied","channel":"a"}]}"#,
            #"{"time_ms":1700000000000,"events":[{"name":"channel_occupied","channel":"a"}]}"#,
            #"{"time_ms":1700000000000,"events":[{"name":"channel_vacated","channel":"a"}]}"#,
        ])
        #expect(received.allSatisfy { $0.path == "/hook/pusher" && $0.headers["X-Pusher-Key"] == "hook-key" })
        #expect(received[3].headers["X-Pusher-Signature"] == PusherSignatures.hmacSHA256Hex(secret: "hook-secret", message: received[3].body))
        #expect(received[0].headers["Content-Type"] == "application/json")
        dispatcher.stop()
        #expect(deliveries.withLock { $0.map(\.attempts) } == [3, 1])
        #expect(dispatcher.deliveredCount == 2)
    }

    @Test(.timeLimit(.minutes(TestTime.limitMinutes(5)))) func givesUpAfterTheRetryWindow() throws {
        let receiver = try WebhookReceiver(statuses: Array(repeating: 500, count: 1000))
        defer { receiver.stop() }
        var settings = PusherWebhookSettings()
        settings.initialBackoff = .milliseconds(10)
        settings.retryWindow = .milliseconds(300)
        let done = DispatchSemaphore(value: 0)
        let dispatcher = try PusherWebhookDispatcher(
            apps: [hookApp], urls: ["7": "http://127.0.0.1:\(receiver.port)/hook/"], settings: settings, observer: { _ in done.signal() })
        defer { dispatcher.stop() }
        dispatcher.submit(appID: "7", event: .cacheMiss(channel: "cache-a"))
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect(dispatcher.gaveUpCount == 1)
        // 10, 20, 40, 80, 160 ms waits fit in 300 ms at most: a bounded number of attempts.
        #expect((2...6).contains(receiver.all.count))
    }

    @Test func queueIsBounded() throws {
        var settings = PusherWebhookSettings()
        settings.queueCapacity = 2
        // The window leaves room for the first backoff however long the refused attempt takes
        // (a window equal to the backoff gave up at once when the attempt took a millisecond).
        settings.retryWindow = .seconds(60)
        settings.initialBackoff = .seconds(5)
        // A port nobody listens on: the first event is stuck retrying while more arrive.
        let refused = try WebhookReceiver()
        let port = refused.port
        refused.stop()
        let dispatcher = try PusherWebhookDispatcher(apps: [hookApp], urls: ["7": "http://127.0.0.1:\(port)/hook/"], settings: settings)
        defer { dispatcher.stop() }
        for index in 0..<10 { dispatcher.submit(appID: "7", event: .channelOccupied(channel: "c\(index)")) }
        #expect(dispatcher.droppedCount >= 7)
        #expect(dispatcher.pendingCount <= 2)
    }

    @Test func refusesAWebhookForAnUnknownApp() {
        #expect(throws: PusherWebhookError.unknownApp("9")) {
            try PusherWebhookDispatcher(apps: [hookApp], urls: ["9": "http://127.0.0.1:1/"])
        }
    }
}
