// SPDX-License-Identifier: MIT
import HarnessJSON

/// One event received on the socket, as the app sees it (libPusher's `PTPusherEvent`).
public struct PusherEventMessage: Sendable, Hashable {
    /// The event name (`pusher:…`, `pusher_internal:…`, `client-…`, or an app event).
    public var name: String
    /// The channel, for channel events.
    public var channel: String?
    /// `data` as libPusher reads it: a string holding a JSON object or array is parsed; any other
    /// string stays the string; a non-string value is kept as it came.
    public var data: JSONValue?
    /// `data` exactly as received when it was a string.
    public var rawData: String?
    /// The sender's user id on presence client events.
    public var userID: String?

    public init(name: String, channel: String? = nil, data: JSONValue? = nil, rawData: String? = nil, userID: String? = nil) {
        self.name = name
        self.channel = channel
        self.data = data
        self.rawData = rawData
        self.userID = userID
    }
}

/// A presence channel member: the id and the `user_info` the auth endpoint gave it.
public struct PusherMember: Sendable, Hashable {
    public var userID: String
    public var userInfo: JSONValue?

    public init(userID: String, userInfo: JSONValue? = nil) {
        self.userID = userID
        self.userInfo = userInfo
    }
}

/// Everything the client reports to the app, in the order it happens (libPusher's delegate callbacks
/// and notifications).
public enum PusherClientEvent: Sendable, Hashable {
    /// `pusher:connectionDidConnect:` — `connection_established` arrived.
    case connected(socketID: String)
    /// `pusher:connection:didDisconnectWithError:willAttemptReconnect:`.
    case disconnected(error: PusherConnectionError?, willAttemptReconnect: Bool)
    /// `pusher:connection:failedWithError:` — the socket could not be opened.
    case failed(PusherConnectionError)
    /// `pusher:connectionWillAutomaticallyReconnect:afterDelay:`.
    case willAutomaticallyReconnect(afterDelay: Double)
    /// `pusher:didSubscribeToChannel:`.
    case subscribed(channel: String)
    /// `pusher:didFailToSubscribeToChannel:withError:` (authorization failures).
    case subscriptionFailed(channel: String, error: PusherAuthorizationError)
    /// `pusher:didReceiveErrorEvent:` — a `pusher:error`; `code` is nil when the server sent `null`.
    case errorEvent(code: Int?, message: String)
    /// A presence member joined (`pusher_internal:member_added`).
    case memberAdded(channel: String, member: PusherMember)
    /// A presence member left (`pusher_internal:member_removed`).
    case memberRemoved(channel: String, member: PusherMember)
    /// A cache channel had nothing cached (`pusher:cache_miss`, spec §3.7).
    case cacheMiss(channel: String)
    /// The channel's subscriber count changed (`pusher_internal:subscription_count`, spec §3.7);
    /// pusher-js hands it to the app as `pusher:subscription_count`.
    case subscriptionCount(channel: String, count: Int)
    /// Every event received, on the client (`PTPusherEventReceivedNotification`); channel events
    /// carry their channel and also reach that channel's stream.
    case event(PusherEventMessage)
    /// A text message that is not a Pusher event (not JSON, or no `event` string); it is ignored.
    case malformedMessage(String)
    /// `pusher:signin_success` arrived for this user id.
    case signedIn(userID: String)
    /// The user endpoint failed (pusher-js `pusher:signin_error`).
    case signinFailed(PusherAuthorizationError)
    /// An event on the signed-in user's `#server-to-user-ID` channel (pusher-js `user.bind`).
    case userEvent(PusherEventMessage)
    /// One entry of `pusher_internal:watchlist_events` (pusher-js `user.watchlist.bind`).
    case watchlist(name: String, userIDs: [String])
    /// An event on an encrypted channel could not be decrypted (after one new shared secret when
    /// the key was wrong) and was dropped.
    case decryptionFailed(channel: String, event: String, reason: String)
}
