// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Time budgets for tests that wait for something to happen: a generous base stretched by how
/// busy the machine is, so that a loaded CI runner gives the same results as a quiet one.
///
/// A budget only bounds a wait for an event that must come (a reply, a status, a request in the
/// journal); the test synchronises on the event itself and ends as soon as it arrives, so a larger
/// budget costs nothing on a quiet machine. Timings a test *checks* (a client timeout that must
/// fire before a server that never answers, a ping interval) are not budgets and stay explicit.
///
/// `HARNESS_TEST_TIME_SCALE` (a number ≥ 1, default 1) multiplies every budget; the load probe
/// multiplies it again by how much slower than its own CPU time a short CPU loop ran, or by the
/// one-minute load average per core, whichever is larger (between 1 and ``maximumProbeFactor``).
package enum TestTime {
    /// The largest factor the load probe may add on its own.
    package static let maximumProbeFactor = 10.0

    /// The factor every budget is multiplied by: the probe measured once per test process, or the
    /// load average per core now when the machine got busier since (a browser test or a build
    /// started beside the run), whichever is larger.
    package static var scale: Double { max(measuredScale, environmentFactor * currentLoadFactor()) }

    /// `seconds` stretched by ``scale``.
    package static func budget(_ seconds: Double) -> Double { seconds * scale }

    /// `milliseconds` stretched by ``scale`` (for `poll`-style timeouts), at most `Int32.max`.
    package static func budgetMs(_ milliseconds: Int) -> Int32 {
        Int32(min(Double(Int32.max), (Double(milliseconds) * scale).rounded(.up)))
    }

    /// `seconds` stretched by ``scale``, as a `Duration`.
    package static func duration(_ seconds: Double) -> Duration { .milliseconds(Int64((budget(seconds) * 1000).rounded(.up))) }

    /// `HARNESS_TEST_TIME_SCALE` alone (a sanitizer build sets it: instrumented code is slower
    /// however idle the machine), for what the load probe cannot stretch: suite time limits and
    /// the `--time-scale` of a launched `run`.
    package static let environmentFactor = environmentScale(ProcessInfo.processInfo.environment["HARNESS_TEST_TIME_SCALE"])

    /// `--time-scale` for a launched `run` under a sanitizer's ``environmentFactor`` (nothing
    /// otherwise: the run's own probe decides).
    package static var runScaleArguments: [String] {
        environmentFactor > 1 ? ["--time-scale", String(environmentFactor)] : []
    }

    /// A suite's time limit in minutes, stretched by ``environmentFactor`` and by the load probe
    /// measured when the limit is read (test discovery, at the start of the run).
    ///
    /// A limit counts from a test's start, and `swift test` starts every test at once: a test
    /// whose next job waits in the pool's queue behind a thousand others is charged for the wait.
    /// On a busy machine that wait approaches the whole run's length, so limits are generous (5
    /// minutes is the smallest the suites use): they exist to end a hung test with its name, not
    /// to time it.
    package static func limitMinutes(_ minutes: Int) -> Int { Int((Double(minutes) * measuredScale).rounded(.up)) }

    /// Measured on first use, which also starts the process's ``PoolWatch``.
    private static let measuredScale: Double = {
        PoolWatch.startIfNeeded()
        return environmentFactor * probeFactor()
    }()

    /// Reads `HARNESS_TEST_TIME_SCALE` (pure): a finite number ≥ 1, else 1.
    package static func environmentScale(_ text: String?) -> Double {
        guard let text, let value = Double(text), value.isFinite, value >= 1 else { return 1 }
        return min(value, 100)
    }

    /// The probe's factor (pure): the larger of the CPU loop's wall/CPU ratio and the load per
    /// core, between 1 and ``maximumProbeFactor``.
    package static func factor(cpuWall: Double, cpuThread: Double, loadAverage: Double, cores: Int) -> Double {
        let cpu = cpuWall / max(cpuThread, 1e-6)
        let load = loadAverage / Double(max(cores, 1))
        let raw = max(1, cpu.isFinite ? cpu : 1, load.isFinite ? load : 1)
        return min(raw, maximumProbeFactor)
    }

    /// The one-minute load average per core now, between 1 and ``maximumProbeFactor``.
    private static func currentLoadFactor() -> Double {
        var loads = [Double](repeating: 0, count: 3)
        guard getloadavg(&loads, 3) >= 1 else { return 1 }
        return factor(cpuWall: 0, cpuThread: 1, loadAverage: loads[0], cores: ProcessInfo.processInfo.activeProcessorCount)
    }

    /// A few milliseconds of CPU work on the calling thread, and the load average.
    private static func probeFactor() -> Double {
        var samples: [(wall: Double, cpu: Double)] = []
        for _ in 0..<3 { samples.append(cpuLoop()) }
        let median = samples.sorted { $0.wall < $1.wall }[1]
        var loads = [Double](repeating: 0, count: 3)
        let load = getloadavg(&loads, 3) >= 1 ? loads[0] : 0
        return factor(cpuWall: median.wall, cpuThread: median.cpu, loadAverage: load, cores: ProcessInfo.processInfo.activeProcessorCount)
    }

    private static func cpuLoop() -> (wall: Double, cpu: Double) {
        let wallStart = now(CLOCK_MONOTONIC), cpuStart = now(CLOCK_THREAD_CPUTIME_ID)
        var x: UInt64 = 0x2545_F491_4F6C_DD1D
        for _ in 0..<1_000_000 {
            x ^= x << 13
            x ^= x >> 7
            x ^= x << 17
        }
        let wall = now(CLOCK_MONOTONIC) - wallStart, cpu = now(CLOCK_THREAD_CPUTIME_ID) - cpuStart
        // Keeps the loop from being optimised away.
        if x == 0 { FileHandle.standardError.write(Data("\n".utf8)) }
        return (wall, cpu)
    }

    private static func now(_ clock: clockid_t) -> Double {
        var value = timespec()
        clock_gettime(clock, &value)
        return Double(value.tv_sec) + Double(value.tv_nsec) / 1e9
    }
}
