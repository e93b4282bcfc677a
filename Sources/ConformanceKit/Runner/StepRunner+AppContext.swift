// SPDX-License-Identifier: MIT

extension StepRunner {
    /// `operation` with App Context placeholders (`{eTag}`, `{next}`, `{prev}`) taken from the
    /// last result's data.
    static func resolving(_ operation: ClientOperation, last: OperationResult?) -> ClientOperation {
        guard case .appContext(let inner) = operation else { return operation }
        return .appContext(inner.resolving(last?.data))
    }

    /// Waits for a matching App Context event; the failure text when none arrives in time.
    func appContextFailure(_ expected: ExpectedAppContextEvent, within: Int, number: Int) async -> String? {
        let deadline = ContinuousClock.now + .milliseconds(within)
        let (snapshot, seen) = await log.wait(until: deadline) { snapshot in snapshot.appContext.contains { expected.matches($0) } }
        guard !seen else { return nil }
        let got = snapshot.appContext.map { "\($0.type) \($0.event) on \($0.channel) \($0.data.jsonText)" }.joined(separator: "; ")
        return "step \(number): no App Context \(expected.type) \(expected.event) event on \(expected.channel)"
            + "\(expected.data.map { " containing \($0.jsonText)" } ?? "") within \(within) ms"
            + (got.isEmpty ? "" : " (received: \(got))")
    }
}
