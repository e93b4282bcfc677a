// SPDX-License-Identifier: MIT
import Foundation

/// A task executor that runs each job on a thread of its own.
///
/// `swift test` runs every test on Swift's cooperative pool, one thread per core, which never
/// preempts a job: a test that computes for seconds (seeded fuzzing, a randomised model) or blocks
/// (a child process) holds a pool thread for all that time, and every other test's next step waits
/// behind it. Under this executor's preference such code runs on an ordinary thread that the
/// kernel time-slices with the rest, and the pool stays free. The task is the same, so
/// `#expect` and the test's task-local context work as usual.
package final class ThreadPerJobExecutor: TaskExecutor {
    /// The one instance (it holds no state).
    package static let shared = ThreadPerJobExecutor()

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let thread = Thread {
            Thread.current.threadDictionary[Self.marker] = true
            job.runSynchronously(on: executor)
        }
        thread.start()
    }

    /// Whether the calling code runs on one of this executor's threads.
    package static var isCurrentThread: Bool { Thread.current.threadDictionary[marker] as? Bool == true }

    private static let marker = "harness.test-off-pool"
}

/// Runs `body` (blocking or long computing work) off the cooperative pool; see ``ThreadPerJobExecutor``.
package func offThePool<T, Failure: Error>(_ body: () throws(Failure) -> T) async throws(Failure) -> T {
    try await withTaskExecutorPreference(ThreadPerJobExecutor.shared) { () throws(Failure) -> T in try body() }
}
