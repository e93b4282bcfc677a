// SPDX-License-Identifier: MIT
import HarnessTesting
import MockPubNubServer
import MockPusher
import PusherServer
import Synchronization

/// The app every socket test serves unless told otherwise.
let testApp = PusherApp(id: "4242", key: "test-key", secret: "test-secret")

/// Webhook events the service handed to its sink, in order.
final class WebhookLog: Sendable {
    private let events = Mutex<[(appID: String, event: PusherWebhookEvent)]>([])
    func append(_ appID: String, _ event: PusherWebhookEvent) { events.withLock { $0.append((appID, event)) } }
    var all: [PusherWebhookEvent] { events.withLock { $0.map(\.event) } }
    var appIDs: [String] { events.withLock { $0.map(\.appID) } }
}

/// A started mock server with a Pusher service on its listeners.
struct PusherTestServer {
    let server: MockServer
    let service: PusherService
    let webhooks: WebhookLog

    var port: Int { server.address!.port }
    var tlsPort: Int { server.tlsAddress!.port }
    var caPEM: String { server.certificateAuthorityPEM }

    /// Opens a socket on `/app/KEY?query` (TLS when `tls`) and checks the 101.
    func connect(key: String = testApp.key, query: String = "protocol=7&client=js&version=8.4.0&flash=false", tls: Bool = false) throws -> PusherTestSocket {
        let client = try WebSocketTestClient(port: tls ? tlsPort : port, trustedCAPEM: tls ? caPEM : nil)
        let (text, head) = try client.handshake(target: "/app/\(key)" + (query.isEmpty ? "" : "?" + query))
        guard head.status == 101 else { throw BlockingTestClient.ClientError(description: "no upgrade: \(text)") }
        return PusherTestSocket(client: client)
    }

    /// Connects and reads `connection_established`; the socket and its socket id.
    func established(tls: Bool = false) throws -> (socket: PusherTestSocket, socketID: String) {
        let socket = try connect(tls: tls)
        let text = try socket.nextText()
        return (socket, try PusherTestSocket.socketID(inEstablished: text))
    }
}

/// Runs `body` against a started server serving `apps` (plain and TLS listeners); stops it afterwards.
func withPusherServer<T>(
    apps: [PusherApp] = [testApp], seed: UInt64 = 7, configure: (inout MockServerConfiguration) -> Void = { _ in },
    httpSessions: PusherHTTPSessionSettings = PusherHTTPSessionSettings(),
    _ body: (PusherTestServer) throws -> T
) throws -> T {
    let webhooks = WebhookLog()
    var options = PusherServiceOptions(socketIDs: PusherSocketIDGenerator(seed: seed), webhookSink: { webhooks.append($0, $1) })
    options.httpSessions = httpSessions
    let service = PusherService(apps: apps, options: options)
    var configuration = MockServerConfiguration.loopback(tls: true)
    configuration.eventLoopCount = 2
    configuration.extensions = service.extensions
    configure(&configuration)
    let server = try MockServer(configuration: configuration)
    try server.start()
    defer { server.stop() }
    return try body(PusherTestServer(server: server, service: service, webhooks: webhooks))
}

extension PusherTestServer {
    /// One HTTP request on a fresh connection (`Connection: close`); the parsed response.
    func http(_ method: String, _ target: String, body: String = "") throws -> HTTPResponseText {
        let client = try BlockingTestClient(port: port)
        client.send("\(method) \(target) HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        return HTTPResponseText(client.readToEnd().bytes)
    }

    /// Installs `plan` (JSON text) for the test app's key through the admin API; fails the test on an error.
    func installPlan(_ plan: String, key: String = testApp.key) throws {
        let response = try http("PUT", "/__admin/pusher/plan?app_key=\(key)", body: plan)
        guard response.status == 200 else { throw BlockingTestClient.ClientError(description: "plan refused: \(response.bodyText)") }
    }
}
