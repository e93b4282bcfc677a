// SPDX-License-Identifier: MIT
import BuiltInAdapter
import ConformanceKit
import Foundation
import HarnessRecording
import MockPubNubServer
import Testing

/// The conformance suites' own traffic: the built-in client runs each suite's self-contained
/// cases through the recording proxy (the in-process runner's server as upstream), and the
/// recording verifies clean against a fresh mock.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(10))), .offPool) struct SuiteTrafficTests {
    /// A case whose traffic is all the client's: no fault plan, the shared listener, and no step
    /// the runner performs on the server itself (those requests never pass the proxy, so a replay
    /// could not reproduce their effect).
    static func isSelfContained(_ testCase: ConformanceCase) -> Bool {
        guard testCase.plan == nil, testCase.listener == .shared else { return false }
        return !testCase.steps.contains { step in
            switch step {
            case .serverPublish, .serverRequest, .grant, .issueToken, .setPlan: true
            default: false
            }
        }
    }

    @Test func everySuitesSelfContainedTrafficVerifiesClean() async throws {
        let upstream = try InProcessHarnessServer.start()
        let output = RecordingHarness.temporaryPath("suites.json")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let proxy = try RecordingHarness.startProxy(upstream: "http://\(upstream.address)", output: output)
        let proxied = ProxiedHarnessServer(
            wrapped: upstream, address: "127.0.0.1:\(try #require(proxy.address).port)",
            tlsAddress: "127.0.0.1:\(try #require(proxy.tlsAddress).port)", proxyCA: proxy.certificateAuthorityPEM)
        let cases = ConformanceCatalog.all().filter(Self.isSelfContained)
        let suites = Set(cases.map(\.suite))
        // Paced for this machine as `run --time-scale auto` would (the proxy adds a hop to every request).
        await ProgressTime.settle()
        let scale = max(TimeScale.fromProbe(await MachineProbe.measured()).factor, TestTime.scale)
        let runner = ConformanceRunner(server: proxied, client: BuiltInClient(),
                                       options: RunOptions(seed: 11, concurrency: 4, timeScale: scale, retryMissedTime: false))
        let report = await runner.run(cases)
        await proxy.shutdown()
        await upstream.shutdown()
        // Through the proxy every request takes one hop more: a case may run out of time on a busy
        // machine (not retried: a file case retried on its own keys sees its first attempt's files).
        // What a case that ran out of time sent is recorded all the same (an abandoned request as
        // `cancelled`), and verified below; any other failure is the proxy's.
        let failed = report.results.filter { $0.outcome != .pass && $0.outcome != .flaky && $0.outcome != .skipped && !$0.missedTime }
        #expect(failed.map { "\($0.id): \($0.outcome) \($0.detail)" } == [], "the cases pass through the proxy")

        let (_, recording) = try RecordingHarness.read(output)
        let verdicts = try await RecordingHarness.verify(recording)
        let problems = RecordingHarness.problems(verdicts)
        #expect(problems == [], "\(problems.count) of \(verdicts.count) exchanges differ")
        let passed = verdicts.count { $0.outcome == .pass }
        print("suite traffic: \(cases.count) self-contained cases of \(suites.count) suites, \(recording.exchanges.count) exchanges recorded, "
              + "\(passed) verified, \(verdicts.count { $0.outcome == .skipped }) skipped, \(problems.count) differ")
        #expect(passed > cases.count)
    }
}
