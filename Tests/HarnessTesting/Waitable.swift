// SPDX-License-Identifier: MIT
import Synchronization

/// A growing list of items that tests can wait on, with a time budget (never a sleep-based sync).
/// Every wait is for something that must happen, so its budget is stretched by ``TestTime/scale``.
package final class Waitable<Item: Sendable>: Sendable {
    private struct Waiter {
        let predicate: @Sendable ([Item]) -> Bool
        let continuation: CheckedContinuation<[Item]?, Never>
    }

    private struct State {
        var items: [Item] = []
        var waiters: [Int: Waiter] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())

    package init() {}

    package var items: [Item] { state.withLock { $0.items } }

    package func append(_ item: Item) {
        let (resumed, snapshot): ([CheckedContinuation<[Item]?, Never>], [Item]) = state.withLock { s in
            s.items.append(item)
            var done: [CheckedContinuation<[Item]?, Never>] = []
            for (id, waiter) in s.waiters where waiter.predicate(s.items) {
                done.append(waiter.continuation)
                s.waiters[id] = nil
            }
            return (done, s.items)
        }
        for continuation in resumed { continuation.resume(returning: snapshot) }
    }

    /// Waits until `predicate` holds for the items; nil after `timeout` seconds times ``TestTime/scale``
    /// of ``ProgressTime`` (time the test could have run in).
    package func wait(timeout: Double = 5, until predicate: @escaping @Sendable ([Item]) -> Bool) async -> [Item]? {
        let id = state.withLock { s in
            s.nextID += 1
            return s.nextID
        }
        return await withCheckedContinuation { (continuation: CheckedContinuation<[Item]?, Never>) in
            let immediate: [Item]? = state.withLock { s in
                if predicate(s.items) { return s.items }
                s.waiters[id] = Waiter(predicate: predicate, continuation: continuation)
                return nil
            }
            if let immediate {
                continuation.resume(returning: immediate)
                return
            }
            Task {
                await ProgressTime.sleep(for: TestTime.duration(timeout)) {
                    self.state.withLock { s in s.waiters[id] == nil }
                }
                let expired = self.state.withLock { s in s.waiters.removeValue(forKey: id) }
                expired?.continuation.resume(returning: nil)
            }
        }
    }

    /// Waits until there are at least `count` items.
    package func wait(count: Int, timeout: Double = 5) async -> [Item]? {
        await wait(timeout: timeout) { $0.count >= count }
    }
}
