// SPDX-License-Identifier: MIT

/// One open WebSocket connection as its handler sees it; usable from any thread.
///
/// Frames are encoded on the calling thread and handed to the connection's event loop (directly
/// when called on that loop). Everything is a no-op once the connection is closed; data and pings
/// are dropped once a close frame was sent or received.
public final class WebSocketHandle: Sendable, CustomStringConvertible {
    /// A process-unique connection number (the HTTP connection's id).
    public var id: UInt64 { boundConnection.connectionID }
    /// The peer as `host:port`.
    public var peer: String { boundConnection.peer }
    /// The local port the connection was accepted on.
    public var localPort: Int { boundConnection.localPort }
    /// Whether the connection speaks TLS (wss).
    public var isTLS: Bool { boundConnection.isTLS }

    let loop: EventLoop
    /// Its mutable state is touched only on `loop`'s thread (`perform` hops there first; debug
    /// builds check in `connection`); other threads read only its immutable identity (`let`s of the
    /// connection and its channel: id, peer, port, TLS). One object per handle, no wrapper: a handle
    /// is held for every open WebSocket.
    private nonisolated(unsafe) let boundConnection: WebSocketConnection

    init(connection: WebSocketConnection) {
        loop = connection.loop
        boundConnection = connection
    }

    /// The connection, on its loop's thread.
    var connection: WebSocketConnection {
        loop.assertInLoop("WebSocketHandle.connection")
        return boundConnection
    }

    /// The connection without the thread check, for code that hands it to its loop itself.
    var uncheckedConnection: WebSocketConnection { boundConnection }

    /// Sends a text message (one frame).
    public func send(text: String) {
        var encoder = WebSocketFrameEncoder.server
        let bytes = encoder.encodeText(text)
        perform { $0.sendData(bytes) }
    }

    /// The wire bytes of a server text frame carrying `text`, for `send(encodedFrame:)`.
    public static func encodedTextFrame(_ text: String) -> [UInt8] {
        var encoder = WebSocketFrameEncoder.server
        return encoder.encodeText(text)
    }

    /// Sends a frame encoded once for many connections (a fan-out encodes its message one time,
    /// not once per subscriber). Same rules as `send(text:)`.
    public func send(encodedFrame bytes: [UInt8]) {
        perform { $0.sendData(bytes) }
    }

    /// Sends a binary message (one frame).
    public func send(binary: [UInt8]) {
        var encoder = WebSocketFrameEncoder.server
        let bytes = encoder.encodeBinary(binary)
        perform { $0.sendData(bytes) }
    }

    /// Writes `bytes` exactly (broken frames, split messages: fault injection), while open.
    public func sendRaw(_ bytes: [UInt8]) {
        perform { $0.sendData(bytes) }
    }

    /// Sends a ping (payload cut to 125 bytes); the pong arrives through the handler.
    public func ping(payload: [UInt8] = []) {
        var encoder = WebSocketFrameEncoder.server
        let bytes = encoder.encodePing(payload)
        perform { $0.sendData(bytes) }
    }

    /// Starts the close handshake: sends a close frame with `code` and `reason` (cut to 123 bytes);
    /// the TCP connection is closed when the peer answers, or after `WebSocketSettings.closeTimeout`.
    public func close(code: WebSocketCloseCode = .normalClosure, reason: String = "") {
        perform { $0.startClose(WebSocketClosePayload(code: code, reason: reason)) }
    }

    /// Aborts the connection with RST, without a close frame.
    public func abort() {
        perform { $0.abort() }
    }

    /// Runs `work` after `delay` on this connection's event loop (activity timeouts, periodic
    /// pings); the handle cancels it. Runs even after the connection closed: check in `work`.
    @discardableResult
    package func schedule(after delay: Duration, _ work: @escaping @Sendable () -> Void) -> any ScheduledWork {
        loop.scheduleSendable(afterNanos: delay.clampedNanoseconds, work)
    }

    public var description: String { "WebSocket #\(id) from \(peer)" }

    /// Runs `work` on the connection's loop: now when already there, else through its task queue.
    private func perform(_ work: @escaping @Sendable (WebSocketConnection) -> Void) {
        if loop.inLoop {
            work(connection)
        } else {
            loop.execute { [self] in work(connection) }
        }
    }
}
