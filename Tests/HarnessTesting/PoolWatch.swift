// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// Watches Swift's cooperative pool from a thread of its own, and fails the test process when the
/// pool's threads sat blocked while work waited for them for longer than ``limit``.
///
/// Every test runs on the pool (one thread per core). A test that blocks a pool thread (a
/// blocking read, a semaphore, a long wait for a child process) stalls every other test's next
/// step behind it: suites then report "passed after 20 s" all at the same instant, and client
/// budgets run out although nothing was wrong with the clients. A test that merely computes for
/// a long time also delays the rest, but shows up as CPU time, and a busy machine slows the pool
/// without blocking it.
///
/// Every ``interval`` the watch sends a probe job at the tests' own priority (on Linux each
/// priority has threads of its own, so a high-priority probe would not see the tests' threads).
/// The probe notes which thread ran it, so the watch learns the pool's threads, and the time a
/// probe waits is the pool's queueing delay. While a probe waits, the watch reads the CPU time
/// of every pool thread from `/proc/self/task`: a sample in which no pool thread used any CPU
/// while the probe was queued is *blocked* time. The longest unbroken run of blocked time is
/// what fails the run: at exit the watch prints one line with its figures to standard error,
/// and, when blocked time ran longer than ``limit``, a line naming when and for how long, and
/// ends the process with status 1 so that `swift test` fails with the reason. The limit is
/// `HARNESS_POOL_STALL_LIMIT` seconds when set (0 turns the failure off and keeps the report),
/// else 10 s times ``TestTime/environmentFactor``.
package final class PoolWatch: Sendable {
    /// A span of the run, in seconds since the watch started.
    package struct Span: Equatable, Sendable {
        package var start: Double
        package var length: Double
    }

    /// What the watch has seen so far.
    package struct Figures: Equatable, Sendable {
        package var probes = 0
        /// The longest a probe waited to run (queueing, blocked or not).
        package var longestWait: Span?
        /// The longest unbroken time in which a probe waited and no pool thread ran.
        package var longestBlocked: Span?
        /// Pool threads seen running probes.
        package var poolThreads = 0
    }

    /// The CPU time (clock ticks) a thread has used, or nil when it cannot be read.
    package typealias CPUReader = @Sendable (_ thread: Int32) -> Int?

    /// The watch of this test process (started by ``startIfNeeded()``).
    package static let shared = PoolWatch(limit: configuredLimit(ProcessInfo.processInfo.environment["HARNESS_POOL_STALL_LIMIT"]))

    /// Time between two samples.
    package static let interval: Duration = .milliseconds(200)

    /// The longest blocked time allowed (nil: report only).
    package let limit: Double?

    private struct State {
        var started = false
        var origin: ContinuousClock.Instant?
        var outstanding: (id: Int, sent: ContinuousClock.Instant)?
        var nextID = 0
        var threads: Set<Int32> = []
        var lastCPU: Int?
        var blockedSince: ContinuousClock.Instant?
        var figures = Figures()
    }

    private let state = Mutex(State())
    private let enqueue: @Sendable (@escaping @Sendable () -> Void) -> Void
    private let readCPU: CPUReader
    private let currentThread: @Sendable () -> Int32

    /// A watch whose probes go through `enqueue` (the pool by default), reading threads' CPU time
    /// with `readCPU` (from `/proc` by default); tests pass their own.
    package init(
        limit: Double?,
        enqueue: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { job in Task.detached { job() } },
        readCPU: @escaping CPUReader = PoolWatch.procCPUTicks,
        currentThread: @escaping @Sendable () -> Int32 = { PoolWatch.threadID() }
    ) {
        self.limit = limit
        self.enqueue = enqueue
        self.readCPU = readCPU
        self.currentThread = currentThread
    }

    /// The limit from `HARNESS_POOL_STALL_LIMIT` (pure): its seconds when it is a number ≥ 0
    /// (0: no limit), else 10 s times ``TestTime/environmentFactor``.
    package static func configuredLimit(_ text: String?) -> Double? {
        if let text, let value = Double(text), value.isFinite, value >= 0 { return value == 0 ? nil : value }
        return 10 * TestTime.environmentFactor
    }

    /// Starts the shared watch's thread and its exit report, once per process.
    package static func startIfNeeded() {
        guard shared.markStarted() else { return }
        let thread = Thread { shared.watchForever() }
        thread.name = "pool-watch"
        thread.start()
        atexit { PoolWatch.shared.reportAtExit() }
    }

    /// The figures so far.
    package var figures: Figures { state.withLock { $0.figures } }

    /// One sample: accounts for the waiting probe's time and the pool's CPU, and sends a new probe
    /// unless one is still waiting. Called by the watch thread every ``interval`` (and directly
    /// by tests of the watch).
    package func tick() {
        let threads = state.withLock { $0.threads }
        let cpu = threads.isEmpty ? nil : threads.reduce(0) { $0 + (readCPU($1) ?? 0) }
        let id: Int? = state.withLock { s in
            let now = ContinuousClock.now
            if s.origin == nil { s.origin = now }
            let ranSinceLastSample = cpu.map { $0 != s.lastCPU } ?? true
            s.lastCPU = cpu
            if let outstanding = s.outstanding, let origin = s.origin {
                let waited = Span(start: Self.seconds(outstanding.sent - origin), length: Self.seconds(now - outstanding.sent))
                if waited.length > (s.figures.longestWait?.length ?? 0) { s.figures.longestWait = waited }
                // Blocked: work is queued, and no pool thread we know of used CPU since the last sample.
                if ranSinceLastSample || s.threads.isEmpty {
                    s.blockedSince = nil
                } else {
                    let since = s.blockedSince ?? now
                    s.blockedSince = since
                    let blocked = Span(start: Self.seconds(since - origin), length: Self.seconds(now - since))
                    if blocked.length > (s.figures.longestBlocked?.length ?? 0) { s.figures.longestBlocked = blocked }
                }
                return nil
            }
            s.blockedSince = nil
            s.nextID += 1
            s.outstanding = (s.nextID, now)
            return s.nextID
        }
        guard let id else { return }
        enqueue { [self] in arrived(id) }
    }

    /// The failure line for `figures` under `limit` (pure), or nil when the pool kept up.
    package static func failure(_ figures: Figures, limit: Double?) -> String? {
        guard let limit, let blocked = figures.longestBlocked, blocked.length > limit else { return nil }
        return String(
            format: "pool watch: FAILED: work waited %.1f s for the cooperative pool while none of its threads ran, from %.1f s into the run (limit %.1f s): a test blocked pool threads (blocking work belongs in offThePool, an .offPool suite or a thread of its own)",
            blocked.length, blocked.start, limit)
    }

    /// The one-line summary of `figures` (pure).
    package static func summary(_ figures: Figures) -> String {
        func show(_ span: Span?) -> String { span.map { String(format: "%.2f s at %.1f s", $0.length, $0.start) } ?? "none" }
        return "pool watch: \(figures.probes) probes on \(figures.poolThreads) pool threads; longest wait \(show(figures.longestWait)); "
            + "longest blocked \(show(figures.longestBlocked))"
    }

    /// A thread's user plus system CPU time in clock ticks, from `/proc/self/task/TID/stat`.
    package static let procCPUTicks: CPUReader = { thread in
        guard let data = FileManager.default.contents(atPath: "/proc/self/task/\(thread)/stat") else { return nil }
        return cpuTicks(statLine: String(decoding: data, as: UTF8.self))
    }

    /// The calling thread's kernel id, from the `/proc/thread-self` link (`PID/task/TID`); 0 when unreadable.
    package static func threadID() -> Int32 {
        var buffer = [CChar](repeating: 0, count: 64)
        let length = readlink("/proc/thread-self", &buffer, buffer.count - 1)
        guard length > 0 else { return 0 }
        let text = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return text.split(separator: "/").last.flatMap { Int32($0) } ?? 0
    }

    /// Fields 14 and 15 (utime, stime) of a `stat` line (pure); the name in parentheses may hold spaces.
    package static func cpuTicks(statLine: String) -> Int? {
        guard let close = statLine.lastIndex(of: ")") else { return nil }
        let fields = statLine[statLine.index(after: close)...].split(separator: " ")
        // After the name: state is field 3, so utime (14) and stime (15) are at offsets 11 and 12.
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    // MARK: - Private

    private func markStarted() -> Bool {
        state.withLock { s in
            if s.started { return false }
            s.started = true
            return true
        }
    }

    private func arrived(_ id: Int) {
        let thread = currentThread()
        state.withLock { s in
            s.threads.insert(thread)
            s.figures.poolThreads = s.threads.count
            guard let outstanding = s.outstanding, outstanding.id == id, let origin = s.origin else { return }
            s.outstanding = nil
            s.blockedSince = nil
            s.figures.probes += 1
            let waited = Span(start: Self.seconds(outstanding.sent - origin), length: Self.seconds(.now - outstanding.sent))
            if waited.length > (s.figures.longestWait?.length ?? 0) { s.figures.longestWait = waited }
        }
    }

    private func watchForever() {
        let nanoseconds = Int(Self.interval.components.attoseconds / 1_000_000_000)
        while true {
            tick()
            var pause = timespec(tv_sec: 0, tv_nsec: nanoseconds)
            nanosleep(&pause, nil)
        }
    }

    private func reportAtExit() {
        let figures = self.figures
        var text = Self.summary(figures) + "\n"
        let failure = Self.failure(figures, limit: limit)
        if let failure { text += failure + "\n" }
        FileHandle.standardError.write(Data(text.utf8))
        if failure != nil { _exit(1) }
    }

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }
}
