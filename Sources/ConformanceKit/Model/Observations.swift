// SPDX-License-Identifier: MIT

/// What a client answered to one ``ClientOperation``.
public struct OperationResult: Sendable, Hashable {
    /// The status category, or `nil` for a success that carries a result object (time, history...).
    public var category: StatusCategory?
    /// The 4.x `error` flag of the status.
    public var isError: Bool
    /// The HTTP status code, when a response was received.
    public var statusCode: Int?
    /// The result data (shapes per operation in docs/driver-protocol.md), or error details.
    public var data: JSONValue?

    public init(category: StatusCategory? = nil, isError: Bool = false, statusCode: Int? = nil, data: JSONValue? = nil) {
        self.category = category
        self.isError = isError
        self.statusCode = statusCode
        self.data = data
    }

    /// A success without a result object (publish, set state, unsubscribe...).
    public static func acknowledgment(statusCode: Int? = 200, data: JSONValue? = nil) -> OperationResult {
        OperationResult(category: .acknowledgment, statusCode: statusCode, data: data)
    }

    /// A failed operation.
    public static func failure(_ category: StatusCategory, statusCode: Int? = nil, data: JSONValue? = nil) -> OperationResult {
        OperationResult(category: category, isError: true, statusCode: statusCode, data: data)
    }
}

/// A status delivered to the client's status listener (subscribe loop, reconnection...).
public struct StatusEvent: Sendable, Hashable {
    public var category: StatusCategory
    /// The operation the status is about, when the client says (`subscribe`, `heartbeat`, ...).
    public var operation: String?
    /// The subscribe cursor the client holds, when reported.
    public var timetoken: String?

    public init(category: StatusCategory, operation: String? = nil, timetoken: String? = nil) {
        self.category = category
        self.operation = operation
        self.timetoken = timetoken
    }
}

/// A message or signal delivered to the client's message listener.
public struct MessageEvent: Sendable, Hashable {
    public var channel: String
    /// The subscription it arrived through (a group or wildcard), when different from `channel`.
    public var subscription: String?
    /// The payload after decryption (or the raw payload when decryption failed).
    public var message: JSONValue
    public var publisher: String?
    public var timetoken: String?
    public var isSignal: Bool
    /// Whether the client reported that the payload failed to decrypt.
    public var decryptionFailed: Bool
    /// A file event (`e`=4): `message` is `{"message"?: …, "file": {"id", "name"}}`.
    public var isFile: Bool = false
    /// The publisher's custom message type (`cmt`), when the client reports one.
    public var customMessageType: String?

    public init(
        channel: String, subscription: String? = nil, message: JSONValue, publisher: String? = nil,
        timetoken: String? = nil, isSignal: Bool = false, decryptionFailed: Bool = false, isFile: Bool = false, customMessageType: String? = nil
    ) {
        self.isFile = isFile
        self.customMessageType = customMessageType
        self.channel = channel
        self.subscription = subscription
        self.message = message
        self.publisher = publisher
        self.timetoken = timetoken
        self.isSignal = isSignal
        self.decryptionFailed = decryptionFailed
    }
}

/// A presence event delivered to the client's presence listener.
public struct PresenceEvent: Sendable, Hashable {
    /// The channel the event is about (without `-pnpres`).
    public var channel: String
    /// `join`, `leave`, `timeout`, `state-change` or `interval`.
    public var action: String
    public var uuid: String?
    public var occupancy: Int?
    public var state: JSONValue?

    public init(channel: String, action: String, uuid: String? = nil, occupancy: Int? = nil, state: JSONValue? = nil) {
        self.channel = channel
        self.action = action
        self.uuid = uuid
        self.occupancy = occupancy
        self.state = state
    }
}

/// Anything a client's listeners observe.
public enum ClientEvent: Sendable, Hashable {
    case status(StatusEvent)
    case message(MessageEvent)
    case presence(PresenceEvent)
    case appContext(AppContextEvent)
    case messageAction(MessageActionEvent)
}
