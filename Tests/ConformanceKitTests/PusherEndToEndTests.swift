// SPDX-License-Identifier: MIT
import BuiltInAdapter
import Foundation
import Testing
@testable import ConformanceKit

/// The `pusher` family with the built-in Pusher client against the in-process suite server: the
/// wiring `pubnub-harness run --family pusher` uses.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(10)))) struct PusherEndToEndTests {
    @Test func builtInPusherClientPassesTheWholeFamily() async throws {
        let cases = PusherCatalog.all()
        await ProgressTime.settle()  // the runner's budgets are wall-clock ones
        let scale = TimeScale.fromProbe(await MachineProbe.measured())
        let runner = PusherRunner(client: BuiltInPusherClient(), options: RunOptions(seed: 11, concurrency: 4, timeScale: scale.factor))
        let report = try await PusherRunGate.exclusive { try await runner.run(cases) }
        #expect(report.results.count == cases.count)
        // Variant-only cases of other profiles are skipped; everything else passes.
        let variantOnly = Set(cases.filter { $0.onlyFor != nil }.map(\.id))
        var notPassed = report.results.filter { $0.outcome != .pass && $0.outcome != .flaky && !variantOnly.contains($0.id) }
        if !notPassed.isEmpty {
            // A reconnect window (2 s) can be missed while the whole test suite loads the machine:
            // such a case gets one more run alone, as `run` retries a case alone; it must pass then.
            let again = Set(notPassed.map(\.id))
            let solo = PusherRunner(client: BuiltInPusherClient(), options: RunOptions(seed: 11, concurrency: 1, timeScale: scale.factor))
            let retry = try await PusherRunGate.exclusive { try await solo.run(cases.filter { again.contains($0.id) }) }
            notPassed = retry.results.filter { $0.outcome != .pass && $0.outcome != .flaky }
        }
        #expect(notPassed.map { "\($0.id): \($0.outcome) \($0.detail) \($0.wireLog)" } == [])
        #expect(report.results.filter { variantOnly.contains($0.id) }.allSatisfy { $0.outcome == .skipped })
        // Every report format takes the family's results unchanged.
        #expect(String(decoding: JSONReport.encode(report), as: UTF8.self).contains("pusher.close-codes.4100-backoff"))
        #expect(JUnitReport.encode(report).contains("pusher.presence.members"))
    }
}
