// SPDX-License-Identifier: MIT
import Foundation

/// Something the client reported, or a step the runner started, with its wall-clock time:
/// the client side of a case's timeline (``TimelineModel``).
public struct TimedObservation: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// A listener status (its category).
        case status
        /// The result of an operation the runner asked for (its category).
        case result
        /// A delivered message, presence or App Context event.
        case event
        /// The runner started a step.
        case step
    }

    public var kind: Kind
    /// Unix seconds.
    public var time: Double
    /// What to show, e.g. `PNConnectedCategory (subscribe)` or `step 3 publish`.
    public var text: String
    /// The step number, for `step`.
    public var step: Int?

    public init(kind: Kind, time: Double, text: String, step: Int? = nil) {
        self.kind = kind
        self.time = time
        self.text = text
        self.step = step
    }

    /// The observation of a client event at `time`.
    static func of(_ event: ClientEvent, at time: Double) -> TimedObservation {
        switch event {
        case .status(let status):
            TimedObservation(kind: .status, time: time,
                             text: status.category.rawValue + (status.operation.map { " (\($0))" } ?? ""))
        case .message(let message):
            TimedObservation(kind: .event, time: time,
                             text: "\(message.isSignal ? "signal" : "message") on \(message.channel)\(message.decryptionFailed ? " (decryption failed)" : "")")
        case .presence(let presence):
            TimedObservation(kind: .event, time: time,
                             text: "presence \(presence.action) on \(presence.channel)\(presence.uuid.map { " by \($0)" } ?? "")")
        case .appContext(let event):
            TimedObservation(kind: .event, time: time, text: "app context \(event.type) \(event.event) on \(event.channel)")
        case .messageAction(let event):
            TimedObservation(kind: .event, time: time, text: "message action \(event.event ?? "(unnamed)") on \(event.channel)")
        }
    }
}

extension CaseStep {
    /// A short name for the timeline: `perform publish`, `expectStatus PNConnectedCategory`, `wait 500 ms`.
    public var timelineName: String {
        switch self {
        case .perform(let operation): "perform \(operation.name)"
        case .serverPublish(let channel, _): "serverPublish \(channel)"
        case .serverRequest(let method, let path, _, _): "serverRequest \(method) \(path)"
        case .grant: "grant"
        case .issueToken: "issueToken"
        case .setPlan(let plan): plan == nil ? "clearPlan" : "setPlan"
        case .wait(let ms): "wait \(ms) ms"
        case .expectStatus(let category, let ms): "expectStatus \(category.rawValue) within \(ms) ms"
        case .expectMessages(let messages, let ms): "expectMessages \(messages.count) within \(ms) ms"
        case .expectMessageCount(let count, let ms): "expectMessageCount \(count) within \(ms) ms"
        case .expectNoMoreMessages(let ms): "expectNoMoreMessages for \(ms) ms"
        case .expectPresence(let presence, let ms): "expectPresence \(presence.action) within \(ms) ms"
        case .expectResult: "expectResult"
        case .expectJournal(_, let ms): "expectJournal within \(ms) ms"
        case .expectNoStatus(let category, let ms): "expectNoStatus \(category.rawValue) for \(ms) ms"
        case .expectAppContextEvent(let expected, let ms): "expectAppContextEvent \(expected.type) \(expected.event) within \(ms) ms"
        case .expectMessageAction(let expected, let ms): "expectMessageAction \(expected.event) within \(ms) ms"
        case .observerSubscribe(let channels): "observerSubscribe \(channels.joined(separator: ","))"
        case .expectObservedPresence(let presence, let ms): "expectObservedPresence \(presence.action) within \(ms) ms"
        case .expectNoObservedPresence(let presence, let ms): "expectNoObservedPresence \(presence.action) for \(ms) ms"
        }
    }
}

/// The wall clock of timelines (Unix seconds), the clock the server's journal uses.
enum TimelineClock {
    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
