// SPDX-License-Identifier: MIT

/// Error details carried by a status.
public struct PNErrorData: Sendable, Equatable {
    /// A human-readable explanation (server message text or transport diagnosis).
    public var information: String
    /// Channels named by the server as affected (Access Manager `payload.channels`).
    public var channels: [String]
    /// Channel groups named by the server as affected (`payload.channel-groups`).
    public var channelGroups: [String]
    /// The parsed response body, when there was one.
    public var body: JSONValue?
    /// Transport diagnosis (errno text, OpenSSL verify result), when the request failed below HTTP.
    public var transportError: TransportError?
    /// The answer's `Retry-After` in seconds (a 429 or 503 that names one).
    public var retryAfterSeconds: Int?

    public init(information: String, channels: [String] = [], channelGroups: [String] = [], body: JSONValue? = nil,
                transportError: TransportError? = nil, retryAfterSeconds: Int? = nil) {
        self.information = information
        self.channels = channels
        self.channelGroups = channelGroups
        self.body = body
        self.transportError = transportError
        self.retryAfterSeconds = retryAfterSeconds
    }
}

/// The outcome of an operation that did not produce a result, or a change in the subscribe loop.
/// Thrown by the async API on failure.
public struct PNStatus: Error, Sendable, CustomStringConvertible {
    public let category: PNStatusCategory
    public let operation: PNOperationType
    /// HTTP status code, 0 when no response was received.
    public let statusCode: Int
    /// `category.isError`, frozen at creation.
    public let isError: Bool
    /// True when the client will retry on its own (subscribe loop reconnection).
    public let willAutomaticallyRetry: Bool
    /// Error details (server message, affected channels, transport diagnosis).
    public let errorData: PNErrorData?
    /// Subscribe-related context: channels and groups of the subscribe loop at the time.
    public let subscribedChannels: [String]
    public let subscribedChannelGroups: [String]
    /// Current and last cursor of the subscribe loop (0 when none).
    public let currentTimetoken: UInt64
    public let lastTimetoken: UInt64
    /// The request that produced this status ("GET /path?query"), when there was one.
    public let request: String?
    let retryAction: (@Sendable () -> Void)?

    init(category: PNStatusCategory, operation: PNOperationType, statusCode: Int = 0,
         willAutomaticallyRetry: Bool = false, errorData: PNErrorData? = nil, subscribedChannels: [String] = [],
         subscribedChannelGroups: [String] = [], currentTimetoken: UInt64 = 0, lastTimetoken: UInt64 = 0,
         request: String? = nil, retryAction: (@Sendable () -> Void)? = nil) {
        self.category = category
        self.operation = operation
        self.statusCode = statusCode
        self.isError = category.isError
        self.willAutomaticallyRetry = willAutomaticallyRetry
        self.errorData = errorData
        self.subscribedChannels = subscribedChannels
        self.subscribedChannelGroups = subscribedChannelGroups
        self.currentTimetoken = currentTimetoken
        self.lastTimetoken = lastTimetoken
        self.request = request
        self.retryAction = retryAction
    }

    /// Whether `retry()` can re-send the request.
    public var canRetry: Bool { retryAction != nil }

    /// Re-sends the request that produced this status. The outcome goes to the completion handler
    /// of the original call (for calls made through the async API: to the status listeners when the
    /// retry fails, and is dropped when it succeeds). Does nothing for statuses without a request.
    public func retry() { retryAction?() }

    public var description: String {
        var text = "\(category.rawValue) \(operation.rawValue) status=\(statusCode)"
        if let info = errorData?.information { text += " \(info)" }
        return text
    }
}
