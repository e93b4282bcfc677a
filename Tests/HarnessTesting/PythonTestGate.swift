// SPDX-License-Identifier: MIT

/// Tests that run the official SDKs start a Python interpreter that keeps a core busy for seconds.
/// They take turns through this gate, and each runs its interpreter on a thread of its own, so the
/// timing-sensitive tests running beside them keep the CPU and the concurrency pool they budget for.
package actor PythonTestGate {
    private static let shared = PythonTestGate()
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    /// Waits for the gate (without blocking a pool thread), runs `body` on a dedicated thread, and
    /// passes the gate on.
    package static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await shared.acquire()
        let result = await TestSockets.onDedicatedThread(body)
        await shared.release()
        return result
    }

    private func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    private func release() {
        if waiters.isEmpty { busy = false } else { waiters.removeFirst().resume() }
    }
}
