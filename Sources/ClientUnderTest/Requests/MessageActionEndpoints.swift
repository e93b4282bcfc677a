// SPDX-License-Identifier: MIT
import HarnessJSON

/// Message actions (`/v1/message-actions/{sub}/channel/{ch}…`): requests and parsers.
enum MessageActionEndpoints {
    static func channelPath(_ subscribeKey: String, _ channel: String) -> String {
        "/v1/message-actions/\(PercentEncoding.encode(subscribeKey))/channel/\(PercentEncoding.encode(channel))"
    }

    /// `POST …/message/{tt}` with `{"type":…,"value":…}`.
    static func add(subscribeKey: String, channel: String, messageTimetoken: UInt64, type: String, value: String) -> PubNubRequest {
        PubNubRequest(operation: .addMessageAction, method: "POST",
                      path: channelPath(subscribeKey, channel) + "/message/" + String(messageTimetoken),
                      body: JSONValue.object([("type", .string(type)), ("value", .string(value))]).jsonBytes, channels: [channel])
    }

    /// `GET …?start=&end=&limit=` (each only when given).
    static func get(subscribeKey: String, channel: String, start: UInt64?, end: UInt64?, limit: Int?) -> PubNubRequest {
        var query: [(String, String)] = []
        if let start { query.append(("start", String(start))) }
        if let end { query.append(("end", String(end))) }
        if let limit { query.append(("limit", String(limit))) }
        return PubNubRequest(operation: .fetchMessageActions, path: channelPath(subscribeKey, channel), query: query, channels: [channel])
    }

    /// `DELETE …/message/{tt}/action/{att}`.
    static func remove(subscribeKey: String, channel: String, messageTimetoken: UInt64, actionTimetoken: UInt64) -> PubNubRequest {
        PubNubRequest(operation: .removeMessageAction, method: "DELETE",
                      path: channelPath(subscribeKey, channel) + "/message/" + String(messageTimetoken)
                          + "/action/" + String(actionTimetoken),
                      channels: [channel])
    }

    /// One action object: `type`, `value`, `uuid`, and the two timetokens (strings or numbers).
    static func action(_ value: JSONValue, defaultUUID: String? = nil) -> PNMessageAction? {
        guard let type = value["type"]?.stringValue, let actionValue = value["value"]?.stringValue,
              let uuid = value["uuid"]?.stringValue ?? defaultUUID,
              let messageTimetoken = value["messageTimetoken"]?.timetokenValue,
              let actionTimetoken = value["actionTimetoken"]?.timetokenValue else { return nil }
        return PNMessageAction(type: type, value: actionValue, uuid: uuid, messageTimetoken: messageTimetoken,
                               actionTimetoken: actionTimetoken)
    }

    /// An add answer: `{"status": 200, "data": {…action…}}`.
    static func parseAdded(_ body: JSONValue) -> PNMessageAction? {
        body["data"].flatMap { action($0) }
    }

    /// A get answer: `{"status": 200, "data": [...], "more": {"url", "start", "end", "limit"}}`.
    static func parseList(_ body: JSONValue) -> PNMessageActionsResult? {
        guard let items = body["data"]?.arrayValue else { return nil }
        var actions: [PNMessageAction] = []
        for item in items {
            guard let parsed = action(item) else { return nil }
            actions.append(parsed)
        }
        var more: PNMessageActionsPage?
        if let page = body["more"], page.objectValue != nil {
            guard let start = page["start"]?.timetokenValue else { return nil }
            more = PNMessageActionsPage(start: start, end: page["end"]?.timetokenValue, limit: page["limit"]?.intValue,
                                        url: page["url"]?.stringValue)
        }
        return PNMessageActionsResult(actions: actions, more: more)
    }

    /// The actions of a history-with-actions entry: `{type: {value: [{uuid, actionTimetoken}]}}`,
    /// flattened in the service's order; `nil` when the object does not have that shape.
    static func historyActions(_ value: JSONValue?, messageTimetoken: UInt64) -> [PNMessageAction]? {
        guard let value else { return [] }
        guard let types = value.objectValue else { return nil }
        var actions: [PNMessageAction] = []
        for (type, values) in types {
            guard let values = values.objectValue else { return nil }
            for (actionValue, entries) in values {
                guard let entries = entries.arrayValue else { return nil }
                for entry in entries {
                    guard let uuid = entry["uuid"]?.stringValue, let actionTimetoken = entry["actionTimetoken"]?.timetokenValue
                    else { return nil }
                    actions.append(PNMessageAction(type: type, value: actionValue, uuid: uuid, messageTimetoken: messageTimetoken,
                                                   actionTimetoken: actionTimetoken))
                }
            }
        }
        return actions
    }

    /// The event of a subscribe envelope with `e` = 3: `d` = `{"event", "data": {…action…}}`.
    static func event(from envelope: SubscribeEnvelope) -> PNMessageActionEvent? {
        guard let event = envelope.payload["event"]?.stringValue, let data = envelope.payload["data"],
              let action = action(data, defaultUUID: envelope.publisher) else { return nil }
        return PNMessageActionEvent(channel: envelope.channel, subscription: envelope.subscription, timetoken: envelope.timetoken,
                                    publisher: envelope.publisher, event: event, action: action)
    }
}
