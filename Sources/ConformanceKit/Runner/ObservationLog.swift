// SPDX-License-Identifier: MIT

/// Everything a case's client has reported so far, in arrival order.
struct ObservationSnapshot: Sendable {
    /// Categories of listener statuses and of operation results, in arrival order.
    var statuses: [StatusCategory] = []
    var messages: [MessageEvent] = []
    var presence: [PresenceEvent] = []
    var appContext: [AppContextEvent] = []
    var messageActions: [MessageActionEvent] = []
    var version = 0
    /// Everything above and the steps started, with wall-clock times (for the timeline).
    var timed: [TimedObservation] = []
}

/// Collects a session's observations and lets steps wait for the next change, with a deadline.
actor ObservationLog {
    private var snapshot = ObservationSnapshot()
    private var waiters: [Int: CheckedContinuation<Void, Never>] = [:]
    private var nextWaiter = 0

    var current: ObservationSnapshot { snapshot }

    func record(_ event: ClientEvent) {
        snapshot.timed.append(.of(event, at: TimelineClock.now()))
        switch event {
        case .status(let status): snapshot.statuses.append(status.category)
        case .message(let message): snapshot.messages.append(message)
        case .presence(let presence): snapshot.presence.append(presence)
        case .appContext(let event): snapshot.appContext.append(event)
        case .messageAction(let event): snapshot.messageActions.append(event)
        }
        changed()
    }

    func record(result: OperationResult) {
        if let category = result.category {
            snapshot.timed.append(TimedObservation(kind: .result, time: TimelineClock.now(),
                                                   text: category.rawValue + (result.statusCode.map { " (HTTP \($0))" } ?? "")))
            snapshot.statuses.append(category)
            changed()
        }
    }

    /// Notes that step `number` starts (the timeline's step marks; no waiter is woken).
    func mark(step number: Int, _ name: String) {
        snapshot.timed.append(TimedObservation(kind: .step, time: TimelineClock.now(), text: "step \(number) \(name)", step: number))
    }

    /// Waits until `condition` holds for a snapshot or `deadline` passes; returns the last snapshot
    /// and whether the condition held.
    func wait(
        until deadline: ContinuousClock.Instant, _ condition: @Sendable (ObservationSnapshot) -> Bool
    ) async -> (ObservationSnapshot, Bool) {
        while true {
            if condition(snapshot) { return (snapshot, true) }
            if ContinuousClock.now >= deadline || Task.isCancelled { return (snapshot, false) }
            await nextChange(orDeadline: deadline)
        }
    }

    private func nextChange(orDeadline deadline: ContinuousClock.Instant) async {
        let id = nextWaiter
        nextWaiter += 1
        let timer = Task { [weak self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            await self?.wake(id)
        }
        await withCheckedContinuation { continuation in
            waiters[id] = continuation
        }
        timer.cancel()
    }

    private func wake(_ id: Int) {
        waiters.removeValue(forKey: id)?.resume()
    }

    private func changed() {
        snapshot.version += 1
        let pending = waiters
        waiters.removeAll()
        for continuation in pending.values { continuation.resume() }
    }
}
