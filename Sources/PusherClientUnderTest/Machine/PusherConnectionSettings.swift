// SPDX-License-Identifier: MIT

/// The connection behaviour the state machine follows (libPusher's `PTPusher` properties).
public struct PusherConnectionSettings: Sendable, Hashable {
    /// Reconnect after the connection is lost (libPusher `reconnectAutomatically`, default true).
    public var reconnectAutomatically: Bool = true
    /// Seconds before a reconnect; backoff multiplies it by the attempt number. Default 5 s;
    /// values below 1 s are raised to 1 s (libPusher `setReconnectDelay:` clamps with `MAX(…, 1)`).
    public var reconnectDelay: Double {
        get { storedReconnectDelay }
        set { storedReconnectDelay = Self.clampedDelay(newValue) }
    }
    private var storedReconnectDelay: Double = 5
    /// Automatic reconnect attempts before giving up; the count resets when a connection is
    /// established (libPusher `_maximumNumberOfReconnectAttempts = 3`).
    public var maximumReconnectAttempts: Int = 3
    /// Seconds of silence before the client sends `pusher:ping`; the server's `activity_timeout`
    /// applies when it is lower, and alone when this is nil. Also bounds the wait for
    /// `connection_established` after the upgrade.
    public var activityTimeout: Double?
    /// Seconds to wait for any message after a `pusher:ping` before the connection counts as dead.
    public var pongTimeout: Double = 30
    /// How close codes are classified (libPusher's fatal-domain quirk by default).
    public var closePolicy: PusherClosePolicy = .libPusher
    /// Client events triggered before the channel is subscribed are queued up to this many per channel.
    public var maximumQueuedClientEvents: Int = 100

    public init() {}

    /// The wait before the first message when the server's value is not known yet.
    static let defaultActivityTimeout: Double = 120

    /// libPusher's minimum of one second.
    public static func clampedDelay(_ delay: Double) -> Double { delay.isFinite ? max(delay, 1) : 5 }

    /// The delay before reconnect `attempt` (1-based) in `mode`.
    public func delay(for mode: PusherReconnectMode, attempt: Int) -> Double {
        switch mode {
        case .none, .immediately: 0
        case .configuredDelay: reconnectDelay
        case .backoff: reconnectDelay * Double(max(attempt, 1))
        }
    }
}
