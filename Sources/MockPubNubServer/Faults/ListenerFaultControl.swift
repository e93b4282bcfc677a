// SPDX-License-Identifier: MIT

/// Listener-level faults, driven from the admin API (`/__admin/listeners...`).
///
/// The server composition implements it over the transport (`HTTPServer.addListener`,
/// `removeListener`, `queueConnectionFaults`, `reserveRefusedPort`); the admin API only calls it.
/// Errors thrown are reported to the admin client as 400 with their description.
package protocol ListenerFaultControl: Sendable {
    /// Opens a listener on a new loopback port that applies `fault` to every connection; returns the port.
    func openListener(fault: ListenerFault) throws -> Int
    /// Closes a listener opened with `openListener`.
    func closeListener(port: Int) throws
    /// Applies `faults` to the next accepted connections of the listener on `port`, one each, in order.
    func queueConnectionFaults(_ faults: [ListenerFault], port: Int) throws
    /// A loopback port on which connections are refused (nothing listens there).
    func refusedPort() throws -> Int
    /// Open connections and the connections the server closed on its own (timeouts, TLS on the
    /// plain port), for `GET /__admin/connections`; `nil` when not attached to a transport.
    func connectionCounts() -> (open: Int, closed: ConnectionCloseCounts)?
}

extension ListenerFaultControl {
    public func connectionCounts() -> (open: Int, closed: ConnectionCloseCounts)? { nil }
}
