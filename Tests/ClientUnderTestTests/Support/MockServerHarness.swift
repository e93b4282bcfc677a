// SPDX-License-Identifier: MIT
import MockPubNubServer

/// The real in-process `MockServer` (fault layer, journal, admin API, PubNub service, TLS) on
/// 127.0.0.1:0, with helpers for the one subscribe key the tests' clients use (`sub-k`).
final class MockServerHarness: Sendable {
    let server: MockServer
    let port: Int
    /// The subscribe key whose plan and journal the helpers address.
    let subscribeKey: String

    init(keysets: [Keyset] = [], subscribeKey: String = "sub-k") throws {
        var configuration = MockServerConfiguration.loopback(tls: false)
        configuration.keysets = keysets
        configuration.eventLoopCount = 1
        server = try MockServer(configuration: configuration)
        port = try server.start().port
        self.subscribeKey = subscribeKey
    }

    static func start() throws -> MockServerHarness { try MockServerHarness() }

    var origin: String { "127.0.0.1:\(port)" }

    /// Installs a fault plan (docs/fault-plans.md) for the key, replacing its plan and counters.
    func install(_ plan: String) throws {
        try server.installPlan(json: Array(plan.utf8), subscribeKey: subscribeKey)
    }

    /// Installs a plan of one rule with this `match` (JSON object text) and `fault`.
    func installRule(match: String = "{}", times: Int? = nil, fault: String) throws {
        let budget = times.map { #","times":\#($0)"# } ?? ""
        try install(#"{"rules":[{"id":"r","match":\#(match)\#(budget),"fault":\#(fault)}]}"#)
    }

    /// The key's journal, oldest first.
    var journal: [JournalEntry] { server.journal(subscribeKey: subscribeKey) }

    func stop() { server.stop() }
}

extension JournalEntry {
    /// The first value of query parameter `name`.
    func query(_ name: String) -> String? { query.first { $0.name == name }?.value }
    var isLongPoll: Bool { endpoint == .subscribe && query("tt") != "0" }
    var isHandshake: Bool { endpoint == .subscribe && query("tt") == "0" }
}
