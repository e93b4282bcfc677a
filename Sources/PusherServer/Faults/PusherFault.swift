// SPDX-License-Identifier: MIT

/// One Pusher fault (docs/pusher.md "Faults"): what the server does differently on a connection
/// the rule applies to. Applied by `PusherConnectionFaults` to the core's actions; the core is unchanged.
public enum PusherFault: Sendable, Hashable {
    /// Close with `code` and `reason` at `moment`.
    case close(code: UInt16, reason: String, at: PusherFaultMoment)
    /// Do not answer the client's pings: `pusher:pong` events, WebSocket pong frames, or both.
    case withholdPongs(PusherPongKind)
    /// Probe a silent connection only with this kind of ping, whatever the app's `serverPing`.
    case serverPingOnly(PusherPingKind)
    /// Drop `pusher_internal:subscription_succeeded` (for `channel`, or any channel).
    case dropSubscriptionSucceeded(channel: String?)
    /// Send `pusher_internal:subscription_succeeded` `milliseconds` late (other messages are not held).
    case delaySubscriptionSucceeded(channel: String?, milliseconds: Int)
    /// Send every message `target` names `milliseconds` late (e.g. `connection_established`: a
    /// pause after the 101); other messages are not held.
    case delay(target: PusherMessageTarget, milliseconds: Int)
    /// Send the first message `target` names in a broken form.
    case malformed(PusherMalformation, target: PusherMessageTarget)
    /// Flip one byte of the `ciphertext` in the data of every event (on `channel`, named `event`;
    /// nil: any) whose data is an encrypted payload `{"nonce","ciphertext"}` (spec §4.3): the
    /// secretbox no longer verifies, as if the message had been changed on its way.
    case tamperCiphertext(channel: String?, event: String?)
    /// Refuse the connection's transport as a blocking proxy would: the WebSocket upgrade on
    /// `/app/KEY` (or a new HTTP fallback session's first request) answered with `status`, so the
    /// client falls back to the next transport.
    case refuseTransport(PusherRefusedTransport, status: Int)
}

/// A transport a `refuseTransport` fault refuses.
public enum PusherRefusedTransport: String, Sendable, Hashable, CaseIterable {
    /// The WebSocket upgrade (`refuse-websocket`).
    case websocket
    /// A new `xhr_streaming` session (`refuse-streaming`).
    case streaming
    /// A new `xhr_polling` session (`refuse-polling`).
    case polling

    /// The fault kind's name in a plan.
    public var kind: String { "refuse-\(rawValue)" }
}

/// When a `close` fault fires.
public enum PusherFaultMoment: Sendable, Hashable {
    /// Instead of `pusher:connection_established` (right after the 101).
    case beforeEstablished
    /// Right after `pusher:connection_established`.
    case afterEstablished
    /// Right after `subscription_succeeded` for this channel.
    case afterSubscribed(channel: String)
    /// Right after the `count`th message following `connection_established`.
    case afterMessages(count: Int)
}

/// Which pongs a `withholdPongs` fault swallows.
public enum PusherPongKind: String, Sendable, Hashable, CaseIterable {
    case pusher, websocket, both
}

/// Which probe a `serverPingOnly` fault sends.
public enum PusherPingKind: String, Sendable, Hashable, CaseIterable {
    case pusher, websocket
}

/// How a `malformed` fault breaks a message.
public enum PusherMalformation: String, Sendable, Hashable, CaseIterable {
    /// Valid, but split into several frames (a text frame and continuations).
    case splitFrames = "split-frames"
    /// A text frame whose payload is not UTF-8.
    case badUTF8 = "bad-utf8"
    /// The frame with RSV1 set (no extension was negotiated).
    case reservedBits = "reserved-bits"
    /// Not JSON at all (the message cut in half).
    case invalidJSON = "invalid-json"
    /// `data` as a JSON object instead of a string holding JSON.
    case objectData = "object-data"
    /// The members in reverse order (`channel`, `data`, `event`).
    case reorderedKeys = "reordered-keys"
    /// `connection_established` without `activity_timeout`.
    case missingActivityTimeout = "missing-activity-timeout"
    /// `connection_established` with a socket id that is not `\d+\.\d+`.
    case badSocketID = "bad-socket-id"
}

/// The message a `malformed` fault applies to (the first one that matches).
public enum PusherMessageTarget: Sendable, Hashable {
    case connectionEstablished
    case subscriptionSucceeded(channel: String?)
    /// The first message whose `event` equals this name.
    case event(String)
}
