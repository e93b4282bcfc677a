// SPDX-License-Identifier: MIT
import Synchronization

/// When each exchange may start: after the exchanges that had ended before it began.
struct ReplaySchedule: Sendable {
    let byStart: [RecordedExchange]
    /// Exchange ids in the order their recorded answers ended.
    private let endOrder: [Int: Int]
    private let endTimes: [Double]
    let firstStartMs: Double

    init(_ exchanges: [RecordedExchange]) {
        byStart = exchanges.sorted { ($0.startedMs, $0.id) < ($1.startedMs, $1.id) }
        let byEnd = exchanges.sorted { ($0.endedMs, $0.startedMs, $0.id) < ($1.endedMs, $1.startedMs, $1.id) }
        endOrder = Dictionary(byEnd.enumerated().map { ($0.element.id, $0.offset) }, uniquingKeysWith: { a, _ in a })
        endTimes = byEnd.map(\.endedMs)
        firstStartMs = byStart.first?.startedMs ?? 0
    }

    /// How many exchanges (the first in end order) ended strictly before `exchange` began.
    func endedBefore(_ exchange: RecordedExchange) -> Int {
        var low = 0
        var high = endTimes.count
        while low < high {
            let middle = (low + high) / 2
            if endTimes[middle] < exchange.startedMs { low = middle + 1 } else { high = middle }
        }
        return low
    }

    func endPosition(of exchange: RecordedExchange) -> Int { endOrder[exchange.id] ?? 0 }
}

/// Which exchanges (by end position) have ended in the replay; tasks wait for a prefix of them.
final class CompletionBoard: Sendable {
    private struct State {
        var done: [Bool]
        var prefix = 0
        var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state: Mutex<State>

    init(count: Int) { state = Mutex(State(done: Array(repeating: false, count: count))) }

    /// Returns once the first `count` exchanges in end order have ended.
    func wait(untilFirst count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.prefix >= count { return true }
                state.waiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    func complete(_ position: Int) {
        let released = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard position < state.done.count else { return [] }
            state.done[position] = true
            while state.prefix < state.done.count, state.done[state.prefix] { state.prefix += 1 }
            let prefix = state.prefix
            let ready = state.waiters.filter { $0.count <= prefix }.map(\.continuation)
            state.waiters.removeAll { $0.count <= prefix }
            return ready
        }
        for continuation in released { continuation.resume() }
    }
}
