// SPDX-License-Identifier: MIT
import Dispatch
import MockPubNubServer
import Synchronization

/// A webhook receiver on a real loopback socket: a mock server whose extension records every POST
/// under `/hook/` and answers the scripted statuses in turn (then 200).
final class WebhookReceiver: Sendable {
    struct Received: Sendable {
        var path: String
        var headers: HTTPHeaders
        var body: String
    }

    private let received = Mutex<[Received]>([])
    private let statuses: Mutex<[Int]>
    private let signal = DispatchSemaphore(value: 0)
    let server: MockServer
    let port: Int

    init(statuses: [Int] = []) throws {
        self.statuses = Mutex(statuses)
        var configuration = MockServerConfiguration.loopback()
        configuration.eventLoopCount = 1
        let sink = Sink()
        configuration.extensions = [sink]
        server = try MockServer(configuration: configuration)
        port = try server.start().port
        sink.receiver.withLock { $0.value = self }
    }

    func stop() { server.stop() }

    fileprivate func record(_ request: HTTPRequest) -> Int {
        received.withLock { $0.append(Received(path: request.target, headers: request.headers, body: String(decoding: request.body, as: UTF8.self))) }
        signal.signal()
        return statuses.withLock { $0.isEmpty ? 200 : $0.removeFirst() }
    }

    var all: [Received] { received.withLock { $0 } }

    /// Waits up to `seconds` for at least `count` requests.
    func wait(for count: Int, seconds: Double = 10) -> [Received]? {
        let deadline = DispatchTime.now() + seconds
        for _ in 0..<100_000 {
            if all.count >= count { return all }
            if signal.wait(timeout: deadline) == .timedOut { return all.count >= count ? all : nil }
        }
        return nil
    }
}

private final class Sink: ServerExtension {
    /// Weakly: the receiver owns the server, which owns this extension.
    struct WeakReceiver: Sendable { weak var value: WebhookReceiver? }

    let receiver = Mutex(WeakReceiver())
    var httpPathPrefixes: [String] { ["/hook/"] }

    func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        let status = receiver.withLock { $0.value }?.record(request) ?? 503
        _ = responder.send(.respond(HTTPResponse(status: status, headers: ["Content-Type": "text/plain"], body: Array("ok".utf8))))
    }
}
