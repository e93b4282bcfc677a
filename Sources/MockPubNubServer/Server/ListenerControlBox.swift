// SPDX-License-Identifier: MIT
import Synchronization

/// The admin API's handle on the host's listeners.
///
/// The admin API is built inside `ServerHost`'s initialiser, before the host exists, so this
/// box is created first and attached to the host right after.
final class ListenerControlBox: ListenerFaultControl {
    /// Weak: the host owns the admin API, which owns this box.
    private struct Target {
        weak var host: ServerHost?
    }

    private let target = Mutex<Target?>(nil)

    func attach(host: ServerHost) {
        target.withLock { $0 = Target(host: host) }
    }

    private func attached() throws(MockServerError) -> ServerHost {
        guard let host = target.withLock({ $0?.host }) else { throw MockServerError(.notRunning) }
        return host
    }

    func openListener(fault: ListenerFault) throws -> Int {
        try attached().openListener(fault: fault).port
    }

    func closeListener(port: Int) throws {
        try attached().closeListener(port: port)
    }

    func queueConnectionFaults(_ faults: [ListenerFault], port: Int) throws {
        try attached().queueConnectionFaults(faults, port: port)
    }

    func connectionCounts() -> (open: Int, closed: ConnectionCloseCounts)? {
        guard let host = target.withLock({ $0?.host }) else { return nil }
        return (host.openConnectionCount, host.connectionCloseCounts)
    }

    func refusedPort() throws -> Int {
        try attached().refusedPort().port
    }
}
