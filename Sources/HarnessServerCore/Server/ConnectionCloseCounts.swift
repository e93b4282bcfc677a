// SPDX-License-Identifier: MIT

/// Connections the server closed on its own initiative, by reason, since it was created.
public struct ConnectionCloseCounts: Sendable, Hashable {
    /// A request head (or body) did not complete within `headerTimeout`: answered 408, then closed.
    public var headerTimeouts: Int
    /// A keep-alive connection stayed without a request for `idleTimeout`: closed (FIN).
    public var idleTimeouts: Int
    /// A TLS handshake arrived on a plain HTTP listener: answered 400, then closed.
    public var tlsOnPlainPort: Int

    public init(headerTimeouts: Int = 0, idleTimeouts: Int = 0, tlsOnPlainPort: Int = 0) {
        self.headerTimeouts = headerTimeouts
        self.idleTimeouts = idleTimeouts
        self.tlsOnPlainPort = tlsOnPlainPort
    }
}
