// SPDX-License-Identifier: MIT
import Dispatch
import Synchronization
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// A handler built from a closure.
struct ClosureHandler: RequestHandler {
    let body: @Sendable (HTTPRequest, RequestContext, Responder) -> Void

    func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        body(request, context, responder)
    }
}

/// Keeps responders of parked requests and lets a test wait for them (bounded).
final class ParkedRequests: Sendable {
    private let parked = Mutex<[(HTTPRequest, Responder)]>([])
    private let arrivals = DispatchSemaphore(value: 0)
    private let cancellations = DispatchSemaphore(value: 0)

    func park(_ request: HTTPRequest, _ responder: Responder) {
        responder.onCancel { [cancellations] in cancellations.signal() }
        parked.withLock { $0.append((request, responder)) }
        arrivals.signal()
    }

    /// How many parked requests have not been taken with `next()`.
    var count: Int { parked.withLock { $0.count } }

    /// Waits for the next parked request; nil after 5 s.
    func next() -> (HTTPRequest, Responder)? {
        guard arrivals.wait(timeout: .now() + TestTime.budget(5)) == .success else { return nil }
        return parked.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }

    /// Waits for one cancellation; false after 5 s.
    func waitForCancellation() -> Bool { cancellations.wait(timeout: .now() + TestTime.budget(5)) == .success }
}

/// Starts a server on 127.0.0.1:0 with `handler`, runs `body`, stops the server. Framing errors
/// get the mock's balancer answers unless `parseErrorResponse` says otherwise.
@discardableResult
func withServer<T>(
    loops: Int = 2, configure: (inout HTTPServerConfiguration) -> Void = { _ in },
    parseErrorResponse: @escaping HTTPParseErrorResponder = BalancerErrors.response, handler: any RequestHandler,
    _ body: (HTTPServer, Int) throws -> T
) throws -> T {
    var configuration = HTTPServerConfiguration(eventLoopCount: loops)
    configure(&configuration)
    let server = HTTPServer(configuration: configuration, parseErrorResponse: parseErrorResponse, handler: handler)
    let address = try server.start()
    defer { server.stop() }
    return try body(server, address.port)
}

/// Answers `200` with `METHOD TARGET BODY` as text.
let echoHandler = ClosureHandler { request, _, responder in
    let text = "\(request.method) \(request.target) \(String(decoding: request.body, as: UTF8.self))"
    responder.send(.respond(HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array(text.utf8))))
}

func okResponse(_ body: String, close: Bool = false) -> String {
    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\nConnection: \(close ? "close" : "keep-alive")\r\n\r\n\(body)"
}
