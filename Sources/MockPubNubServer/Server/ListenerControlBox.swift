// SPDX-License-Identifier: MIT
import Synchronization

/// The admin API's handle on the transport's listeners.
///
/// The admin API is built inside `HTTPServer`'s initialiser, before the server exists, so this
/// box is created first and attached to the server right after.
final class ListenerControlBox: ListenerFaultControl {
    /// Weak: the server owns the admin API, which owns this box.
    private struct Target {
        weak var http: HTTPServer?
        var tls: StreamFactory
        var host: String
    }

    private let target = Mutex<Target?>(nil)

    func attach(http: HTTPServer, tls: StreamFactory, host: String) {
        target.withLock { $0 = Target(http: http, tls: tls, host: host) }
    }

    private func attached() throws -> (http: HTTPServer, tls: StreamFactory, host: String) {
        guard let target = target.withLock({ $0 }), let http = target.http else {
            throw MockServerError(.notRunning)
        }
        return (http, target.tls, target.host)
    }

    func openListener(fault: ListenerFault) throws -> Int {
        let target = try attached()
        return try target.http.addListener(
            host: target.host, port: 0, fault: fault, streamFactory: fault.isTLS ? target.tls : nil
        ).port
    }

    func closeListener(port: Int) throws {
        try attached().http.removeListener(port: port)
    }

    func queueConnectionFaults(_ faults: [ListenerFault], port: Int) throws {
        try attached().http.queueConnectionFaults(faults, port: port)
    }

    func connectionCounts() -> (open: Int, closed: ConnectionCloseCounts)? {
        guard let http = target.withLock({ $0?.http }) else { return nil }
        return (http.openConnectionCount, http.connectionCloseCounts)
    }

    func refusedPort() throws -> Int {
        let target = try attached()
        return try target.http.reserveRefusedPort(host: target.host).port
    }
}
