// SPDX-License-Identifier: MIT
import CPosix
import Synchronization

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

/// The connection events of the listeners someone watches (those opened with
/// `MockServer.openListener`), by port, the last ``capacity`` each.
final class ConnectionEventLog: Sendable {
    static let capacity = 1_000
    private let events = Mutex<[Int: [ConnectionEvent]]>([:])

    /// Starts keeping the events of `port` (forgetting any earlier ones).
    func watch(_ port: Int) { events.withLock { $0[port] = [] } }

    /// Stops keeping the events of `port` and forgets them.
    func unwatch(_ port: Int) { _ = events.withLock { $0.removeValue(forKey: port) } }

    /// Keeps `event` if its port is watched.
    func record(_ event: ConnectionEvent) {
        events.withLock { events in
            guard var list = events[event.localPort] else { return }
            if list.count >= Self.capacity { list.removeFirst() }
            list.append(event)
            events[event.localPort] = list
        }
    }

    func events(port: Int) -> [ConnectionEvent] { events.withLock { $0[port] ?? [] } }
}
