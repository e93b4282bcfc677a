// SPDX-License-Identifier: MIT
import Foundation
import Synchronization
import Testing

/// The test support that keeps the cooperative pool free: progress-time budgets, work off the
/// pool, the interpreter search.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ProgressTimeTests {
    @Test func aSliceCountsAtMostItsLengthPlusTheTolerance() {
        #expect(ProgressTime.credit(forSliceThatTook: .milliseconds(100)) == .milliseconds(100))
        #expect(ProgressTime.credit(forSliceThatTook: .milliseconds(30)) == .milliseconds(30))
        #expect(ProgressTime.credit(forSliceThatTook: .milliseconds(149)) == .milliseconds(149))
        #expect(ProgressTime.credit(forSliceThatTook: .seconds(7)) == ProgressTime.slice + ProgressTime.tolerance)
        #expect(ProgressTime.wallClockCap > 1)
    }

    @Test func aSettledWaitEndsAtTheNextSliceNotAtTheBudget() async {
        let checks = Mutex(0)
        // An hour's budget that says it is settled on its second check: the wait returns after
        // two slices, or the test's time limit ends it.
        await ProgressTime.sleep(for: .seconds(3_600)) {
            checks.withLock { count in
                count += 1
                return count >= 2
            }
        }
        #expect(checks.withLock { $0 } == 2)
    }

    @Test func aCancelledWaitReturns() async {
        let waiting = Task { await ProgressTime.sleep(for: .seconds(3_600)) }
        waiting.cancel()
        await waiting.value
        #expect(waiting.isCancelled)
    }

    @Test func offThePoolRunsTheBodyOnAThreadOfItsOwnAndPassesErrorsOn() async {
        #expect(await offThePool { ThreadPerJobExecutor.isCurrentThread })
        #expect(!ThreadPerJobExecutor.isCurrentThread)
        struct Refused: Error, Equatable {}
        await #expect(throws: Refused()) { try await offThePool { () throws(Refused) in throw Refused() } }
    }

    @Test func aMissingInterpreterIsNoInterpreter() async {
        let missing = ["/nonexistent/bin/python-\(UInt64.random(in: 0...UInt64.max))"]
        #expect(await PythonInterpreters.first(of: missing, importing: "json") == nil)
        #expect(PythonInterpreters.candidates(environment: [], systemPython: true).last == "/usr/bin/python3")
        #expect(PythonInterpreters.candidates(environment: [], systemPython: false).last?.hasSuffix("/bin/python") == true)
    }
}
