// SPDX-License-Identifier: MIT
import Synchronization

/// The connection events of the listeners someone watches (those opened with
/// `ServerHost.openListener`), by port, the last ``capacity`` each.
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
