// SPDX-License-Identifier: MIT

/// One Pusher Channels application: the credentials an app server and its clients use, and the
/// behaviour switches of the mock (`docs/pusher.md`).
public struct PusherApp: Sendable, Hashable {
    /// The app id of the HTTP API paths (`/apps/ID/...`); digits for the official libraries.
    public var id: String
    /// The public key clients connect with (`/app/KEY`) and that prefixes every `auth` value.
    public var key: String
    /// The secret of every HMAC-SHA256 signature.
    public var secret: String
    public var options: PusherAppOptions

    public init(id: String, key: String, secret: String, options: PusherAppOptions = PusherAppOptions()) {
        self.id = id
        self.key = key
        self.secret = secret
        self.options = options
    }
}

/// How the server probes a silent connection (spec §5: WebSocket ping frames are what the service
/// prefers; libPusher never answers `pusher:ping` events).
public enum PusherServerPing: Sendable, Hashable {
    /// A WebSocket ping frame (the transport sends it; its pong arrives as `PusherInput.pong`).
    case webSocketFrame
    /// A `{"event":"pusher:ping","data":"{}"}` text message.
    case pusherEvent
}

/// What to do with a connection whose URL carries no `protocol` parameter.
/// UNVERIFIED (spec §2.1): the doc says the service infers it from `version` or treats it as 1,
/// "will in future be replaced by a 4008 error code"; the mock closes 4008 by default.
public enum PusherMissingProtocolPolicy: Sendable, Hashable {
    /// Close 4008 after the upgrade.
    case close
    /// Proceed as if this protocol version had been given.
    case assume(Int)
}

/// How `pusher:signin_success` carries its data.
/// UNVERIFIED (spec §3.2): the doc shows an object; every other server-generated event is
/// double-encoded, so the mock sends a string by default (pusher-js reads both).
public enum PusherSigninDataEncoding: Sendable, Hashable {
    case string
    case object
}

/// Per-app behaviour of the mock. Defaults are the service's documented values.
public struct PusherAppOptions: Sendable, Hashable {
    /// Sent in `connection_established` (whole seconds) and used as the server's idle interval
    /// before it probes a connection. Live value 120 (spec §3.2).
    public var activityTimeout: Duration = .seconds(120)
    /// How long the server waits for any traffic after its probe before closing 4201 (doc: 30 s).
    public var pongTimeout: Duration = .seconds(30)
    /// The probe sent after `activityTimeout` of silence.
    public var serverPing: PusherServerPing = .webSocketFrame
    /// The dashboard switch "client events" (spec §3.6).
    public var clientEventsEnabled = true
    /// Client events accepted per connection within any one second (spec §3.6: 10).
    public var clientEventRateLimit = 10
    /// Presence limits (spec §3.4).
    public var presenceMaxMembers = 100
    public var presenceMaxUserInfoBytes = 1024
    public var presenceMaxUserIDLength = 128
    /// Whether `cache-` channels keep and replay their last event (spec §3.7).
    public var cacheChannelsEnabled = true
    /// How long a cached event stays (doc: up to 30 minutes).
    public var cacheTTL: Duration = .seconds(30 * 60)
    /// Send `pusher_internal:subscription_count` to non-presence channels when it changes (spec §3.7,
    /// an app setting that is off by default).
    public var subscriptionCountEvents = false
    /// Watchlist ids accepted at signin before `pusher:error` 4302 (spec §3.2).
    public var watchlistLimit = 100
    public var missingProtocol: PusherMissingProtocolPolicy = .close
    public var signinSuccessData: PusherSigninDataEncoding = .string
    /// Close code for HTTP `terminate_connections`. UNVERIFIED (spec §10): 4009 "connection is
    /// unauthorized" makes pusher-js and libPusher stop reconnecting, which is the intent.
    public var terminateCloseCode: UInt16 = 4009
    /// What a signin with a watchlist gets at once (UNVERIFIED, `PusherWatchlistInitialStatus`).
    public var watchlistInitialStatus: PusherWatchlistInitialStatus = .onlineAndOffline
    /// The app's encryption master key (32 bytes), from which the auth endpoint derives each
    /// `private-encrypted-` channel's shared secret (spec §4.3). The core never decrypts; nil: none.
    public var encryptionMasterKey: [UInt8]?

    public init() {}
}

/// The transport's name for one WebSocket connection (unique while it is open).
public struct PusherConnectionID: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var rawValue: UInt64
    public init(_ rawValue: UInt64) { self.rawValue = rawValue }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    public var description: String { "#\(rawValue)" }
}

/// A point on the transport's monotonic clock, in milliseconds from an origin of its choice.
/// The core never reads a clock: every input carries its instant.
public struct PusherInstant: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var milliseconds: Int64
    public init(milliseconds: Int64) { self.milliseconds = milliseconds }
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.milliseconds < rhs.milliseconds }
    public static func + (lhs: Self, rhs: Duration) -> Self { Self(milliseconds: lhs.milliseconds + rhs.wholeMilliseconds) }
    public static func - (lhs: Self, rhs: Duration) -> Self { Self(milliseconds: lhs.milliseconds - rhs.wholeMilliseconds) }
    public var description: String { "\(milliseconds) ms" }
}

extension Duration {
    /// The duration in whole milliseconds (rounded down).
    var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
