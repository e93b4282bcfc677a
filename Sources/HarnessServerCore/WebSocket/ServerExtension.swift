// SPDX-License-Identifier: MIT

/// A module plugged into the mock server beside the PubNub service: it claims WebSocket upgrade
/// requests and plain HTTP requests by path. Installed through `MockServerConfiguration.extensions`;
/// with none installed the server behaves exactly as without this hook.
///
/// Every method is called on an event-loop thread and must not block.
public protocol ServerExtension: Sendable {
    /// Decides about a request that asks for a WebSocket upgrade (`Upgrade: websocket`). `.notMine`
    /// lets the next extension (and finally the PubNub service) see it as an ordinary request.
    /// After `.accept`, the handshake headers are checked; an invalid handshake is answered with
    /// `handshakeRefusal` and the handler is dropped without any call.
    func webSocketUpgrade(for request: HTTPRequest, context: RequestContext) -> WebSocketUpgradeDecision

    /// Path prefixes (raw, e.g. `/apps/`) of plain HTTP requests this extension answers through
    /// `handle`, before the fault layer and the PubNub service see them.
    var httpPathPrefixes: [String] { get }

    /// Answers a plain HTTP request under one of `httpPathPrefixes`.
    func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder)

    /// The answer to an upgrade this extension accepted but whose handshake is invalid
    /// (400, or 426 with `Sec-WebSocket-Version: 13`). Default: the reason as plain text.
    func handshakeRefusal(_ refusal: WebSocketHandshakeRefusal) -> HTTPResponse
}

/// An extension's answer to an upgrade request.
public enum WebSocketUpgradeDecision: Sendable {
    /// Switch protocols; `handler` serves the connection.
    case accept(any WebSocketHandler)
    /// Answer with this response instead (the connection then closes).
    case refuse(HTTPResponse)
    /// Not this extension's path.
    case notMine
}

extension ServerExtension {
    public func webSocketUpgrade(for request: HTTPRequest, context: RequestContext) -> WebSocketUpgradeDecision { .notMine }

    public var httpPathPrefixes: [String] { [] }

    public func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        responder.send(.respond(HTTPResponse(status: 404, headers: ["Content-Type": "text/plain"], body: Array("Not Found\n".utf8))))
    }

    public func handshakeRefusal(_ refusal: WebSocketHandshakeRefusal) -> HTTPResponse {
        var headers: HTTPHeaders = ["Content-Type": "text/plain; charset=utf-8"]
        for field in refusal.headers { headers.add(field.name, field.value) }
        return HTTPResponse(status: refusal.status, headers: headers, body: Array((refusal.message + "\n").utf8))
    }
}

/// An extension that needs timers of its own (sweeps, batched deliveries): the server hands it its
/// scheduler once, while it is being created, before any request arrives.
package protocol SchedulingServerExtension: ServerExtension {
    func attach(scheduler: any Scheduler)
}
