// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// Watches Swift's cooperative pool from a thread of its own, and fails the test process when the
/// pool ran no job for longer than ``limit``.
///
/// Every test runs on the pool (one thread per core). A test that blocks a pool thread (a
/// blocking read, a semaphore, a long computation such as a collection difference of megabytes)
/// stalls every other test's next step behind it: suites then report "passed after 20 s" all at
/// the same instant, and client budgets run out although nothing was wrong with the clients.
/// The watch sends a high-priority probe job to the pool every ``interval`` and measures how late
/// it runs (queued ordinary work does not delay a high-priority job by much; blocked threads do).
///
/// At exit it prints one line with its figures to standard error, and, when a probe waited
/// longer than ``limit``, a line naming the stall's start and length and ends the process with
/// status 1, so `swift test` fails with the reason instead of merely being slow. The limit is
/// `HARNESS_POOL_STALL_LIMIT` seconds when set (0 turns the failure off and keeps the report),
/// else 15 s times ``TestTime/environmentFactor``.
package final class PoolWatch: Sendable {
    /// A probe's lateness and when it was sent (seconds since the watch started).
    package struct Stall: Equatable, Sendable {
        package var start: Double
        package var length: Double
    }

    /// What the watch has seen so far.
    package struct Figures: Equatable, Sendable {
        package var probes = 0
        /// Probes that waited longer than one second.
        package var lateProbes = 0
        /// The longest wait, finished or still going.
        package var worst: Stall?
    }

    /// The watch of this test process (started by ``startIfNeeded()``).
    package static let shared = PoolWatch(limit: configuredLimit(ProcessInfo.processInfo.environment["HARNESS_POOL_STALL_LIMIT"]))

    /// Time between two probes.
    package static let interval: Duration = .milliseconds(200)

    /// The longest a probe may wait before the run fails (nil: report only).
    package let limit: Double?

    private struct State {
        var started = false
        var origin: ContinuousClock.Instant?
        var outstanding: (id: Int, sent: ContinuousClock.Instant)?
        var nextID = 0
        var figures = Figures()
    }

    private let state = Mutex(State())
    private let enqueue: @Sendable (@escaping @Sendable () -> Void) -> Void

    /// A watch whose probes go through `enqueue` (the pool by default; a test passes its own queue).
    package init(
        limit: Double?,
        enqueue: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void = { job in Task.detached(priority: .high) { job() } }
    ) {
        self.limit = limit
        self.enqueue = enqueue
    }

    /// The limit from `HARNESS_POOL_STALL_LIMIT` (pure): its seconds when it is a number ≥ 0
    /// (0: no limit), else 15 s times ``TestTime/environmentFactor``.
    package static func configuredLimit(_ text: String?) -> Double? {
        if let text, let value = Double(text), value.isFinite, value >= 0 { return value == 0 ? nil : value }
        return 15 * TestTime.environmentFactor
    }

    /// Starts the shared watch's thread and its exit report, once per process.
    package static func startIfNeeded() {
        guard shared.markStarted() else { return }
        let thread = Thread { shared.watchForever() }
        thread.name = "pool-watch"
        thread.start()
        atexit { PoolWatch.shared.reportAtExit() }
    }

    /// The figures so far, a still-waiting probe counted as it stands.
    package var figures: Figures {
        state.withLock { s in
            var figures = s.figures
            if let outstanding = s.outstanding, let origin = s.origin {
                Self.account(Stall(start: (outstanding.sent - origin).seconds, length: (.now - outstanding.sent).seconds), in: &figures, finished: false)
            }
            return figures
        }
    }

    /// Sends one probe unless one is still waiting; called by the watch thread every ``interval``
    /// (and directly by tests of the watch).
    package func tick() {
        let id: Int? = state.withLock { s in
            if s.origin == nil { s.origin = .now }
            guard s.outstanding == nil else { return nil }
            s.nextID += 1
            s.outstanding = (s.nextID, .now)
            return s.nextID
        }
        guard let id else { return }
        enqueue { [self] in arrived(id) }
    }

    /// The failure line for `figures` under `limit` (pure), or nil when the pool kept up.
    package static func failure(_ figures: Figures, limit: Double?) -> String? {
        guard let limit, let worst = figures.worst, worst.length > limit else { return nil }
        return String(
            format: "pool watch: FAILED: the cooperative pool ran no high-priority job for %.1f s, from %.1f s into the run (limit %.1f s): a test blocked pool threads (blocking calls belong in offThePool or on a thread of their own)",
            worst.length, worst.start, limit)
    }

    /// The one-line summary of `figures` (pure).
    package static func summary(_ figures: Figures) -> String {
        let worst = figures.worst.map { String(format: "%.2f s at %.1f s", $0.length, $0.start) } ?? "none"
        return "pool watch: \(figures.probes) probes, \(figures.lateProbes) later than 1 s, longest wait \(worst)"
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
        state.withLock { s in
            guard let outstanding = s.outstanding, outstanding.id == id, let origin = s.origin else { return }
            s.outstanding = nil
            let stall = Stall(start: (outstanding.sent - origin).seconds, length: (.now - outstanding.sent).seconds)
            Self.account(stall, in: &s.figures, finished: true)
        }
    }

    private static func account(_ stall: Stall, in figures: inout Figures, finished: Bool) {
        if finished {
            figures.probes += 1
            if stall.length > 1 { figures.lateProbes += 1 }
        }
        if stall.length > (figures.worst?.length ?? -1) { figures.worst = stall }
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
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
