// SPDX-License-Identifier: MIT
import CPosix

/// Something that happened to a connection before or instead of HTTP: an accept on a listener,
/// a TLS handshake that failed (the peer's alert, a protocol mismatch) or that the peer abandoned.
/// Requests and their answers are in the journal; these are the events it cannot hold.
public struct ConnectionEvent: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// The listener accepted a connection; `detail` is the listener fault applied to it.
        case accepted
        /// The TLS handshake failed; `detail` is the TLS library's reason (e.g. the client's alert).
        case tlsHandshakeFailed = "tls-handshake-failed"
        /// The peer closed the connection during the TLS handshake.
        case closedDuringHandshake = "closed-during-handshake"
    }

    public var kind: Kind
    /// Wall-clock time in Unix seconds.
    public var time: Double
    /// The listener's port.
    public var localPort: Int
    /// The connection, once it has a number (not yet at accept).
    public var connectionID: UInt64?
    public var detail: String

    public init(kind: Kind, time: Double = cposix_wall_seconds(), localPort: Int, connectionID: UInt64? = nil, detail: String) {
        self.kind = kind
        self.time = time
        self.localPort = localPort
        self.connectionID = connectionID
        self.detail = detail
    }
}
