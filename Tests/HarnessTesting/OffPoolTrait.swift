// SPDX-License-Identifier: MIT
import Foundation
import Testing

/// A suite trait that runs each of its tests on ``BlockingTestExecutor``'s threads instead of
/// Swift's cooperative pool: for tests that block (a synchronous test reading a socket with a
/// timeout, polling until a server settles).
///
/// A synchronous test runs on a pool thread from its first line to its last, and there is one
/// pool thread per core: two such tests waiting on their sockets held the whole pool, and every
/// other test's next step (and the budgets it was counting) waited behind them for seconds.
/// Under this trait the same test, unchanged, waits on a thread of the blocking executor, and
/// the pool stays free. Async tests under it work too: their jobs run on the same threads.
package struct OffPoolTrait: SuiteTrait, TestTrait, TestScoping {
    package var isRecursive: Bool { true }

    /// One scope per test case (not one around the whole suite).
    package func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(BlockingTestExecutor.shared) { try await function() }
    }
}

extension Trait where Self == OffPoolTrait {
    /// Runs the suite's tests off the cooperative pool (see ``OffPoolTrait``).
    package static var offPool: Self { OffPoolTrait() }
}

/// A task executor with a fixed set of threads of its own, for tests that block
/// (``OffPoolTrait``): jobs run in the order they came, each on the next free thread.
///
/// Its width (four threads per core, at least eight) bounds how many blocking tests run at once,
/// as the pool did, without taking the pool's threads.
package final class BlockingTestExecutor: TaskExecutor, Sendable {
    /// The one instance; its threads start on first use and live as long as the process.
    package static let shared = BlockingTestExecutor(width: max(8, 4 * ProcessInfo.processInfo.activeProcessorCount))

    /// The number of threads.
    package let width: Int
    private let queue = JobQueue()

    private init(width: Int) {
        self.width = width
        for index in 0..<width {
            let thread = Thread { [queue, self] in
                let executor = self.asUnownedTaskExecutor()
                while true { queue.take().runSynchronously(on: executor) }
            }
            thread.name = "blocking-test-\(index)"
            thread.start()
        }
    }

    package func enqueue(_ job: consuming ExecutorJob) {
        queue.put(UnownedJob(job))
    }

    /// A first-in first-out queue of jobs that threads wait on.
    private final class JobQueue: @unchecked Sendable {
        // Invariant: `jobs` is only read or written while `condition` is locked.
        private let condition = NSCondition()
        private var jobs: [UnownedJob] = []
        private var head = 0

        func put(_ job: UnownedJob) {
            condition.lock()
            jobs.append(job)
            condition.signal()
            condition.unlock()
        }

        func take() -> UnownedJob {
            condition.lock()
            defer { condition.unlock() }
            while head == jobs.count { condition.wait() }
            let job = jobs[head]
            head += 1
            if head > 1024, head * 2 > jobs.count {
                jobs.removeFirst(head)
                head = 0
            }
            return job
        }
    }
}
