// SPDX-License-Identifier: MIT
import Synchronization

/// What a Pusher client reported during a case, in order, with waiting: an expectation suspends
/// until a new observation arrives or its window ends (no polling).
final class PusherObservationLog: Sendable {
    private struct State {
        var items: [PusherObservation] = []
        var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
        var nextWaiter = 0
    }
    private let state = Mutex(State())

    var items: [PusherObservation] { state.withLock { $0.items } }

    func record(_ observation: PusherObservation) {
        let waiters = state.withLock { state in
            state.items.append(observation)
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Waits until `predicate` over all observations so far returns a value, or `deadline` passes.
    func wait<T: Sendable>(until deadline: ContinuousClock.Instant, _ predicate: @Sendable ([PusherObservation]) -> T?) async -> T? {
        for _ in 0..<100_000 {
            if let found = predicate(items) { return found }
            if ContinuousClock.now >= deadline || Task.isCancelled { return nil }
            await nextChange(before: deadline)
        }
        return predicate(items)
    }

    /// Returns when an observation is recorded or `deadline` passes.
    private func nextChange(before deadline: ContinuousClock.Instant) async {
        let known = items.count
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let id = state.withLock { state -> Int? in
                if state.items.count != known { return nil }
                state.nextWaiter += 1
                state.waiters[state.nextWaiter] = continuation
                return state.nextWaiter
            }
            guard let id else {
                continuation.resume()
                return
            }
            Task {
                try? await Task.sleep(until: deadline, clock: .continuous)
                // Resumed by the timer only if no observation took the waiter first.
                if let waiter = state.withLock({ $0.waiters.removeValue(forKey: id) }) { waiter.resume() }
            }
        }
    }
}
