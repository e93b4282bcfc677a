// SPDX-License-Identifier: MIT
import HarnessTesting
import Synchronization
import Testing
@testable import ConformanceKit

/// The limit on driver processes starting at once (``StartGate``): a slot per core, handed to
/// waiting cases in the order they came.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct StartGateTests {
    @Test(.timeLimit(.minutes(TestTime.limitMinutes(5))))
    func twoSlotsAreHandedOnInArrivalOrder() async throws {
        let gate = StartGate(slots: 2)
        await gate.enter()
        await gate.enter()
        let entered = Entries()
        let first = Task {
            await gate.enter()
            entered.append(1)
        }
        try await Self.until { gate.waitingCount == 1 }
        let second = Task {
            await gate.enter()
            entered.append(2)
        }
        try await Self.until { gate.waitingCount == 2 }
        #expect(entered.all == [])
        gate.leave()
        await first.value
        #expect(entered.all == [1])
        gate.leave()
        await second.value
        #expect(entered.all == [1, 2])
        // Both slots are taken again (by the two that entered); a third leave frees one.
        gate.leave()
        await gate.enter()
        #expect(gate.waitingCount == 0)
    }

    /// Yields until `condition` holds, failing after the test's time budget.
    static func until(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + TestTime.duration(10)
        while !condition() {
            try #require(ContinuousClock.now < deadline, "condition not met in time")
            await Task.yield()
        }
    }
}

/// The order callers got through the gate.
final class Entries: Sendable {
    private let values = Mutex<[Int]>([])

    func append(_ value: Int) { values.withLock { $0.append(value) } }

    var all: [Int] { values.withLock { $0 } }
}
