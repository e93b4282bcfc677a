// SPDX-License-Identifier: MIT

/// The kind of a Pusher channel, read from its name's prefix.
public enum PusherChannelType: Sendable, Hashable {
    /// No prefix: anyone may subscribe, no client events.
    case `public`
    /// `private-` (also `private-encrypted-`, `private-cache-`): authorized with `socket_id:channel`.
    case `private`
    /// `presence-` (also `presence-cache-`): authorized with `socket_id:channel:channel_data`, has members.
    case presence

    /// The kind of `channelName`.
    public init(channelName: String) {
        if channelName.hasPrefix("presence-") {
            self = .presence
        } else if channelName.hasPrefix("private-") {
            self = .private
        } else {
            self = .public
        }
    }

    /// Whether subscribing needs an authorization from the app's auth endpoint.
    public var needsAuthorization: Bool { self != .public }
    /// Whether client events (`client-…`) may be triggered on it.
    public var acceptsClientEvents: Bool { self != .public }

    /// Whether `channelName` is end-to-end encrypted (`private-encrypted-`, spec §4.3): its events'
    /// data is decrypted with the auth answer's `shared_secret`, and client events are refused.
    public static func isEncrypted(_ channelName: String) -> Bool { channelName.hasPrefix("private-encrypted-") }

    /// `name` with the `private-` prefix added unless it is already there (libPusher's
    /// `subscribeToPrivateChannelNamed:`).
    public static func privateName(_ name: String) -> String { name.hasPrefix("private-") ? name : "private-" + name }
    /// `name` with the `presence-` prefix added unless it is already there.
    public static func presenceName(_ name: String) -> String { name.hasPrefix("presence-") ? name : "presence-" + name }
    /// `name` with the `client-` prefix added unless it is already there (libPusher's `triggerEventNamed:`).
    public static func clientEventName(_ name: String) -> String { name.hasPrefix("client-") ? name : "client-" + name }
}
