// SPDX-License-Identifier: MIT

/// The presence observer's steps (``PresenceObserver``): start it, and expect (or rule out) a
/// presence event it received.
extension StepRunner {
    /// The longest the observer's handshake may take (a loopback request to an idle server).
    static let observerHandshakeSeconds = 3.0

    func observerSubscribe(_ channels: [String], number: Int) async -> Bool {
        do {
            try await observer.start(channels: channels.map(substitute), handshakeSeconds: Self.observerHandshakeSeconds)
            return true
        } catch {
            await state.fail(.failed("step \(number) observer subscribe: \(error)"))
            return false
        }
    }

    func expectObservedPresence(_ expected: ExpectedPresence, within: Int, number: Int) async {
        guard await observerStarted(number) else { return }
        let deadline = ContinuousClock.now + .milliseconds(within)
        let uuid = keys.uuid
        let (snapshot, seen) = await observer.log.wait(until: deadline) { snapshot in
            snapshot.presence.contains { expected.matches($0, caseUUID: uuid) }
        }
        if !seen {
            await state.fail(.failed("step \(number): the observer saw no presence \(Self.describe(expected)) within \(within) ms"
                + Self.received(snapshot.presence)))
        }
    }

    func expectNoObservedPresence(_ expected: ExpectedPresence, forMs ms: Int, number: Int) async {
        guard await observerStarted(number) else { return }
        let deadline = ContinuousClock.now + .milliseconds(ms)
        let uuid = keys.uuid
        let (snapshot, seen) = await observer.log.wait(until: deadline) { snapshot in
            snapshot.presence.contains { expected.matches($0, caseUUID: uuid) }
        }
        if seen {
            await state.fail(.failed("step \(number): the observer saw a presence \(Self.describe(expected)), none expected"
                + Self.received(snapshot.presence)))
        }
    }

    private func observerStarted(_ number: Int) async -> Bool {
        if observer.isStarted { return true }
        await state.fail(.failed("step \(number): the observer is not started (an observerSubscribe step must come first)"))
        return false
    }

    static func describe(_ expected: ExpectedPresence) -> String {
        "\(expected.action) on \(expected.channel)\(expected.uuid.map { " for \($0)" } ?? "")"
            + (expected.state.map { " with state \($0.jsonText)" } ?? "")
    }

    /// What the observer did receive, for a failure's detail.
    static func received(_ events: [PresenceEvent]) -> String {
        guard !events.isEmpty else { return " (it received no presence event)" }
        return " (it received: " + events.map { "\($0.action) \($0.uuid ?? "?")" + ($0.state.map { " \($0.jsonText)" } ?? "") }
            .joined(separator: ", ") + ")"
    }
}
