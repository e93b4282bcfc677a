// SPDX-License-Identifier: MIT
import MockPubNubServer
import Foundation
import Synchronization
@testable import ConformanceKit

/// An in-memory server: records control calls, serves a journal that sessions append to.
final class FakeServer: HarnessServer {
    struct Calls {
        var installed: [String: JSONValue] = [:]
        var cleared: [String] = []
        var opened: [String] = []
        var closed: [Int] = []
        var published: [(String, String, String)] = []
        var journal: [String: [JournalEntry]] = [:]
    }

    let calls = Mutex(Calls())
    let address = "127.0.0.1:1"
    let tlsAddress: String? = "127.0.0.1:2"
    let supportsAccessManager: Bool

    init(supportsAccessManager: Bool = true) { self.supportsAccessManager = supportsAccessManager }

    func caPEM() async throws -> String? { "-----BEGIN CERTIFICATE-----\nfake\n-----END CERTIFICATE-----\n" }
    func installPlan(json: JSONValue, subscribeKey: String) async throws { calls.withLock { $0.installed[subscribeKey] = json } }
    func clearPlan(subscribeKey: String) async throws { calls.withLock { $0.cleared.append(subscribeKey) } }
    func journal(subscribeKey: String) async throws -> [JournalEntry] { calls.withLock { $0.journal[subscribeKey] ?? [] } }
    func openListener(fault: String) async throws -> Int {
        calls.withLock { $0.opened.append(fault); return 40_000 + $0.opened.count }
    }
    func closeListener(port: Int) async throws { calls.withLock { $0.closed.append(port) } }
    func refusedPort() async throws -> Int { 39_999 }
    func registerKeyset(subscribeKey: String, publishKey: String, secretKey: String) async throws {
        if !supportsAccessManager { throw HarnessServerError.unsupported("keysets") }
    }
    func grant(_ grant: Grant, subscribeKey: String) async throws {}
    func publish(subscribeKey: String, publishKey: String, channel: String, message: String) async throws {
        calls.withLock { $0.published.append((subscribeKey, channel, message)) }
    }
    func request(method: String, path: String, query: [(String, String)], body: [UInt8]?) async throws -> (status: Int, body: [UInt8]) {
        (200, Array("[1,\"OK\"]".utf8))
    }

    func record(_ subscribeKey: String, _ entry: JournalEntry) {
        calls.withLock { $0.journal[subscribeKey, default: []].append(entry) }
    }
}

/// What a scripted session does for one operation.
typealias Script = @Sendable (ClientOperation, FakeSession) async throws -> OperationResult

/// A client whose sessions follow a script; records configurations it was given.
final class ScriptedClient: ConformanceClient {
    let name = "scripted"
    let capabilities: Set<Capability>
    let capabilityOrigin: CapabilityOrigin
    let script: Script
    let server: FakeServer
    let configurations = Mutex<[ClientSessionConfiguration]>([])
    let closedSessions = Mutex(0)
    /// Events a session emits while closing (a driver's SDK reporting its own shutdown).
    let closingEvents: [ClientEvent]

    init(server: FakeServer, capabilities: Set<Capability> = Set(Capability.allCases), capabilityOrigin: CapabilityOrigin = .client,
         closingEvents: [ClientEvent] = [], script: @escaping Script) {
        self.server = server
        self.capabilities = capabilities
        self.capabilityOrigin = capabilityOrigin
        self.closingEvents = closingEvents
        self.script = script
    }

    func makeSession(configuration: ClientSessionConfiguration) async throws -> any ClientSession {
        configurations.withLock { $0.append(configuration) }
        return FakeSession(configuration: configuration, client: self)
    }
}

final class FakeSession: ClientSession {
    let configuration: ClientSessionConfiguration
    let client: ScriptedClient
    let events: AsyncStream<ClientEvent>
    private let sink: AsyncStream<ClientEvent>.Continuation

    init(configuration: ClientSessionConfiguration, client: ScriptedClient) {
        self.configuration = configuration
        self.client = client
        (events, sink) = AsyncStream.makeStream(of: ClientEvent.self)
    }

    func emit(_ event: ClientEvent) { sink.yield(event) }

    /// Appends a journal entry for this session's key.
    func wire(_ endpoint: String, query: [String: String] = [:], at time: Double = 0) {
        client.server.record(configuration.subscribeKey, JournalEntry(
            method: "GET", path: "/\(endpoint)", query: query, arrivalTime: time, endpoint: endpoint,
            subscribeKey: configuration.subscribeKey, uuid: configuration.uuid))
    }

    func perform(_ operation: ClientOperation) async throws -> OperationResult {
        try await client.script(operation, self)
    }

    func close() async {
        client.closedSessions.withLock { $0 += 1 }
        for event in client.closingEvents { sink.yield(event) }
        if !client.closingEvents.isEmpty {
            // Models a driver that takes a moment to shut down, so the events are delivered
            // before `close` returns (not a synchronisation: the runner must ignore them anyway).
            try? await Task.sleep(for: .milliseconds(50))
        }
        sink.finish()
    }
}

extension ConformanceCase {
    /// A minimal case for runner tests.
    static func test(_ id: String, steps: [CaseStep], expected: [StatusCategory], alternatives: [Alternative] = [],
                     tolerated: [StatusCategory] = [], budget: Duration = .seconds(2), plan: JSONValue? = nil,
                     listener: ListenerSetup = .shared, requires: Set<Capability> = []) -> ConformanceCase {
        ConformanceCase(id, "test \(id)", spec: "§0", plan: plan, listener: listener, steps: steps, expected: expected,
                        tolerated: tolerated, alternatives: alternatives, timeBudget: budget, requires: requires)
    }
}

extension JournalEntry {
    /// An entry for fakes: the query as a dictionary (in name order), the endpoint by name.
    init(method: String, path: String, query: [String: String] = [:], arrivalTime: Double, endpoint: String,
         subscribeKey: String = "", uuid: String? = nil, rule: String? = nil) {
        self.init(method: method, path: path, query: query.sorted { $0.key < $1.key }.map { QueryItem(name: $0.key, value: $0.value) },
                  arrivalTime: arrivalTime, endpoint: PubNubEndpoint(rawValue: endpoint), subscribeKey: subscribeKey,
                  uuid: uuid, rule: rule)
    }
}

/// The time scale of this machine, measured once per test process as `run --time-scale auto`
/// does: tests that run cases through the runner stretch their windows on a loaded machine.
enum TestPacing {
    private static let cached = Mutex<Double?>(nil)

    /// The time scale for an in-process run, once the pool has worked through the test run's
    /// first burst (the runner's budgets are wall-clock ones; see ``ProgressTime/settle(limit:streak:)``).
    static func scale() async -> Double {
        await ProgressTime.settle()
        // The cached probe, or the test suite's scale now when the machine got busier since.
        if let known = cached.withLock({ $0 }) { return max(known, TestTime.scale) }
        // The runner's own probe (what `run --time-scale auto` would choose), or the test suite's
        // load probe and HARNESS_TEST_TIME_SCALE when they call for more.
        let measured = max(TimeScale.fromProbe(await MachineProbe.measured()).factor, TestTime.scale)
        return cached.withLock { value in
            if value == nil { value = measured }
            return value ?? measured
        }
    }
}
