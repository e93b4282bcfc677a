// SPDX-License-Identifier: MIT

/// The Pusher family: the `pusher.*` cases, any ``PusherConformanceClient`` (the built-in one or a
/// Pusher driver), the shipped `PusherService` in process or a `serve` over `/__admin/pusher/`.
public struct PusherFamily: ConformanceFamily {
    public let name = "pusher"
    public let cases: [PusherCase]
    private let makeBuiltIn: @Sendable () -> any PusherConformanceClient

    /// - Parameter builtIn: makes the built-in Pusher client (it lives in a module above this one).
    public init(cases: [PusherCase] = PusherCatalog.all(), builtIn: @escaping @Sendable () -> any PusherConformanceClient) {
        self.cases = cases
        makeBuiltIn = builtIn
    }

    public var knownIDs: Set<String> { Set(cases.map(\.id)) }

    public func select(suites: [String], ids: [String]) throws -> [PusherCase] {
        try PusherCatalog.select(cases, groups: suites, ids: ids)
    }

    public func id(of testCase: PusherCase) -> String { testCase.id }

    public func expectedMilliseconds(_ testCase: PusherCase) -> Int { ShardPlan.expectedMilliseconds(testCase) }

    public func builtInClient() -> any PusherConformanceClient { makeBuiltIn() }

    public func driverClient(command: String, name: String, startTimeout: Duration, driverReuse: Bool, warmDrivers: Int) -> any PusherConformanceClient {
        PusherDriverClient(command: command, name: name, startTimeout: startTimeout, driverReuse: driverReuse, warmDrivers: warmDrivers)
    }

    public func endDrivers(of client: any PusherConformanceClient) -> (started: Int, reused: Int, discarded: Int)? {
        guard let driver = client as? PusherDriverClient else { return nil }
        driver.endWarmDrivers()
        return driver.driverCounts
    }

    public func name(of client: any PusherConformanceClient) -> String { client.name }

    public func makeServer(address: String?, tlsAddress: String?, timeScale: Double) async throws -> FamilyServer<any PusherHarnessServer> {
        if let address {
            let timeout = AdminHTTPServer.defaultRequestTimeout * max(1, timeScale)
            return FamilyServer(server: try AdminHTTPPusherServer(address: address, tlsAddress: tlsAddress, requestTimeout: timeout),
                                description: "\(address) (--server)")
        }
        let server = try InProcessPusherServer.start()
        return FamilyServer(server: server, description: "in process", stop: { await server.shutdown() })
    }

    public func run(_ cases: [PusherCase], on server: any PusherHarnessServer, client: any PusherConformanceClient, options: RunOptions,
                    progress: @escaping @Sendable (CaseResult, Int, Int) -> Void) async -> RunReport {
        await PusherRunner(client: client, options: options).run(cases, on: server, progress: progress)
    }

    public func banner(serverDescription: String) -> String { "family: pusher; server: \(serverDescription)" }
}
