// SPDX-License-Identifier: MIT

/// One holder at a time, the others waiting (without blocking a thread) in arrival order.
package actor TurnGate {
    private var busy = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    package init() {}

    /// Waits for the turn.
    package func acquire() async {
        guard busy else {
            busy = true
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    /// Passes the turn to the longest waiter, if any.
    package func release() {
        if waiters.isEmpty { busy = false } else { waiters.removeFirst().resume() }
    }
}
