// SPDX-License-Identifier: MIT

/// One message action (reaction, receipt, …) added to a stored message.
struct MessageAction: Sendable, Hashable {
    var type: String
    var value: String
    var uuid: String
    var messageTimetoken: UInt64
    var actionTimetoken: UInt64

    /// `{"messageTimetoken": …, "type": …, "uuid": …, "value": …, "actionTimetoken": …}`, the
    /// recorded layout of an add answer's `data` (2024), also used for the items of a get (UNVERIFIED order).
    var json: String {
        "{\"messageTimetoken\": \"" + String(messageTimetoken) + "\", \"type\": " + PubNubJSON.quote(type)
            + ", \"uuid\": " + PubNubJSON.quote(uuid) + ", \"value\": " + PubNubJSON.quote(value)
            + ", \"actionTimetoken\": \"" + String(actionTimetoken) + "\"}"
    }

    /// The `d` of the subscribe event (e = 3) announcing the action (spec §5.4, `event` added / removed).
    func eventPayload(_ event: String) -> String {
        "{\"source\":\"actions\",\"version\":\"1.0\",\"data\":{\"messageTimetoken\":\"" + String(messageTimetoken)
            + "\",\"type\":" + PubNubJSON.quote(type) + ",\"value\":" + PubNubJSON.quote(value)
            + ",\"actionTimetoken\":\"" + String(actionTimetoken) + "\"},\"event\":\"" + event + "\"}"
    }

    /// The `actions` object of a history-with-actions message: type → value → `[{uuid, actionTimetoken}]`
    /// (recorded 2024), types and values in the order they were first added; `nil` without actions.
    static func historyJSON(_ actions: [MessageAction]) -> String? {
        guard !actions.isEmpty else { return nil }
        var types: [String] = []
        var values: [String: [String]] = [:]
        var entries: [String: [String]] = [:]
        for action in actions {
            if values[action.type] == nil { types.append(action.type) }
            if !(values[action.type]?.contains(action.value) ?? false) { values[action.type, default: []].append(action.value) }
            entries[action.type + "\u{0}" + action.value, default: []].append(
                "{\"uuid\": " + PubNubJSON.quote(action.uuid) + ", \"actionTimetoken\": \"" + String(action.actionTimetoken) + "\"}")
        }
        return "{" + types.map { type in
            PubNubJSON.quote(type) + ": {" + (values[type] ?? []).map { value in
                PubNubJSON.quote(value) + ": [" + (entries[type + "\u{0}" + value] ?? []).joined(separator: ", ") + "]"
            }.joined(separator: ", ") + "}"
        }.joined(separator: ", ") + "}"
    }
}
