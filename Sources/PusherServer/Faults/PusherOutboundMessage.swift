// SPDX-License-Identifier: MIT
import HarnessJSON

/// The parts of a message the core sends that faults look at: its event, channel and decoded
/// members (the core's messages are compact JSON objects, `event` first).
struct PusherOutboundMessage {
    static let establishedEvent = "pusher:connection_established"
    static let succeededEvent = "pusher_internal:subscription_succeeded"
    static let pusherPing = #"{"event":"pusher:ping","data":"{}"}"#

    let text: String
    let members: JSONObject?

    init(_ text: String) {
        self.text = text
        members = (try? JSONValue.parse(text))?.objectValue
    }

    var event: String? { members?["event"]?.stringValue }
    var channel: String? { members?["channel"]?.stringValue }

    func matches(_ target: PusherMessageTarget) -> Bool {
        switch target {
        case .connectionEstablished: event == Self.establishedEvent
        case .subscriptionSucceeded(let channel): isSubscriptionSucceeded(channel: channel)
        case .event(let name): event == name
        }
    }

    /// `subscription_succeeded` for `channel` (any channel when nil).
    func isSubscriptionSucceeded(channel wanted: String?) -> Bool {
        event == Self.succeededEvent && (wanted == nil || channel == wanted)
    }
}
