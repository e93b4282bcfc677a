// SPDX-License-Identifier: MIT

/// Tests that run the official SDKs start a Python interpreter that keeps a core busy for seconds.
/// They take turns through this gate, and each runs its interpreter on a thread of its own, so the
/// timing-sensitive tests running beside them keep the CPU and the concurrency pool they budget for.
package enum PythonTestGate {
    private static let turns = TurnGate()

    /// Waits for the gate (without blocking a pool thread), runs `body` on a dedicated thread, and
    /// passes the gate on.
    package static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await turns.acquire()
        let result = await TestSockets.onDedicatedThread(body)
        await turns.release()
        return result
    }
}
