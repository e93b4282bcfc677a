// SPDX-License-Identifier: MIT
import Foundation
import Synchronization
import Testing
@testable import ConformanceKit

/// Budgets derived from cases, the time scale, the adaptive concurrency and the flaky retry.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct PacingTests {
    static let plan: JSONValue = ["version": 1, "rules": [["match": ["endpoint": "subscribe"], "fault": ["kind": "delay", "afterMs": 700]]]]

    static let timed = ConformanceCase.test("p.b.timed", steps: [
        .time, .wait(ms: 300), .expect(.connected, within: 1_500), .expectNoStatus(.timeout, forMs: 200), .expectResult(ExpectedResult()),
    ], expected: [.connected], plan: plan)

    @Test func budgetIsWhatTheCaseNeedsPlusMargins() {
        // base 1000 + one perform 250 + wait 300 + window 1500 + must-not 200 + plan fault 700.
        #expect(CaseBudget.derive(Self.timed) == .milliseconds(3_950))
        var generous = Self.timed
        generous.timeBudget = .seconds(10)
        #expect(CaseBudget.derive(generous) == .seconds(10))
        let tiny = ConformanceCase.test("p.b.tiny", steps: [.time], expected: [], budget: .milliseconds(100))
        #expect(CaseBudget.derive(tiny) == .milliseconds(1_250))
        #expect(CaseBudget.faultMilliseconds(in: ["a": [["intervalMs": 40], ["b": ["afterMs": 90]]], "timesMs": "x"]) == 90)
        #expect(CaseBudget.faultMilliseconds(in: ["rules": [["fault": ["kind": "delay", "ms": 1_500]]]]) == 1_500)
    }

    @Test func timeScaleStretchesBudgetAndMustHappenWindowsOnly() {
        let scaled = CaseBudget.scaled(Self.timed, by: 2.5)
        #expect(scaled.steps == [.time, .wait(ms: 300), .expect(.connected, within: 3_750), .expectNoStatus(.timeout, forMs: 200),
                                 .expectResult(ExpectedResult())])
        #expect(scaled.timeBudget == Self.timed.timeBudget * 2.5)
        #expect(scaled.plan == Self.timed.plan)
        #expect(CaseBudget.scaled(Self.timed, by: 1) == Self.timed)
        #expect(CaseBudget.scaled(Self.timed, by: .nan) == Self.timed)
        #expect(CaseBudget.effective(Self.timed, scale: 2) == .milliseconds(7_900))
        #expect(CaseBudget.effective(Self.timed, scale: 0.5) == .milliseconds(3_950))
    }

    @Test func requestTimeoutsStretchOnlyWhereTheyAreBudgets() throws {
        let catalog = Dictionary(uniqueKeysWithValues: ConformanceCatalog.all().map { ($0.id, $0) })
        // The ping cases test the ping interval; the 300 ms request timeout only bounds the
        // server's reply (a starved server must not make the client abandon a ping and retry).
        let interval = try #require(catalog["reconnect.ping.interval"])
        #expect(CaseBudget.timeoutsAreBudgets(interval))
        let scaled = CaseBudget.scaled(interval, by: 8)
        #expect(scaled.client.nonSubscribeTimeoutMs == 2_400)
        #expect(scaled.client.reconnectPingIntervalMs == interval.client.reconnectPingIntervalMs)
        #expect(scaled.plan == interval.plan)
        // A case without a timeout of its own gets the harness default, stretched.
        let plain = ConformanceCase.test("p.t.plain", steps: [.time], expected: [])
        #expect(CaseBudget.scaled(plain, by: 2).client.nonSubscribeTimeoutMs == 2 * ClientSessionConfiguration.defaultNonSubscribeTimeoutMs)
        #expect(CaseBudget.scaled(plain, by: 2).client.subscribeTimeoutMs == nil)
        // Timeouts a case checks or races against stay as written: a hang, a fault duration, an
        // expected timeout, a listener of its own.
        for id in ["faults.request.hang", "faults.request.delay-long", "faults.subscribe.delay-long", "faults.request.delay-short", "transport.request.stall-on-accept"] {
            let testCase = try #require(catalog[id], "\(id)")
            #expect(!CaseBudget.timeoutsAreBudgets(testCase), "\(id)")
            #expect(CaseBudget.scaled(testCase, by: 8).client == testCase.client, "\(id)")
        }
        #expect(!CaseBudget.timeoutsAreBudgets(Self.timed))
        let expectsTimeout = ConformanceCase.test("p.t.timeout", steps: [.time, .expect(.timeout, within: 500)], expected: [.timeout])
        #expect(!CaseBudget.timeoutsAreBudgets(expectsTimeout))
        let hangsLater = ConformanceCase.test("p.t.later", steps: [.setPlan(["rules": [["fault": ["kind": "hang"]]]]), .time], expected: [])
        #expect(!CaseBudget.timeoutsAreBudgets(hangsLater))
    }

    @Test func probeFiguresGiveTheScale() {
        let quiet = TimeScale.fromProbe(.init(cpuWallSeconds: 0.010, cpuThreadSeconds: 0.010, roundTripSeconds: 0.00005))
        #expect(quiet.factor == 1)
        // Same CPU time, three times the wall time: the thread waited for a core.
        let contended = TimeScale.fromProbe(.init(cpuWallSeconds: 0.030, cpuThreadSeconds: 0.010, roundTripSeconds: 0.0002))
        #expect(contended.factor == 3)
        // A slow but idle machine: its CPU time itself is above the reference.
        let slow = TimeScale.fromProbe(.init(cpuWallSeconds: 0.05, cpuThreadSeconds: 0.05, roundTripSeconds: 0))
        #expect(slow.factor == 2.5)
        let lagging = TimeScale.fromProbe(.init(cpuWallSeconds: 0.01, cpuThreadSeconds: 0.01, roundTripSeconds: 0.0042))
        #expect(lagging.factor == 4.2)
        let swamped = TimeScale.fromProbe(.init(cpuWallSeconds: 2, cpuThreadSeconds: 0.01, roundTripSeconds: 1))
        #expect(swamped.factor == TimeScale.maximumAutomatic)
        #expect(contended.description == "time scale ×3.0 (auto: cpu ×3.00, loopback ×0.20)")
        #expect(TimeScale.parse("auto") == .some(nil))
        #expect(TimeScale.parse("2.5") == .some(2.5))
        #expect(TimeScale.parse("0.5") == nil)
        #expect(TimeScale.parse("fast") == nil)
    }

    @Test func theProbeMeasuresThisMachine() async {
        let figures = await MachineProbe.measured()
        #expect(figures.cpuWallSeconds > 0 && figures.cpuThreadSeconds > 0)
        #expect(figures.roundTripSeconds > 0)
        #expect(TimeScale.fromProbe(figures).factor >= 1)
    }

    @Test func concurrencyHalvesOncePerOverCommitment() {
        var governor = ConcurrencyGovernor(jobs: 8)
        governor.record(missedBudget: false, startedUnderLimit: 8)
        #expect(governor.limit == 8)
        governor.record(missedBudget: true, startedUnderLimit: 8)
        #expect(governor.limit == 4)
        // Started under 8: the halving already answered it.
        governor.record(missedBudget: true, startedUnderLimit: 8)
        #expect(governor.limit == 4)
        governor.record(missedBudget: true, startedUnderLimit: 4)
        governor.record(missedBudget: true, startedUnderLimit: 2)
        governor.record(missedBudget: true, startedUnderLimit: 1)
        #expect(governor.limit == 1)
        #expect(governor.backOffs == 3)
        #expect(ConcurrencyGovernor(jobs: 0).limit == 1)
        #expect(ConcurrencyGovernor.defaultJobs(cores: 2, externalDriver: true) == 4)
        #expect(ConcurrencyGovernor.defaultJobs(cores: 2, externalDriver: false) == 8)
        #expect(ConcurrencyGovernor.defaultJobs(cores: 64, externalDriver: false) == 16)
    }

    static func result(_ outcome: CaseOutcome, _ detail: String, missedTime: Bool = false) -> CaseResult {
        CaseResult(id: "p.r.c", suite: "p", title: "t", spec: "§0", outcome: outcome, expected: [], observed: [],
                   durationSeconds: 1, detail: detail, missedTime: missedTime)
    }

    @Test func aMissThatDisappearsAloneIsFlakyOtherwiseAFailure() {
        let missed = Self.result(.fail, "time budget of 1250 ms exceeded at step 1", missedTime: true)
        #expect(FlakyRetry.qualifies(missed))
        #expect(!FlakyRetry.qualifies(Self.result(.fail, "step 1: expected PNConnectedCategory, not observed")))
        #expect(!FlakyRetry.qualifies(Self.result(.pass, "", missedTime: true)))

        let flaky = FlakyRetry.classify(first: missed, retry: Self.result(.pass, ""))
        #expect(flaky.outcome == .flaky)
        #expect(flaky.detail == "passed on a serial retry; first attempt: time budget of 1250 ms exceeded at step 1")
        #expect(flaky.durationSeconds == 2)
        #expect(!flaky.isUnexpectedFailure)

        let twice = FlakyRetry.classify(first: missed, retry: Self.result(.fail, "time budget of 1250 ms exceeded at step 2", missedTime: true))
        #expect(twice.outcome == .fail)
        #expect(twice.detail.hasPrefix("time budget of 1250 ms exceeded at step 2\n(failed again on a serial retry"))
        #expect(twice.isUnexpectedFailure)

        let summary = RunSummary(results: [flaky, twice], durationSeconds: 1, seed: 1)
        #expect(summary.flaky == 1 && summary.failed == 1)
        #expect(RunReport(client: "c", summary: summary, results: [flaky]).exitCode == 0)
    }

    @Test func anUnexpectedTimeoutIsRetriedAloneAnExpectedOneIsNot() throws {
        let catalog = Dictionary(uniqueKeysWithValues: ConformanceCatalog.all().map { ($0.id, $0) })
        // A 100 ms delay raced against an unscaled 300 ms timeout: a timeout there is the machine's.
        let short = try #require(catalog["faults.request.delay-short"])
        #expect(FlakyRetry.timedOutUnexpectedly(short, observed: [.timeout]))
        #expect(!FlakyRetry.timedOutUnexpectedly(short, observed: [.acknowledgment]))
        #expect(!FlakyRetry.timedOutUnexpectedly(short, observed: []))
        // Where a timeout is what the case expects, it is the verdict, never a reason to retry.
        let long = try #require(catalog["faults.request.delay-long"])
        #expect(!FlakyRetry.timedOutUnexpectedly(long, observed: [.timeout]))
        let tolerated = ConformanceCase.test("p.t.tolerates", steps: [.time], expected: [], tolerated: [.timeout])
        #expect(!FlakyRetry.timedOutUnexpectedly(tolerated, observed: [.timeout]))
    }

    /// The first attempt of each case hangs; the retry answers at once.
    @Test func runnerRetriesAloneReportsFlakyAndBacksOff() async throws {
        let attempts = Mutex<[String: Int]>([:])
        let server = FakeServer()
        let client = ScriptedClient(server: server) { _, session in
            let attempt = attempts.withLock { $0[session.configuration.uuid, default: 0] += 1; return $0[session.configuration.uuid]! }
            if attempt == 1 {
                // Hangs until the runner gives up (cancellation ends it).
                try await Task.sleep(for: .seconds(3_600))
            }
            return OperationResult()
        }
        let cases = (1...2).map { ConformanceCase.test("p.f.case-\($0)", steps: [.time], expected: [], budget: .milliseconds(10)) }
        let started = ContinuousClock.now
        let report = await ConformanceRunner(server: server, client: client, options: RunOptions(seed: 3, concurrency: 2)).run(cases)
        #expect(ContinuousClock.now - started < TestTime.duration(60))  // "does not hang": far below the hour, scaled for a loaded machine
        #expect(report.results.map(\.outcome) == [.flaky, .flaky])
        #expect(report.results.allSatisfy { $0.detail.hasPrefix("passed on a serial retry; first attempt: time budget of 1250 ms exceeded at step 1") })
        #expect(report.summary.flaky == 2)
        #expect(report.exitCode == 0)
        #expect(report.backOffs == 1 && report.finalConcurrency == 1)
        #expect(client.closedSessions.withLock { $0 } == 4)
    }

    @Test func withoutRetryAMissIsAFailure() async throws {
        let client = ScriptedClient(server: FakeServer()) { _, _ in
            try await Task.sleep(for: .seconds(3_600))
            return .acknowledgment()
        }
        let testCase = ConformanceCase.test("p.f.hang", steps: [.time], expected: [], budget: .milliseconds(10))
        let report = await ConformanceRunner(server: FakeServer(), client: client,
                                             options: RunOptions(seed: 3, retryMissedTime: false)).run([testCase])
        #expect(report.results.map(\.outcome) == [.fail])
        #expect(report.results.first?.missedTime == true)
        #expect(report.exitCode == 1)
    }

    @Test func flakyIsReportedEverywhereAndDoesNotFailTheRun() throws {
        let flaky = FlakyRetry.classify(first: Self.result(.fail, "time budget of 1250 ms exceeded at step 1", missedTime: true),
                                        retry: Self.result(.pass, ""))
        let report = RunReport(client: "c", summary: RunSummary(results: [flaky], durationSeconds: 2, seed: 5), results: [flaky],
                               backOffs: 1, finalConcurrency: 2)
        #expect(report.exitCode == 0)
        let json = try JSONValue.parse(JSONReport.encode(report))
        #expect(json["summary"]?["flaky"] == 1)
        #expect(json["cases"]?.arrayValue?.first?["outcome"] == "flaky")
        let junit = JUnitReport.encode(report)
        #expect(junit.contains(#"failures="0""#))
        #expect(junit.contains(#"<property name="outcome" value="flaky"/>"#))
        #expect(junit.contains("<system-out>flaky: passed on a serial retry; first attempt: time budget of 1250 ms exceeded at step 1"))
        let html = HTMLReport.encode(report)
        #expect(html.contains(#"<div class="card flaky">flaky<b>1</b></div>"#))
        let text = Mutex("")
        let console = ConsoleReporter(interactive: false) { line in text.withLock { $0 += line } }
        console.progress(flaky, finished: 1, total: 1)
        console.summary(report)
        let printed = text.withLock { $0 }
        #expect(printed.contains("[1/1] FLAKY (passed on a serial retry) p.r.c"))
        #expect(printed.contains("1 cases: 0 passed, 0 non-strict, 0 failed, 0 skipped, 1 flaky"))
        #expect(printed.contains("parallelism halved 1 time(s), down to 2"))
    }
}
