// SPDX-License-Identifier: MIT
import HarnessJSON
import Foundation
import Testing
@testable import ConformanceKit

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct RunnerTests {
    /// A client that acknowledges publishes, times out `time`, connects on subscribe and
    /// delivers whatever the runner publishes through the fake server.
    static func standardScript(timeCategory: StatusCategory = .timeout) -> Script {
        { operation, session in
            switch operation {
            case .publish:
                session.wire("publish", query: ["uuid": session.configuration.uuid])
                return .acknowledgment(data: ["timetoken": "17000000000000000"])
            case .time:
                return .failure(timeCategory)
            case .subscribe(let channels, _, _, _):
                session.wire("subscribe", query: ["tt": "0"])
                session.emit(.status(StatusEvent(category: .connected)))
                for channel in channels { session.emit(.message(MessageEvent(channel: channel, message: "hello"))) }
                return .acknowledgment()
            case .hereNow:
                throw ClientAdapterError.unsupported("hereNow")
            default:
                return OperationResult()
            }
        }
    }

    func run(_ cases: [ConformanceCase], script: @escaping Script = standardScript(), seed: UInt64 = 7,
             expectations: ExpectationFile? = nil, capabilities: Set<Capability> = Set(Capability.allCases),
             server: FakeServer = FakeServer()) async -> (RunReport, ScriptedClient) {
        let (report, client, _) = await runScaled(cases, script: script, seed: seed, expectations: expectations, capabilities: capabilities, server: server)
        return (report, client)
    }

    /// ``run(_:script:seed:expectations:capabilities:server:)`` that also returns the time scale the run had
    /// (the scale follows the machine's load, so a second read may differ).
    func runScaled(_ cases: [ConformanceCase], script: @escaping Script = standardScript(), seed: UInt64 = 7,
                   expectations: ExpectationFile? = nil, capabilities: Set<Capability> = Set(Capability.allCases),
                   server: FakeServer = FakeServer()) async -> (RunReport, ScriptedClient, Double) {
        let client = ScriptedClient(server: server, capabilities: capabilities, script: script)
        let scale = await TestPacing.scale()
        let runner = ConformanceRunner(server: server, client: client, options: RunOptions(seed: seed, concurrency: 3, expectations: expectations,
                                                                                           timeScale: scale))
        return (await runner.run(cases), client, scale)
    }

    @Test func strictPass() async throws {
        let (report, _) = await run([.test("a.b.pass", steps: [.publish("c", 1), .expect(.acknowledgment),
                                                               .expectJournal(.count(endpoint: "publish", query: ["uuid": "{uuid}"], atLeast: 1, atMost: 1), withinMs: 0)],
                                           expected: [.acknowledgment])])
        let result = try #require(report.results.first)
        #expect(result.outcome == .pass)
        #expect(result.detail == "")
        #expect(result.observed == [.acknowledgment])
        #expect(result.wireLog == ["GET /publish?uuid=\(CaseKeys(caseID: "a.b.pass").uuid)"])
        #expect(report.exitCode == 0)
    }

    @Test func alternativeIsNonStrict() async throws {
        let testCase = ConformanceCase.test("a.b.alt", steps: [.time, .expect(.timeout, within: 50)], expected: [.timeout],
                                            alternatives: [Alternative([.networkIssues], reason: "family X")])
        let (report, _) = await run([testCase], script: Self.standardScript(timeCategory: .networkIssues))
        let result = try #require(report.results.first)
        #expect(result.outcome == .nonStrict)
        #expect(result.detail == "alternative: family X")
        #expect(result.observed == [.networkIssues])
        #expect(report.exitCode == 0)
    }

    @Test func wrongCategoryFails() async throws {
        let testCase = ConformanceCase.test("a.b.fail", steps: [.time, .expect(.timeout, within: 50)], expected: [.timeout])
        let (report, _) = await run([testCase], script: Self.standardScript(timeCategory: .malformedResponse))
        let result = try #require(report.results.first)
        #expect(result.outcome == .fail)
        #expect(result.detail == """
            step 2: expected PNTimeoutCategory, not observed
            missing: PNTimeoutCategory
            unexpected: PNMalformedResponseCategory
            """)
        #expect(result.deviation == .newFailure)
        #expect(report.exitCode == 1)
    }

    @Test func messagesAreCheckedInOrderWithoutExtras() async throws {
        let good = ConformanceCase.test("a.b.msg", steps: [.subscribe(["x"]), .expect(.connected), .expectMessage("x", "hello")],
                                        expected: [.connected, .acknowledgment])
        let extra = ConformanceCase.test("a.b.extra", steps: [.subscribe(["x", "y"]), .expect(.connected), .expectMessage("x", "hello")],
                                         expected: [.connected, .acknowledgment])
        let (report, _) = await run([good, extra])
        #expect(report.results.map(\.outcome) == [.pass, .fail])
        #expect(report.results[1].detail == "unexpected extra message (duplicate or unasked): y \"hello\"")
    }

    @Test func unsupportedOperationAndMissingCapabilityAreSkipped() async throws {
        let unsupported = ConformanceCase.test("a.b.unsupported", steps: [.perform(.hereNow(channels: ["c"]))], expected: [])
        let needsTLS = ConformanceCase.test("a.b.needs-tls", steps: [.time], expected: [], requires: [.tls])
        let (report, client) = await run([unsupported, needsTLS], capabilities: [.presence])
        #expect(report.results.map(\.outcome) == [.skipped, .skipped])
        #expect(report.results[0].detail == "client does not support hereNow")
        #expect(report.results[1].detail == "client lacks: tls")
        #expect(report.summary.skipped == 2)
        #expect(client.configurations.withLock { $0.count } == 1)
    }

    @Test func exceedingTheBudgetFailsAndDoesNotHang() async throws {
        let testCase = ConformanceCase.test("a.b.slow", steps: [.publish("c", 1), .time], expected: [.acknowledgment], budget: .milliseconds(200))
        let script: Script = { operation, session in
            if case .time = operation {
                // Never answers: the runner must give up at the derived budget, on both attempts.
                try await Task.sleep(for: .seconds(3_600))
            }
            return .acknowledgment()
        }
        let started = ContinuousClock.now
        let (report, client, scale) = await runScaled([testCase], script: script)
        // Bounded far below the hang, loose enough for a loaded machine.
        #expect(ContinuousClock.now - started < TestTime.duration(60))
        let result = try #require(report.results.first)
        #expect(result.outcome == .fail)
        // Derived: 1000 ms base + 250 ms per operation (the declared 200 ms is below what the case
        // needs), stretched by this machine's scale.
        #expect(CaseBudget.derive(testCase) == .milliseconds(1_500))
        let budget = CaseExecutor.milliseconds(CaseBudget.effective(testCase, scale: scale))
        #expect(result.detail.hasPrefix("time budget of \(budget) ms exceeded at step 2\n(failed again on a serial retry; first attempt: time budget of \(budget) ms exceeded at step 2)"))
        #expect(result.missedTime)
        #expect(client.closedSessions.withLock { $0 } == 2)
    }

    @Test func setupAndCleanupUseTheCaseKeysAndListener() async throws {
        let plan: JSONValue = ["version": 1, "rules": []]
        let server = FakeServer()
        let testCase = ConformanceCase.test("a.b.cleanup", steps: [.time, .expect(.timeout, within: 50)], expected: [.timeout],
                                            plan: plan, listener: .fault("tls-expired"))
        let (report, client) = await run([testCase], seed: 99, server: server)
        #expect(report.results.first?.outcome == .pass)
        let keys = CaseKeys(caseID: "a.b.cleanup")
        let calls = server.calls.withLock { ($0.installed, $0.cleared, $0.opened, $0.closed) }
        #expect(calls.0[keys.subscribeKey] == ["version": 1, "rules": [], "seed": .int(CaseKeys.planSeed(runSeed: 99, caseID: "a.b.cleanup"))])
        #expect(calls.1 == [keys.subscribeKey])
        #expect(calls.2 == ["tls-expired"])
        #expect(calls.3 == [40_001])
        let configuration = try #require(client.configurations.withLock { $0.first })
        #expect(configuration.origin == "127.0.0.1:40001")
        #expect(configuration.tls)
        #expect(configuration.caPEM?.hasPrefix("-----BEGIN CERTIFICATE-----") == true)
        #expect(configuration.subscribeKey == keys.subscribeKey)
    }

    @Test func unsupportedKeysetSkipsAccessManagerCases() async throws {
        var testCase = ConformanceCase.test("a.b.pam", steps: [.publish("c", 1)], expected: [.acknowledgment])
        testCase.accessManager = true
        let (report, _) = await run([testCase], server: FakeServer(supportsAccessManager: false))
        #expect(report.results.first?.outcome == .skipped)
        #expect(report.results.first?.detail == "server does not support keysets")
    }

    @Test func expectationFileClassifiesDeviations() async throws {
        let failing = ConformanceCase.test("a.b.known", steps: [.time, .expect(.timeout, within: 50)], expected: [.timeout])
        let fixed = ConformanceCase.test("a.b.fixed", steps: [.publish("c", 1)], expected: [.acknowledgment])
        let skipped = ConformanceCase.test("a.b.skip", steps: [.publish("c", 1)], expected: [.acknowledgment])
        let file = ExpectationFile(client: "scripted", deviations: [
            .init(case: "a.b.known", outcome: .fail, reason: "reports malformed"),
            .init(case: "a.b.fixed", outcome: .fail, reason: "used to fail"),
            .init(case: "a.b.skip", outcome: .skipped, reason: "not implemented"),
        ])
        let (report, client) = await run([failing, fixed, skipped], script: Self.standardScript(timeCategory: .malformedResponse), expectations: file)
        #expect(report.results.map(\.deviation) == [.expected, .fixed, .expected])
        #expect(report.results.map(\.outcome) == [.fail, .pass, .skipped])
        #expect(report.results[2].detail == "skipped by expectation file: not implemented")
        #expect(report.exitCode == 0)
        #expect(client.configurations.withLock { $0.count } == 2)

        let (strictReport, _) = await run([failing], script: Self.standardScript(timeCategory: .malformedResponse))
        #expect(strictReport.exitCode == 1)
    }

    @Test func theRunsCAGoesWithEveryCaseWhenThereIsATLSListener() async throws {
        let (report, client) = await run([.test("a.b.plain", steps: [.publish("c", 1)], expected: [.acknowledgment])])
        #expect(report.results.first?.outcome == .pass)
        let configuration = try #require(client.configurations.withLock { $0.first })
        #expect(configuration.tls == false)
        #expect(configuration.caPEM == "-----BEGIN CERTIFICATE-----\nfake\n-----END CERTIFICATE-----\n")
        #expect(configuration.driverFields["caPEM"]?.stringValue == configuration.caPEM)
    }

    @Test func seedReplaysTheSameOrder() {
        let cases = (0..<20).map { ConformanceCase.test("s.g.case-\($0)", steps: [], expected: []) }
        let first = ConformanceRunner.executionOrder(of: cases, seed: 1234)
        #expect(first == ConformanceRunner.executionOrder(of: cases, seed: 1234))
        #expect(first != ConformanceRunner.executionOrder(of: cases, seed: 1235))
        #expect(Set(first) == Set(cases.map(\.id)))
        #expect(CaseKeys.planSeed(runSeed: 5, caseID: "x.y.z") == CaseKeys.planSeed(runSeed: 5, caseID: "x.y.z"))
        #expect(CaseKeys.planSeed(runSeed: 5, caseID: "x.y.z") != CaseKeys.planSeed(runSeed: 6, caseID: "x.y.z"))
    }

    @Test func resultsKeepCatalogOrderWhateverTheExecutionOrder() async {
        let cases = (0..<6).map { ConformanceCase.test("s.g.c\($0)", steps: [.publish("c", 1)], expected: [.acknowledgment]) }
        let (report, _) = await run(cases, seed: 3)
        #expect(report.results.map(\.id) == cases.map(\.id))
        #expect(report.summary.total == 6)
        #expect(report.summary.passed == 6)
        #expect(report.summary.seed == 3)
    }
}
