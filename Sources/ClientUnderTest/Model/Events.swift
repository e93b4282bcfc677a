// SPDX-License-Identifier: MIT

/// A message or signal received by the subscribe loop.
public struct PNMessageEvent: Sendable, Equatable {
    /// The channel the message was published to.
    public let channel: String
    /// The subscription that matched (channel group or wildcard), nil when it is the channel itself.
    public let subscription: String?
    public let timetoken: UInt64
    /// Publisher uuid (`i`), when the server sent it.
    public let publisher: String?
    /// Payload, decrypted when a cipher is set (as received when decryption failed).
    public let message: JSONValue
    /// Publisher metadata (`u`).
    public let userMetadata: JSONValue?
    /// True when a cipher is set and the payload could not be decrypted.
    public let decryptionFailed: Bool
    /// The publisher's custom message type (`cmt`), when it set one.
    public var customMessageType: String? = nil
}

/// A presence event (join, leave, timeout, state-change, interval).
public struct PNPresenceEvent: Sendable, Equatable {
    /// The channel, without the `-pnpres` suffix.
    public let channel: String
    public let subscription: String?
    public let timetoken: UInt64
    public let event: String
    public let uuid: String?
    public let occupancy: Int?
    public let timestamp: Int64?
    /// The uuid's state (`data`) for state-change and joins/leaves with state.
    public let state: JSONValue?
    /// Interval mode deltas.
    public let join: [String]
    public let leave: [String]
    public let timeout: [String]
}

/// A file shared on a channel (`e`=4): the publish-file message, decrypted when a cipher is set.
public struct PNFileEvent: Sendable, Equatable {
    public let channel: String
    public let subscription: String?
    public let timetoken: UInt64
    public let publisher: String?
    public let fileID: String
    public let fileName: String
    /// The download URL, built locally as the SDKs do (`GET` answers a redirect to the bytes).
    public let fileURL: String
    /// The message sent with the file, if any.
    public let message: JSONValue?
    public let userMetadata: JSONValue?
    /// `cmt`, when the publisher set a custom message type.
    public let customMessageType: String?
}

/// Everything the client streams to listeners.
public enum PubNubEvent: Sendable {
    case message(PNMessageEvent)
    case signal(PNMessageEvent)
    case file(PNFileEvent)
    case presence(PNPresenceEvent)
    case status(PNStatus)
    case appContext(PNAppContextEvent)
    case messageAction(PNMessageActionEvent)
}

/// Receives streamed events. Methods are called in arrival order from the client's subscribe loop;
/// they should return quickly.
public protocol PubNubListener: AnyObject, Sendable {
    func client(_ client: PubNubClient, didReceiveMessage message: PNMessageEvent)
    func client(_ client: PubNubClient, didReceiveSignal signal: PNMessageEvent)
    func client(_ client: PubNubClient, didReceiveFileEvent event: PNFileEvent)
    func client(_ client: PubNubClient, didReceivePresenceEvent event: PNPresenceEvent)
    func client(_ client: PubNubClient, didReceiveStatus status: PNStatus)
    func client(_ client: PubNubClient, didReceiveAppContextEvent event: PNAppContextEvent)
    func client(_ client: PubNubClient, didReceiveMessageAction event: PNMessageActionEvent)
}

extension PubNubListener {
    public func client(_ client: PubNubClient, didReceiveMessage message: PNMessageEvent) {}
    public func client(_ client: PubNubClient, didReceiveSignal signal: PNMessageEvent) {}
    public func client(_ client: PubNubClient, didReceiveFileEvent event: PNFileEvent) {}
    public func client(_ client: PubNubClient, didReceivePresenceEvent event: PNPresenceEvent) {}
    public func client(_ client: PubNubClient, didReceiveStatus status: PNStatus) {}
    public func client(_ client: PubNubClient, didReceiveAppContextEvent event: PNAppContextEvent) {}
    public func client(_ client: PubNubClient, didReceiveMessageAction event: PNMessageActionEvent) {}
}
