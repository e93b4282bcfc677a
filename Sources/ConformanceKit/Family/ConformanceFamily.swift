// SPDX-License-Identifier: MIT

/// One protocol's conformance: its catalog, its clients, its server and how its cases run. `run`
/// has one path over this protocol (`pubnub-harness run --family NAME`); a new protocol is a server
/// module plus one conforming type (docs/architecture.md, "Adding a protocol family").
public protocol ConformanceFamily: Sendable {
    associatedtype Case: Sendable
    associatedtype Client: Sendable
    associatedtype Server: Sendable

    /// `--family` names it (`pubnub`, `pusher`).
    var name: String { get }
    /// Every case id of the catalog (an expectation file naming another gets a warning).
    var knownIDs: Set<String> { get }
    /// The cases of the given suites and ids; both empty = all. Unknown names throw ``SelectionError``.
    func select(suites: [String], ids: [String]) throws -> [Case]
    /// A case's id (what `--case`, expectation files and reports name it by).
    func id(of testCase: Case) -> String
    /// A case's expected duration in milliseconds, which `run --shard` balances (``ShardPlan``).
    func expectedMilliseconds(_ testCase: Case) -> Int
    /// The family's built-in client.
    func builtInClient() -> Client
    /// A client in any language, run as a driver process speaking the family's driver protocol;
    /// `driverReuse` lets a driver whose `hello` offers it serve many cases, with at most
    /// `warmDrivers` processes waiting between cases (docs/driver-protocol.md, "Reuse").
    func driverClient(command: String, name: String, startTimeout: Duration, driverReuse: Bool, warmDrivers: Int) -> Client
    /// Ends the warm driver processes of a driver client and counts its processes; `nil` for a built-in client.
    func endDrivers(of client: Client) -> (started: Int, reused: Int, discarded: Int)?
    /// The client's name in reports.
    func name(of client: Client) -> String
    /// The server to run on: a new one in this process (`address` nil), or a running `serve` reached
    /// at `address` (and `tlsAddress`) through its `/__admin/` routes, each control request allowed
    /// ``AdminHTTPServer/defaultRequestTimeout`` stretched by `timeScale`.
    func makeServer(address: String?, tlsAddress: String?, timeScale: Double) async throws -> FamilyServer<Server>
    /// Runs `cases` with the scheduling every family shares (``ConformanceRunner/schedule``).
    func run(_ cases: [Case], on server: Server, client: Client, options: RunOptions,
             progress: @escaping @Sendable (CaseResult, Int, Int) -> Void) async -> RunReport
    /// What the run's first line says after the version (server, vectors, …).
    func banner(serverDescription: String) -> String
}

/// A family's server for one run, with how it is described and stopped.
public struct FamilyServer<Server: Sendable>: Sendable {
    public var server: Server
    /// `in process` or `HOST:PORT (--server)`.
    public var description: String
    /// Stops an in-process server; nothing for one in another process.
    public var stop: @Sendable () async -> Void

    public init(server: Server, description: String, stop: @escaping @Sendable () async -> Void = {}) {
        self.server = server
        self.description = description
        self.stop = stop
    }
}

extension ConformanceFamily {
    /// The expectation file's cases this catalog does not have, in file order.
    public func unknownIDs(in file: ExpectationFile) -> [String] {
        file.deviations.map(\.case).filter { !knownIDs.contains($0) }
    }
}
