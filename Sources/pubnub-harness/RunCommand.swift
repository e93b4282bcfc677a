// SPDX-License-Identifier: MIT
import ArgumentParser
import BuiltInAdapter
import ConformanceKit
import Foundation

/// `pubnub-harness run`: the conformance suites against a client, with reports.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the conformance suites against a client and report where it departs from the protocol.",
        discussion: "Exit status: 0 when no case failed unexpectedly, 1 when one did, 2 for a usage or setup error."
    )

    @Option(name: .customLong("suite"), help: "Run this suite (repeatable).")
    var suites: [String] = []
    @Option(name: .customLong("case"), help: "Run this case id (repeatable).")
    var caseIDs: [String] = []
    @Option(help: "Seed for case order and fault plans (printed by every run).")
    var seed: UInt64?
    @Option(help: "Write the JSON report here (docs/report-schema.json).")
    var json: String?
    @Option(help: "Write a JUnit XML report here.")
    var junit: String?
    @Option(help: "Write a self-contained HTML report here.")
    var html: String?
    @Option(help: "Drive an external client through the JSON-lines driver protocol (docs/driver-protocol.md).")
    var clientCommand: String?
    @Option(help: "The client's name in reports (default: built-in, or external with --client-command).")
    var clientName: String?
    @Option(help: "The client's expectation file of known deviations.")
    var expectations: String?
    @Option(name: [.customLong("jobs"), .customLong("concurrency")],
            help: "How many cases run at once at first (default: 4 per core, at most 16; 2 per core for a driver that starts a process per case); halved when cases miss their budgets.")
    var jobs: Int?
    @Option(help: "Stretch every case budget and wait window by this factor (>= 1), or 'auto' to measure the machine first.")
    var timeScale: String = "auto"
    @Option(help: "Seconds a driver may take to start and answer hello/configure (outside case budgets).")
    var driverStartTimeout: Double = 30
    @Flag(help: "Do not retry alone a case that ran out of time (no 'flaky' outcome).")
    var noRetry = false
    @Flag(help: "Start a driver process for every case even when its hello offers reuse (docs/driver-protocol.md, Reuse).")
    var noDriverReuse = false
    @Option(help: "Use a running `serve` (HOST:PORT) through its /__admin/ API instead of the in-process server (either family).")
    var server: String?
    @Option(help: "The TLS listener (HOST:PORT) of the --server, if it has one.")
    var tlsServer: String?
    @Option(help: "Directory of crypto vector files (default: the vectors built into the binary).")
    var vectors: String?
    @Option(help: "The protocol family: pubnub (default) or pusher (the Pusher Channels cases; docs/pusher.md).")
    var family: String = "pubnub"
    @Option(help: "Run only shard K of N (K/N): a split of the selected cases balanced by expected duration, the same on every machine and seed.")
    var shard: String?
    @Option(help: "Print how the selected cases split into N shards (--shard K/N runs one), and exit.")
    var listShards: Int?
    @Option(help: "The client's version, kept in the reports (merge groups runs by client and version).")
    var clientVersion: String?
    @Flag(help: "Print the timeline (requests, answers, faults, connections, statuses) of every failed case.")
    var verbose = false

    func validate() throws {
        guard Self.families.contains(family) else { throw ValidationError("--family must be \(Self.families.joined(separator: " or "))") }
        if family != "pubnub", vectors != nil { throw ValidationError("--vectors applies to the pubnub family only") }
        if tlsServer != nil, server == nil { throw ValidationError("--tls-server needs --server") }
        try validateShards()
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be at least 1") }
        if TimeScale.parse(timeScale) == nil { throw ValidationError("--time-scale must be 'auto' or a number from 1 to 100") }
        guard driverStartTimeout.isFinite, driverStartTimeout >= 1, driverStartTimeout <= 600 else {
            throw ValidationError("--driver-start-timeout must be from 1 to 600 seconds")
        }
        for address in [server, tlsServer].compactMap({ $0 }) where !Self.isHostPort(address) {
            throw ValidationError("\(address) is not HOST:PORT")
        }
    }

    /// The `--family` names.
    static let families = ["pubnub", "pusher"]

    func run() async throws {
        for path in [json, junit, html].compactMap({ $0 }) {
            do { try ReportFiles.prepare(path) } catch { throw UsageError("\(error)") }
        }
        switch family {
        case "pusher": try await run(PusherFamily(builtIn: { HarnessWiring.builtInPusherClient() }))
        default:
            let catalog = try CatalogSource.load(vectors: vectors)
            try await run(PubNubFamily(cases: catalog.cases, vectorSource: catalog.vectorSource, builtIn: { HarnessWiring.builtInClient() }))
        }
    }

    /// The one run path: select, expectations, client, server, pacing, run, reports.
    func run<Family: ConformanceFamily>(_ family: Family) async throws {
        var cases: [Family.Case]
        do {
            cases = try family.select(suites: suites, ids: caseIDs)
        } catch {
            throw UsageError("\(error)")
        }
        if applyShards(&cases, id: family.id(of:), expectedMilliseconds: family.expectedMilliseconds) { return }
        let expectationFile = try expectations.map { path throws(UsageError) in
            let data = try readInput(path, what: "expectation file")
            do { return try ExpectationFile.decode(data, source: path) } catch { throw UsageError("\(error)") }
        }
        let client: Family.Client
        if let clientCommand {
            try await Preflight.checkCommand(clientCommand)
            client = family.driverClient(command: clientCommand, name: clientName ?? "external",
                                         startTimeout: .milliseconds(Int(driverStartTimeout * 1_000)),
                                         driverReuse: !noDriverReuse, warmDrivers: warmDriverLimit)
        } else {
            client = family.builtInClient()
        }
        if let server { try await Preflight.checkServer(server) }
        // Chosen before the server: a `--server`'s admin requests get time-scaled timeouts.
        let scale: TimeScale
        if case .some(.some(let factor)) = TimeScale.parse(timeScale) {
            scale = TimeScale(factor: factor, origin: "--time-scale \(timeScale)")
        } else {
            scale = TimeScale.fromProbe(await MachineProbe.measured())
        }
        let harness: FamilyServer<Family.Server>
        do {
            harness = try await family.makeServer(address: server, tlsAddress: tlsServer, timeScale: scale.factor)
        } catch {
            throw UsageError(server == nil ? "cannot start the in-process server: \(error)" : "--server \(server ?? ""): \(error)")
        }
        if let expectationFile {
            for id in family.unknownIDs(in: expectationFile) {
                FileHandle.standardError.write(Data("warning: expectation file lists unknown case \(id)\n".utf8))
            }
        }

        var generator = SystemRandomNumberGenerator()
        let seed = self.seed ?? (generator.next() >> 11)
        let console = ConsoleReporter()
        say("pubnub-harness \(HarnessVersion.current); \(family.banner(serverDescription: harness.description))")
        console.start(total: cases.count, seed: seed, client: family.name(of: client))
        let jobs = self.jobs ?? warmDriverLimit
        // Without --jobs, a driver that turns out to start a process per case (no reuse) starts fewer at once.
        let perCaseJobs = self.jobs == nil && clientCommand != nil
            ? ConcurrencyGovernor.defaultJobs(cores: ProcessInfo.processInfo.activeProcessorCount, externalDriver: true) : nil
        let perCaseNote = perCaseJobs.map { $0 == jobs ? "" : " (\($0) if the driver starts a process per case)" } ?? ""
        console.pacing("\(scale), \(jobs) case(s) at once\(perCaseNote)\(clientCommand == nil ? "" : ", driver start-up limit \(driverStartTimeout) s")")
        let options = RunOptions(seed: seed, concurrency: jobs, perCaseProcessConcurrency: perCaseJobs, expectations: expectationFile,
                                 timeScale: scale.factor, retryMissedTime: !noRetry)
        let report = await family.run(cases, on: harness.server, client: client, options: options) { result, finished, total in
            console.progress(result, finished: finished, total: total)
        }
        if let counts = family.endDrivers(of: client) {
            say(Self.driverSummary(counts))
        }
        await harness.stop()
        console.summary(report)
        try finish(report)
    }

    /// Writes the reports and sets the exit status.
    func finish(_ report: RunReport) throws {
        let report = withContext(report)
        do {
            if let json { try ReportFiles.write(JSONReport.encode(report), to: json) }
            if let junit { try ReportFiles.write(Data(JUnitReport.encode(report).utf8), to: junit) }
            if let html { try ReportFiles.write(Data(HTMLReport.encode(report).utf8), to: html) }
        } catch {
            throw CLIFailure("\(error)")
        }
        if report.exitCode != 0 { throw ExitCode(report.exitCode) }
    }

    /// At most this many driver processes wait between cases: the run's starting concurrency
    /// (without --jobs: the default for the client, warm driver processes unless --no-driver-reuse).
    var warmDriverLimit: Int {
        jobs ?? ConcurrencyGovernor.defaultJobs(cores: ProcessInfo.processInfo.activeProcessorCount, externalDriver: clientCommand != nil,
                                                processPerCase: noDriverReuse)
    }

    /// One line on the driver processes of a run (docs/driver-protocol.md, "Reuse").
    static func driverSummary(_ counts: (started: Int, reused: Int, discarded: Int)) -> String {
        "driver processes: \(counts.started) started, \(counts.reused) case(s) on a warm process, \(counts.discarded) discarded"
    }

    static func isHostPort(_ text: String) -> Bool {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]) else { return false }
        return colon != text.startIndex && (1...65_535).contains(port)
    }

}

/// The integration seam of `run`: the built-in clients (BuiltInAdapter) the families start with.
enum HarnessWiring {
    /// The built-in PubNub client (BuiltInAdapter over ClientUnderTest).
    static func builtInClient() -> any ConformanceClient { BuiltInClient() }

    /// The built-in Pusher client (BuiltInAdapter over PusherClientUnderTest).
    static func builtInPusherClient() -> any PusherConformanceClient { BuiltInPusherClient() }
}
