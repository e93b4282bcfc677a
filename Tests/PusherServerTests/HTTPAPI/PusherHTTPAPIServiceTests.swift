// SPDX-License-Identifier: MIT
import Dispatch
import HarnessHTTPClient
import HarnessTesting
import MockPubNubServer
import MockPusher
import PusherServer
import Testing

/// The HTTP API and webhooks through a `PusherService` (the composition `serve` runs), with real
/// WebSocket clients, a real HTTP client and a real webhook receiver.
@Suite("Pusher HTTP API and webhooks: through the service", .offPool, .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherHTTPAPIServiceTests {
    @Test(.timeLimit(.minutes(TestTime.limitMinutes(5)))) func signedTriggerReachesSubscribersAndWebhooksAreSigned() throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let dispatcher = try PusherWebhookDispatcher(apps: [testApp], urls: [testApp.id: "http://127.0.0.1:\(receiver.port)/hook/"])
        defer { dispatcher.stop() }
        let options = PusherServiceOptions(webhookSink: { appID, event in dispatcher.submit(appID: appID, event: event) })
        let service = PusherService(apps: [testApp], options: options)
        var configuration = MockServerConfiguration.loopback()
        configuration.eventLoopCount = 2
        configuration.extensions = service.extensions
        let server = try MockServer(configuration: configuration)
        service.attach(to: server)
        let port = try server.start().port
        defer { server.stop() }
        let test = PusherTestServer(server: server, service: service, webhooks: WebhookLog())

        let (socket, _) = try test.established()
        _ = try socket.subscribe("news")
        let webhook = try #require(receiver.wait(for: 1))
        #expect(webhook[0].body.hasSuffix(#""events":[{"name":"channel_occupied","channel":"news"}]}"#))
        #expect(webhook[0].headers["X-Pusher-Key"] == testApp.key)
        #expect(webhook[0].headers["X-Pusher-Signature"] == PusherSignatures.hmacSHA256Hex(secret: testApp.secret, message: webhook[0].body))

        let body = Array(#"{"name":"flash","data":"{\"n\":1}","channels":["news"]}"#.utf8)
        let path = "/apps/\(testApp.id)/events"
        let query = PusherRequestAuthentication.signedQuery(
            app: testApp, method: "POST", path: path, body: body, timestamp: PusherWebhookDispatcher.unixMilliseconds() / 1000)
        let client = try HTTPClient(host: "127.0.0.1", port: port, trust: nil, userAgent: "test")
        let target = path + "?" + query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        let response = try client.performBlocking(HTTPClientRequest(method: "POST", target: target, body: body), timeout: 10).get()
        #expect(response.statusCode == 200)
        #expect(String(decoding: response.body, as: UTF8.self) == "{}")
        #expect(try socket.nextText() == #"{"event":"flash","data":"{\"n\":1}","channel":"news"}"#)
        #expect(service.apiJournal.all.map(\.status) == [200])
    }
}
