// SPDX-License-Identifier: MIT
import Dispatch
import Synchronization
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// What a test handler saw, in order.
enum WebSocketEvent: Sendable, Hashable {
    case opened(UInt64)
    case text(String)
    case binary(Int)
    case pong([UInt8])
    case ping([UInt8])
    case closed(code: UInt16, reason: String, clean: Bool)
}

/// Handler events that a synchronous test can wait for (bounded by a deadline, woken per event).
final class WebSocketEventLog: Sendable {
    /// A handle held weakly: the handle keeps its connection, whose handler keeps this log.
    private struct WeakHandle: Sendable { weak var handle: WebSocketHandle? }

    private let events = Mutex<[WebSocketEvent]>([])
    private let handles = Mutex<[WeakHandle]>([])
    private let signal = DispatchSemaphore(value: 0)

    func append(_ event: WebSocketEvent) {
        events.withLock { $0.append(event) }
        signal.signal()
    }

    func remember(_ handle: WebSocketHandle) { handles.withLock { $0.append(WeakHandle(handle: handle)) } }

    var all: [WebSocketEvent] { events.withLock { $0 } }
    /// The newest handle while its connection is open (the connection holds it until then).
    var lastHandle: WebSocketHandle? { handles.withLock { $0.last?.handle } }
    /// The handles of the connections still open, in the order they opened.
    var allHandles: [WebSocketHandle] { handles.withLock { $0.compactMap(\.handle) } }

    /// Waits up to `seconds` for `predicate` to hold; returns the events then (nil on timeout).
    func wait(seconds: Double = 5, until predicate: ([WebSocketEvent]) -> Bool) -> [WebSocketEvent]? {
        let deadline = DispatchTime.now() + seconds
        for _ in 0..<100_000 {
            let snapshot = all
            if predicate(snapshot) { return snapshot }
            if signal.wait(timeout: deadline) == .timedOut { return predicate(all) ? all : nil }
        }
        return nil
    }

    /// The close event, once there is one.
    func waitForClose(seconds: Double = 5) -> WebSocketEvent? {
        wait(seconds: seconds) { $0.contains { if case .closed = $0 { true } else { false } } }?.first {
            if case .closed = $0 { true } else { false }
        }
    }
}

/// Echoes text and binary; "close-me" starts a server close (4000 "bye"), "ping-me" pings,
/// "fill" writes 16 × 1 MiB, "flood" 4,096 × 32 KiB binary messages from the loop (outbound limit).
struct EchoWebSocketHandler: WebSocketHandler {
    let log: WebSocketEventLog
    var acceptsBinaryMessages = true

    func webSocketDidOpen(_ connection: WebSocketHandle) {
        log.remember(connection)
        log.append(.opened(connection.id))
    }

    func webSocket(_ connection: WebSocketHandle, didReceiveText text: String) {
        log.append(.text(text))
        switch text {
        case "close-me": connection.close(code: WebSocketCloseCode(4000), reason: "bye")
        case "ping-me": connection.ping(payload: [1, 2, 3])
        case "fill":
            let chunk = [UInt8](repeating: 0x46, count: 1 << 20)
            for _ in 0..<16 { connection.send(binary: chunk) }
        case "flood":
            let chunk = [UInt8](repeating: 0x5A, count: 32 * 1024)
            for _ in 0..<4096 { connection.send(binary: chunk) }
        default: connection.send(text: text)
        }
    }

    func webSocket(_ connection: WebSocketHandle, didReceiveBinary bytes: [UInt8]) {
        log.append(.binary(bytes.count))
        connection.send(binary: bytes)
    }

    func webSocket(_ connection: WebSocketHandle, didReceivePong payload: [UInt8]) {
        log.append(.pong(payload))
    }

    func webSocket(_ connection: WebSocketHandle, didReceivePing payload: [UInt8]) {
        log.append(.ping(payload))
    }

    func webSocketDidClose(_ connection: WebSocketHandle, code: WebSocketCloseCode, reason: String, clean: Bool) {
        log.append(.closed(code: code.rawValue, reason: reason, clean: clean))
    }
}

/// Claims `/ws` (echo), `/text-only` (echo, binary refused with 1003), refuses `/forbidden` with
/// 403, and answers plain HTTP under `/ext/`.
struct EchoExtension: ServerExtension {
    let log: WebSocketEventLog

    func webSocketUpgrade(for request: HTTPRequest, context: RequestContext) -> WebSocketUpgradeDecision {
        switch request.rawPath {
        case "/ws": return .accept(EchoWebSocketHandler(log: log))
        case "/text-only": return .accept(EchoWebSocketHandler(log: log, acceptsBinaryMessages: false))
        case "/forbidden": return .refuse(HTTPResponse(status: 403, headers: ["Content-Type": "text/plain"], body: Array("no\n".utf8)))
        default: return .notMine
        }
    }

    var httpPathPrefixes: [String] { ["/ext/"] }

    func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        responder.send(.respond(HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array("ext \(request.rawPath)".utf8))))
    }
}

/// Runs `body` against a started mock server with the echo extension; stops it afterwards.
func withWebSocketServer<T>(
    tls: Bool = false, configure: (inout MockServerConfiguration) -> Void = { _ in },
    _ body: (MockServer, WebSocketEventLog) throws -> T
) throws -> T {
    let log = WebSocketEventLog()
    var configuration = MockServerConfiguration.loopback(tls: tls)
    configuration.eventLoopCount = 2
    configuration.extensions = [EchoExtension(log: log)]
    configure(&configuration)
    let server = try MockServer(configuration: configuration)
    try server.start()
    defer { server.stop() }
    return try body(server, log)
}
