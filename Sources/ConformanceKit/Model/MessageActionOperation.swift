// SPDX-License-Identifier: MIT
import HarnessJSON

/// The message-action operations (docs/driver-protocol.md; capability `messageActions`). Add
/// answers the stored action, get a page of actions and the next page (`more`), remove an
/// acknowledgment.
///
/// Timetokens are text so cases can name earlier results: `{message.N}` (the N-th message the
/// client published in the case), `{action.N}` (the N-th action it added), `{more.start}` and
/// `{more.end}` (the last listing's next page); the runner replaces them before sending.
public enum MessageActionOperation: Sendable, Hashable {
    case add(channel: String, messageTimetoken: String, type: String, value: String)
    case get(channel: String, start: String? = nil, end: String? = nil, limit: Int? = nil)
    case remove(channel: String, messageTimetoken: String, actionTimetoken: String)

    /// The operation's name on the driver protocol.
    public var name: String {
        switch self {
        case .add: "addMessageAction"
        case .get: "getMessageActions"
        case .remove: "removeMessageAction"
        }
    }

    /// The driver-protocol fields (besides `type`).
    var driverFields: [String: JSONValue] {
        switch self {
        case .add(let channel, let messageTimetoken, let type, let value):
            return ["channel": .string(channel), "messageTimetoken": .string(messageTimetoken),
                    "action": ["type": .string(type), "value": .string(value)]]
        case .get(let channel, let start, let end, let limit):
            var fields: [String: JSONValue] = ["channel": .string(channel)]
            if let start { fields["start"] = .string(start) }
            if let end { fields["end"] = .string(end) }
            if let limit { fields["limit"] = .int(limit) }
            return fields
        case .remove(let channel, let messageTimetoken, let actionTimetoken):
            return ["channel": .string(channel), "messageTimetoken": .string(messageTimetoken),
                    "actionTimetoken": .string(actionTimetoken)]
        }
    }

    /// The operation with `transform` applied to its timetokens (placeholders).
    func resolving(_ transform: (String) -> String) -> MessageActionOperation {
        switch self {
        case .add(let channel, let messageTimetoken, let type, let value):
            return .add(channel: channel, messageTimetoken: transform(messageTimetoken), type: type, value: value)
        case .get(let channel, let start, let end, let limit):
            return .get(channel: channel, start: start.map(transform), end: end.map(transform), limit: limit)
        case .remove(let channel, let messageTimetoken, let actionTimetoken):
            return .remove(channel: channel, messageTimetoken: transform(messageTimetoken), actionTimetoken: transform(actionTimetoken))
        }
    }
}

/// A message action a client's listener received (envelope `e` = 3).
public struct MessageActionEvent: Sendable, Hashable {
    public var channel: String
    /// `added` or `removed`; `nil` when the client does not report which.
    public var event: String?
    /// `type`, `value`, `uuid`, `messageTimetoken`, `actionTimetoken` (timetokens as strings).
    public var action: JSONValue

    public init(channel: String, event: String?, action: JSONValue) {
        self.channel = channel
        self.event = event
        self.action = action
    }
}

/// A message-action event a case expects: on `channel`, of kind `event`, whose action contains
/// `action` (placeholders such as `{uuid}` and `{action.1}` are replaced first).
public struct ExpectedMessageAction: Sendable, Hashable {
    public var channel: String
    public var event: String
    public var action: JSONValue

    public init(channel: String, event: String, action: JSONValue) {
        self.channel = channel
        self.event = event
        self.action = action
    }

    func matches(_ received: MessageActionEvent) -> Bool {
        received.channel == channel && received.event == event && received.action.contains(action)
    }
}
