// SPDX-License-Identifier: MIT

/// Limits of the WebSocket connections of a server (see docs/websocket.md).
public struct WebSocketSettings: Sendable, Hashable {
    /// Largest frame payload and largest reassembled message accepted from a peer; more → close 1009.
    public var maxMessageBytes: Int
    /// Bytes the server may hold unsent for one connection (the peer does not read). Going over
    /// aborts the connection (RST) instead of buffering without bound.
    public var maxOutboundBytes: Int
    /// How long a close started by the server waits for the peer's close frame before the TCP
    /// connection is closed anyway.
    public var closeTimeout: Duration

    public init(maxMessageBytes: Int = 1 << 20, maxOutboundBytes: Int = 4 << 20, closeTimeout: Duration = .seconds(5)) {
        self.maxMessageBytes = max(125, maxMessageBytes)
        self.maxOutboundBytes = max(1024, maxOutboundBytes)
        self.closeTimeout = closeTimeout
    }
}
