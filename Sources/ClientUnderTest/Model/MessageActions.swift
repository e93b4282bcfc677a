// SPDX-License-Identifier: MIT

/// One message action (a reaction, a receipt, …) added to a stored message.
public struct PNMessageAction: Sendable, Equatable {
    /// The action's kind (`reaction`); at most 15 characters.
    public let type: String
    public let value: String
    /// The uuid that added it.
    public let uuid: String
    /// The timetoken of the message the action belongs to.
    public let messageTimetoken: UInt64
    /// The timetoken the service gave the action (its id, with the message timetoken).
    public let actionTimetoken: UInt64

    public init(type: String, value: String, uuid: String, messageTimetoken: UInt64, actionTimetoken: UInt64) {
        self.type = type
        self.value = value
        self.uuid = uuid
        self.messageTimetoken = messageTimetoken
        self.actionTimetoken = actionTimetoken
    }
}

/// The next (older) page of a message-action listing, as the service names it in `more`.
public struct PNMessageActionsPage: Sendable, Equatable {
    /// Actions older than this action timetoken (exclusive).
    public let start: UInt64
    /// Down to this action timetoken (inclusive), when the service gave one.
    public let end: UInt64?
    public let limit: Int?
    /// The service's own link to the page (path and query).
    public let url: String?
}

/// A page of message actions, oldest first, and the next page when older ones remain.
public struct PNMessageActionsResult: Sendable, Equatable {
    public let actions: [PNMessageAction]
    /// `nil` when this page holds the oldest action of the range.
    public let more: PNMessageActionsPage?
}

/// A message action added or removed on a subscribed channel (envelope `e` = 3).
public struct PNMessageActionEvent: Sendable, Equatable {
    public let channel: String
    /// The subscription that matched (channel group or wildcard), nil when it is the channel itself.
    public let subscription: String?
    /// The event's own timetoken.
    public let timetoken: UInt64
    /// The uuid that added or removed the action (`i`).
    public let publisher: String?
    /// `added` or `removed`.
    public let event: String
    /// The action; its `uuid` is the publisher's when the payload names none.
    public let action: PNMessageAction
}
