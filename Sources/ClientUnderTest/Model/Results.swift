// SPDX-License-Identifier: MIT

/// `/time/0`.
public struct PNTimeResult: Sendable, Equatable {
    public let timetoken: UInt64
}

/// Publish and signal.
public struct PNPublishResult: Sendable, Equatable {
    public let timetoken: UInt64
    /// The server's text, normally "Sent".
    public let information: String
}

/// One uuid present on a channel.
public struct PNOccupant: Sendable, Equatable {
    public let uuid: String
    public let state: JSONValue?
}

/// Occupancy of one channel.
public struct PNChannelOccupancy: Sendable, Equatable {
    public let occupancy: Int
    /// Empty when uuids were not requested.
    public let occupants: [PNOccupant]
}

/// Here now (one channel, several, groups, or global).
public struct PNHereNowResult: Sendable, Equatable {
    public let totalChannels: Int
    public let totalOccupancy: Int
    public let channels: [String: PNChannelOccupancy]
}

/// Where now.
public struct PNWhereNowResult: Sendable, Equatable {
    public let channels: [String]
}

/// Presence state: per channel for get state, the state that was set for set state.
public struct PNStateResult: Sendable, Equatable {
    public let channels: [String: JSONValue]
}

/// One stored message.
public struct PNHistoryMessage: Sendable, Equatable {
    /// The message, decrypted when a cipher is set and decryption succeeded.
    public let message: JSONValue
    public let timetoken: UInt64?
    public let meta: JSONValue?
    public let publisher: String?
    /// True when a cipher is set and this message could not be decrypted (delivered as received).
    public let decryptionFailed: Bool
    /// The custom message type, when fetched with `includeCustomMessageType` and the message has one.
    public var customMessageType: String? = nil
    /// The message's actions, when fetched with `includeMessageActions` (empty: none), in the service's order.
    public var messageActions: [PNMessageAction]? = nil
}

/// History v2 (one channel).
public struct PNHistoryResult: Sendable, Equatable {
    public let messages: [PNHistoryMessage]
    public let start: UInt64
    public let end: UInt64
}

/// Fetch messages v3 (several channels).
public struct PNFetchMessagesResult: Sendable, Equatable {
    public let channels: [String: [PNHistoryMessage]]
}

/// Message counts.
public struct PNMessageCountResult: Sendable, Equatable {
    public let channels: [String: Int]
}

/// Channels of one channel group.
public struct PNChannelGroupChannelsResult: Sendable, Equatable {
    public let channels: [String]
}

/// All channel groups of the key.
public struct PNChannelGroupsResult: Sendable, Equatable {
    public let groups: [String]
}
