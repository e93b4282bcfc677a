// SPDX-License-Identifier: MIT

/// The PubNub family: the PubNub suites and crypto vector cases, any ``ConformanceClient`` (the
/// built-in one or a JSON-lines driver), the mock PubNub server in process or over `/__admin/`.
public struct PubNubFamily: ConformanceFamily {
    public let name = "pubnub"
    /// The catalog (suites plus the vector cases of the run's vectors).
    public let cases: [ConformanceCase]
    /// Where the vectors came from, for the run's first line.
    public let vectorSource: String
    private let makeBuiltIn: @Sendable () -> any ConformanceClient

    /// - Parameter builtIn: makes the built-in client (it lives in a module above this one).
    public init(cases: [ConformanceCase], vectorSource: String, builtIn: @escaping @Sendable () -> any ConformanceClient) {
        self.cases = cases
        self.vectorSource = vectorSource
        makeBuiltIn = builtIn
    }

    public var knownIDs: Set<String> { Set(cases.map(\.id)) }

    public func select(suites: [String], ids: [String]) throws -> [ConformanceCase] {
        try ConformanceCatalog.select(cases, suites: suites, ids: ids)
    }

    public func id(of testCase: ConformanceCase) -> String { testCase.id }

    public func expectedMilliseconds(_ testCase: ConformanceCase) -> Int { ShardPlan.expectedMilliseconds(testCase) }

    public func builtInClient() -> any ConformanceClient { makeBuiltIn() }

    public func driverClient(command: String, name: String, startTimeout: Duration, driverReuse: Bool, warmDrivers: Int) -> any ConformanceClient {
        ExternalProcessClient(command: command, name: name, startTimeout: startTimeout, driverReuse: driverReuse, warmDrivers: warmDrivers)
    }

    public func endDrivers(of client: any ConformanceClient) -> (started: Int, reused: Int, discarded: Int)? {
        guard let driver = client as? ExternalProcessClient else { return nil }
        driver.endWarmDrivers()
        return driver.driverCounts
    }

    public func name(of client: any ConformanceClient) -> String { client.name }

    public func makeServer(address: String?, tlsAddress: String?, timeScale: Double) async throws -> FamilyServer<any HarnessServer> {
        if let address {
            let timeout = AdminHTTPServer.defaultRequestTimeout * max(1, timeScale)
            return FamilyServer(server: AdminHTTPServer(address: address, tlsAddress: tlsAddress, requestTimeout: timeout), description: "\(address) (--server)")
        }
        let server = try InProcessHarnessServer.start()
        return FamilyServer(server: server, description: "in process", stop: { await server.shutdown() })
    }

    public func run(_ cases: [ConformanceCase], on server: any HarnessServer, client: any ConformanceClient, options: RunOptions,
                    progress: @escaping @Sendable (CaseResult, Int, Int) -> Void) async -> RunReport {
        await ConformanceRunner(server: server, client: client, options: options).run(cases, progress: progress)
    }

    public func banner(serverDescription: String) -> String { "server: \(serverDescription); crypto vectors: \(vectorSource)" }
}
