// SPDX-License-Identifier: MIT
import HarnessJSON
import Synchronization

/// The timetokens a case's results carried, for the message-action placeholders of later steps:
/// `{message.N}` (the N-th message the client published, from 1), `{action.N}` (the N-th action
/// it added), `{more.start}` and `{more.end}` (the last listing's next page).
final class CaseTimetokens: Sendable {
    private struct Values {
        var messages: [String] = []
        var actions: [String] = []
        var more: (start: String?, end: String?) = (nil, nil)
    }

    private let values = Mutex(Values())

    /// Keeps what a successful publish, add or get result names.
    func record(_ operation: ClientOperation, _ result: OperationResult) {
        guard !result.isError, let data = result.data else { return }
        values.withLock { values in
            switch operation {
            case .publish:
                if let timetoken = Self.text(data["timetoken"]) { values.messages.append(timetoken) }
            case .messageActions(.add):
                if let timetoken = Self.text(data["actionTimetoken"]) { values.actions.append(timetoken) }
            case .messageActions(.get):
                values.more = (Self.text(data["more"]?["start"]), Self.text(data["more"]?["end"]))
            default:
                break
            }
        }
    }

    /// `text` with every placeholder that has a value replaced (the others stay, and show in failures).
    func substitute(_ text: String) -> String {
        guard text.contains("{") else { return text }
        let current = values.withLock { $0 }
        var out = text
        for (index, timetoken) in current.messages.enumerated() {
            out = out.replacingOccurrences(of: "{message.\(index + 1)}", with: timetoken)
        }
        for (index, timetoken) in current.actions.enumerated() {
            out = out.replacingOccurrences(of: "{action.\(index + 1)}", with: timetoken)
        }
        if let start = current.more.start { out = out.replacingOccurrences(of: "{more.start}", with: start) }
        if let end = current.more.end { out = out.replacingOccurrences(of: "{more.end}", with: end) }
        return out
    }

    /// A timetoken as text, whether the client gave a string or a number.
    private static func text(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?, .number(let text)?: text
        default: nil
        }
    }
}

extension StepRunner {
    /// `operation` with the message-action placeholders of its timetokens replaced.
    func resolvingMessageActions(in operation: ClientOperation) -> ClientOperation {
        guard case .messageActions(let inner) = operation else { return operation }
        return .messageActions(inner.resolving(substitute))
    }

    /// Waits for a matching message-action event; the failure text when none arrives in time.
    func messageActionFailure(_ expected: ExpectedMessageAction, within: Int, number: Int) async -> String? {
        let wanted = ExpectedMessageAction(channel: expected.channel, event: expected.event, action: substituted(expected.action))
        let deadline = ContinuousClock.now + .milliseconds(within)
        let (snapshot, seen) = await log.wait(until: deadline) { snapshot in snapshot.messageActions.contains { wanted.matches($0) } }
        guard !seen else { return nil }
        let got = snapshot.messageActions.map { "\($0.event ?? "(no event)") on \($0.channel) \($0.action.jsonText)" }.joined(separator: "; ")
        return "step \(number): no message action \(wanted.event) on \(wanted.channel) containing \(wanted.action.jsonText) within \(within) ms"
            + (got.isEmpty ? "" : " (received: \(got))")
    }
}
