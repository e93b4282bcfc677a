// SPDX-License-Identifier: MIT

/// A client the harness can drive: the built-in one, an external process, or any adapter.
public protocol ConformanceClient: Sendable {
    /// A short name for reports and expectation files (e.g. `built-in`).
    var name: String { get }
    /// What the client can do; cases requiring anything else are skipped.
    var capabilities: Set<Capability> { get }
    /// Where ``capabilities`` come from, for the reason a case is skipped (default ``CapabilityOrigin/client``).
    var capabilityOrigin: CapabilityOrigin { get }
    /// Starts one client instance configured for one case.
    func makeSession(configuration: ClientSessionConfiguration) async throws -> any ClientSession
    /// Where the client legitimately differs from the reference (see ``ProfileRules``).
    var profile: ClientProfile { get }
    /// The client ready for a run (e.g. an external driver asked for its `hello`); called once.
    func prepared() async -> any ConformanceClient
    /// Whether every case starts a process of its own (a driver without warm processes): the run
    /// then starts fewer cases at once (``RunOptions/perCaseProcessConcurrency``).
    var startsProcessPerCase: Bool { get }
}

extension ConformanceClient {
    public var capabilityOrigin: CapabilityOrigin { .client }
    public var profile: ClientProfile { .reference }
    public func prepared() async -> any ConformanceClient { self }
    public var startsProcessPerCase: Bool { false }
}

/// One configured client instance, used by one case.
public protocol ClientSession: Sendable {
    /// Everything the client's listeners observe, in order. Finishes after `close()`.
    var events: AsyncStream<ClientEvent> { get }
    /// Performs an operation and returns its result. Throws ``ClientAdapterError/unsupported(_:)``
    /// for an operation the client does not offer (the case is then skipped).
    func perform(_ operation: ClientOperation) async throws -> OperationResult
    /// Stops the client (unsubscribes, closes connections). Must be safe to call twice.
    func close() async
}

/// Why an adapter could not do what the runner asked.
public enum ClientAdapterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The client has no such operation.
    case unsupported(String)
    /// The client broke its contract (e.g. a driver sent an unreadable line or exited).
    case protocolViolation(String)
    /// The client process or instance could not be started.
    case startFailed(String)

    public var description: String {
        switch self {
        case .unsupported(let what): "client does not support \(what)"
        case .protocolViolation(let what): "client protocol violation: \(what)"
        case .startFailed(let what): "client could not start: \(what)"
        }
    }
}
