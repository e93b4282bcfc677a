// SPDX-License-Identifier: MIT

/// What an extension implements to serve one WebSocket connection.
///
/// Every call comes on the connection's event-loop thread, in order, and must not block. The
/// transport itself answers pings, answers a peer's close frame and closes on protocol errors
/// (1002, 1007, 1009); the handler only sees the outcome.
public protocol WebSocketHandler: Sendable {
    /// The 101 answer is queued; the connection can send from now on.
    func webSocketDidOpen(_ connection: WebSocketHandle)
    /// A complete, valid UTF-8 text message.
    func webSocket(_ connection: WebSocketHandle, didReceiveText text: String)
    /// A complete binary message (only when `acceptsBinaryMessages`).
    func webSocket(_ connection: WebSocketHandle, didReceiveBinary bytes: [UInt8])
    /// A pong (the answer to `ping`, or an unsolicited one).
    func webSocket(_ connection: WebSocketHandle, didReceivePong payload: [UInt8])
    /// A ping from the peer, for activity tracking only: the transport has already queued the pong.
    func webSocket(_ connection: WebSocketHandle, didReceivePing payload: [UInt8])
    /// The connection ended; called exactly once. `code`/`reason` are those of the peer's close
    /// frame (1005 when it had no code); for a close the server started and the peer never
    /// answered, the server's code; 1006 when TCP ended without a close frame; the error's code
    /// (1002/1007/1009/1003) when the server failed the connection. `clean` = both close frames
    /// were exchanged.
    func webSocketDidClose(_ connection: WebSocketHandle, code: WebSocketCloseCode, reason: String, clean: Bool)
    /// When false, a binary message closes the connection with 1003 instead of being delivered.
    var acceptsBinaryMessages: Bool { get }
    /// When false, the transport does not answer the peer's pings (fault injection: withheld pongs).
    var answersPings: Bool { get }
}

extension WebSocketHandler {
    public func webSocket(_ connection: WebSocketHandle, didReceiveBinary bytes: [UInt8]) {}
    public func webSocket(_ connection: WebSocketHandle, didReceivePong payload: [UInt8]) {}
    public func webSocket(_ connection: WebSocketHandle, didReceivePing payload: [UInt8]) {}
    public var acceptsBinaryMessages: Bool { true }
    public var answersPings: Bool { true }
}
