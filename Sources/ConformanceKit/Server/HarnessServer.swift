// SPDX-License-Identifier: MIT
import MockPubNubServer

/// The mock server as the runner controls it: in process (a wrapper around `MockServer`) or over
/// HTTP (`/__admin/`, ``AdminHTTPServer``).
public protocol HarnessServer: Sendable {
    /// `host:port` of the plain HTTP listener.
    var address: String { get }
    /// `host:port` of the TLS listener (trusted leaf), if there is one.
    var tlsAddress: String? { get }
    /// The PEM of the run's test CA, if TLS is available.
    func caPEM() async throws -> String?
    func installPlan(json: JSONValue, subscribeKey: String) async throws
    func clearPlan(subscribeKey: String) async throws
    /// The requests recorded for the key, oldest first.
    func journal(subscribeKey: String) async throws -> [JournalEntry]
    /// Opens a listener applying `fault` (a `ListenerFault` raw value) and returns its port.
    func openListener(fault: String) async throws -> Int
    func closeListener(port: Int) async throws
    /// What happened on the connections of a listener opened with ``openListener(fault:)``
    /// before any HTTP: accepts, failed or abandoned TLS handshakes (default: none known).
    func connectionEvents(port: Int) async throws -> [ConnectionEvent]
    /// A loopback port with nothing listening.
    func refusedPort() async throws -> Int
    /// Enables Access Manager for a keyset.
    func registerKeyset(subscribeKey: String, publishKey: String, secretKey: String) async throws
    /// Grants (or revokes) access on a keyset registered with ``registerKeyset(subscribeKey:publishKey:secretKey:)``.
    func grant(_ grant: Grant, subscribeKey: String) async throws
    /// Publishes `message` (JSON text) as another user would, bypassing Access Manager (the
    /// in-process server injects it; over HTTP it is a plain publish with uuid `harness-publisher`).
    func publish(subscribeKey: String, publishKey: String, channel: String, message: String) async throws
    /// Sends a plain request to the PubNub service; returns the status and body.
    func request(method: String, path: String, query: [(String, String)], body: [UInt8]?) async throws -> (status: Int, body: [UInt8])
}

/// Accepts and TLS handshake outcomes on a listener of a case's own (the server's own type).
public typealias ConnectionEvent = MockPubNubServer.ConnectionEvent

extension HarnessServer {
    /// Servers that cannot tell (the admin API over HTTP) know no connection events.
    public func connectionEvents(port: Int) async throws -> [ConnectionEvent] { [] }
}

/// One request recorded by the server: the fault layer's own type, passed as a value in process
/// and decoded from the admin API's JSON over HTTP (docs/fault-plans.md, journal).
public typealias JournalEntry = MockPubNubServer.JournalEntry

extension JournalEntry {
    /// The endpoint's name (`subscribe`, `publish`, ...), `unknown` for requests that are no PubNub endpoint.
    public var endpointName: String { endpoint?.rawValue ?? "unknown" }

    /// `METHOD path?query [rule]`, for wire logs.
    public var line: String {
        let query = self.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
        return "\(method) \(path)\(query.isEmpty ? "" : "?" + query)\(rule.map { "  [rule \($0)]" } ?? "")"
    }

    /// Whether the query satisfies `conditions` in fault-plan syntax (`*` present, `!` absent,
    /// `!v` present and not `v`, otherwise equal).
    public func queryMatches(_ conditions: [String: String]) -> Bool {
        conditions.allSatisfy { name, pattern in
            // `a|b`: either condition (e.g. `0|!`, a handshake with `tt=0` or without `tt`).
            pattern.split(separator: "|", omittingEmptySubsequences: false).contains { Self.holds(String($0), query[name]) }
        }
    }

    private static func holds(_ condition: String, _ value: String?) -> Bool {
        switch condition {
        case "*": return value != nil
        case "!": return value == nil
        default:
            if condition.hasPrefix("!") { return value != nil && value != String(condition.dropFirst()) }
            return value == condition
        }
    }
}
