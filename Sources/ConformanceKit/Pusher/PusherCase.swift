// SPDX-License-Identifier: MIT
import HarnessJSON
import MockPusher
import PusherServer

/// What a Pusher client must be able to do for a case to run; a client lacking one gets "skipped".
public enum PusherCapability: String, Sendable, Hashable, Codable, CaseIterable {
    /// Private channels (an auth step).
    case privateChannels
    /// Presence channels (members, member_added/removed).
    case presence
    /// Client events (`client-…` on private and presence channels).
    case clientEvents
    /// Automatic reconnection after a lost connection.
    case reconnection
    /// `wss` trusting the harness's test CA (the `configure` fields `tls` and `caPEM`).
    case tls
    /// Its own `pusher:ping` after a silence the harness sets (`activityTimeoutMs`), and a lost
    /// connection when no answer comes within a pong timeout the harness sets (`pongTimeoutMs`).
    case clientPing
    /// Reports `pusher:cache_miss` to the app as an event on the cache channel (spec §3.7).
    case cacheMiss
    /// Reports `pusher_internal:subscription_count` to the app as `pusher:subscription_count` with
    /// `{"subscription_count":N}` on the channel (pusher-js's name; spec §3.7).
    case subscriptionCount
    /// `signin` with the `configure` field `userAuthEndpoint`; reports `signedIn` and the events
    /// sent to the user (`#server-to-user-ID`) as `userEvent` (docs/driver-protocol.md).
    case userSignin
    /// Reports `pusher_internal:watchlist_events` entries as `watchlist` lines.
    case watchlist
    /// Subscribes to `private-encrypted-…` channels with the auth answer's `shared_secret` and
    /// delivers the decrypted data as a normal event (spec §4.3).
    case encryptedChannels
    /// Falls back to the HTTP transports (`xhr_streaming`, then `xhr_polling`) when the WebSocket
    /// upgrade is refused; the server's journal says which transport each connection used.
    case httpFallback
}

/// A participant the harness itself plays inside the server (no socket): it subscribes, triggers
/// client events and records what the server sends it, so a case can check fan-out and presence
/// from the other side.
public struct PusherPeer: Sendable, Hashable {
    public var name: String
    /// The presence user id (also its `user_info.name`).
    public var userID: String
    public init(_ name: String, userID: String? = nil) {
        self.name = name
        self.userID = userID ?? name
    }
}

/// One step of a Pusher case: a client operation, a harness-side action, or an expectation.
/// Every case has an app of its own, so channel names need no per-case prefix.
public enum PusherStep: Sendable, Hashable {
    /// Ask the client to connect.
    case connect
    /// Ask the client to disconnect (close 1000, no reconnect).
    case disconnect
    /// Ask the client to subscribe (private and presence names are authorized at the harness's endpoint).
    case subscribe(String)
    case unsubscribe(String)
    /// Ask the client to trigger a client event (`client-` is part of `event`).
    case clientEvent(channel: String, event: String, data: JSONValue)
    /// Publish from the server side, as the HTTP API's `POST /apps/ID/events` does: `data` is the
    /// string the app server sends (usually JSON text); `excludeClient` passes the client's
    /// current socket id as `socket_id` (the sender's own connection is left out).
    case trigger(channels: [String], event: String, data: String, excludeClient: Bool)
    /// Send the client `pusher:error` with this code on its open connection (it stays open).
    case sendErrorEvent(code: Int, message: String)
    /// Close the client's current connection from the server with this close code and reason;
    /// 1006 ends the TCP connection without a close frame.
    case closeConnection(code: Int, reason: String)
    /// A harness peer subscribes (as presence member `peer.userID` on presence channels).
    case peerSubscribe(PusherPeer, channel: String)
    /// A harness peer leaves (its connection ends).
    case peerLeave(PusherPeer)
    /// A harness peer triggers a client event.
    case peerClientEvent(PusherPeer, channel: String, event: String, data: String)
    /// Wait a fixed time; only where the protocol itself is about time.
    case wait(ms: Int)

    /// The client reports `connection_established` (the n-th one counted from the case start).
    case expectConnected(count: Int = 1, withinMs: Int)
    /// The client reports the connection closed by the server with `code` (any code when nil).
    case expectDisconnected(code: Int?, withinMs: Int)
    /// The client reports the subscription succeeded.
    case expectSubscribed(String, withinMs: Int)
    /// The client does not report the channel subscribed for `ms` (a subscription the server has
    /// not confirmed is not one).
    case expectNotSubscribed(String, forMs: Int)
    /// The client reports that subscribing to the channel failed (a `pusher:error` about it or a
    /// refused authorization).
    case expectSubscriptionError(String, withinMs: Int)
    /// The client reports a `pusher:error` with this code (`nil` code = the server sent null).
    case expectErrorEvent(code: Int?, withinMs: Int)
    /// The client delivers this event on this channel, with this data (JSON-equal after the
    /// client's decoding; `nil` = any data) and, for presence client events, this `user_id`.
    case expectEvent(channel: String, event: String, data: JSONValue?, userID: String? = nil, withinMs: Int)
    /// No event named `event` reaches the client for `ms` (e.g. its own client event is not echoed).
    case expectNoEvent(event: String, forMs: Int)
    /// The client reports this presence member joining or leaving.
    case expectMember(channel: String, userID: String, added: Bool, withinMs: Int)
    /// The client's member list of the channel is exactly these user ids (any order).
    case expectMembers(channel: String, userIDs: [String], withinMs: Int)
    /// A peer receives this event (data: the JSON the server's string holds, or the string itself).
    case expectPeerEvent(PusherPeer, channel: String, event: String, data: JSONValue?, withinMs: Int)
    /// A peer receives no event named `event` for `ms`.
    case expectNoPeerEvent(PusherPeer, event: String, forMs: Int)
    /// A new WebSocket connection from the client opens no sooner than `atLeastMs` and no later
    /// than `withinMs` after the last connection the server saw end.
    case expectReconnect(atLeastMs: Int, withinMs: Int)
    /// A new connection opens sooner than `beforeMs` after the last close. Not stretched by the
    /// time scale: the bound is the timing under test, and cases using it set a reconnect delay
    /// well above it, so a client that waits its delay fails however loaded the machine is.
    case expectImmediateReconnect(beforeMs: Int)
    /// No new connection from the client for `ms` after the last one ended.
    case expectNoReconnect(forMs: Int)
    /// The case's app emitted a webhook event named `name` (`cache_miss`, `subscription_count`, …)
    /// for the channel, with these fields besides `name` and `channel` (nil: any).
    case expectWebhook(name: String, channel: String, fields: JSONValue? = nil, withinMs: Int)
    /// The server's journal of this case satisfies the condition.
    case expectJournal(PusherJournalCheck, withinMs: Int)
    /// Ask the client to sign in (`userAuthEndpoint`, with the case's watchlist).
    case signin
    /// A harness peer signs in as `peer.userID` with this watchlist (it stays online until `peerLeave`).
    case peerSignin(PusherPeer, watchlist: [String] = [])
    /// The app server sends `event` to `user` (HTTP API trigger on `#server-to-user-USER`, as
    /// `sendToUser` / `send_to_user` do).
    case sendToUser(String, event: String, data: String)
    /// The app server terminates `user`'s connections (`POST /apps/ID/users/USER/terminate_connections`).
    case terminateUser(String)
    /// The client reports `pusher:signin_success` for this user.
    case expectSignedIn(String, withinMs: Int)
    /// The client delivers this event sent to its user, with this data (as ``expectEvent``).
    case expectUserEvent(event: String, data: JSONValue?, withinMs: Int)
    /// No user event named `event` reaches the client for `ms`.
    case expectNoUserEvent(String, forMs: Int)
    /// The client reports a watchlist entry `name` whose ids are exactly these (any order).
    case expectWatchlist(name: String, userIDs: [String], withinMs: Int)
    /// Ask the client to trigger a client event it should refuse locally: a refusal (an error
    /// answer) is not a failure; whether anything went on the wire is for a later journal check.
    case clientEventMayBeRefused(channel: String, event: String, data: JSONValue)
}

/// A condition on what the client sent (the server's journal of the case's app).
public enum PusherJournalCheck: Sendable, Hashable {
    /// The client's n-th connection has ended (the server saw it close).
    case connectionEnded(connection: Int)
    /// The client reported the socket id the server gave its n-th connection.
    case socketIDReported(connection: Int)
    /// The channel was authorized at the harness's endpoint with the socket id of the client's
    /// n-th connection (1-based), and the server accepted a subscription signed for it.
    case authorizedForConnection(channel: String, connection: Int)
    /// The client sent this event (e.g. `pusher:subscribe`, `pusher:unsubscribe`) for the channel
    /// on its n-th connection.
    case sentOnConnection(event: String, channel: String, connection: Int)
    /// The client's n-th connection is still open, and over it the client answered the server's
    /// probe (a WebSocket pong, or `pusher:pong`) or pinged on its own (`pusher:ping`).
    case keptAlive(connection: Int)
    /// The client sent `pusher:ping` on its n-th connection.
    case pinged(connection: Int)
    /// The client's n-th connection used TLS (`wss`).
    case usedTLS(connection: Int)
    /// The channel was authorized at the harness's endpoint exactly `times` times (e.g. an encrypted
    /// channel's subscription and the one re-authorization after a failed decryption).
    case authorizedTimes(channel: String, times: Int)
    /// The client never sent an event with this name on any connection.
    case neverSent(event: String)
    /// The client's n-th connection used this transport: `ws` (a WebSocket, with or without
    /// TLS), `xhr_streaming` or `xhr_polling` (the HTTP fallback transports).
    case usedTransport(connection: Int, String)
}

/// A variant outcome allowed for clients declaring a profile value (see ``PusherProfile``).
public struct PusherVariant: Sendable, Hashable {
    /// The profile aspect and the value that selects this variant.
    public var aspect: PusherAspect
    public var value: String
    /// What the variant does with the case.
    public var effect: Effect
    public enum Effect: Sendable, Hashable {
        /// The case does not apply (it tests the reference behaviour itself).
        case skip(String)
        /// These steps replace the case's; a pass is reported non-strict with the reason.
        case replaceSteps([PusherStep], reason: String)
    }
    public init(_ aspect: PusherAspect, _ value: String, _ effect: Effect) {
        self.aspect = aspect
        self.value = value
        self.effect = effect
    }
}

/// An aspect and one of its values.
public struct PusherVariantSelector: Sendable, Hashable {
    public var aspect: PusherAspect
    public var value: String
}

/// Client settings a case may change from the harness defaults.
public struct PusherClientSettings: Sendable, Hashable {
    /// Seconds before a reconnect after 1000/1001 (the base of the backoff); libPusher's minimum is 1.
    public var reconnectDelaySeconds: Double = 1
    /// The `protocol=` the client sends, when the client lets it be chosen.
    public var protocolVersion: Int = 7
    /// Use an app key the server does not know (for 4001).
    public var unknownAppKey = false
    /// The auth endpoint answers 403 to every request (an app server refusing the user).
    public var authRefused = false
    /// Connect with `wss` to the server's TLS listener, trusting its test CA.
    public var tls = false
    /// Seconds of silence before the client pings on its own, when lower than the server's
    /// `activity_timeout` (nil: the client's default).
    public var activityTimeoutSeconds: Double?
    /// Seconds the client waits for an answer to its own `pusher:ping` (nil: the client's default).
    public var pongTimeoutSeconds: Double?
    /// The watchlist in the user data the user endpoint signs (nil: no `watchlist` member).
    public var watchlist: [String]?
    /// How the user endpoint answers the client's signin.
    public var userAuth: PusherUserAuthMode = .valid
    /// The channel auth endpoint leaves `channel_data` out of presence answers (the member then
    /// comes from the signin, spec §3.4).
    public var presenceFromSignin = false
    /// The auth endpoint answers encrypted channels with another channel's `shared_secret`, so the
    /// client cannot decrypt (`?shared_secret=wrong` on the harness's endpoint).
    public var wrongSharedSecret = false
    public init(reconnectDelaySeconds: Double = 1, protocolVersion: Int = 7, unknownAppKey: Bool = false, authRefused: Bool = false,
                tls: Bool = false, activityTimeoutSeconds: Double? = nil, pongTimeoutSeconds: Double? = nil, wrongSharedSecret: Bool = false) {
        self.wrongSharedSecret = wrongSharedSecret
        self.activityTimeoutSeconds = activityTimeoutSeconds
        self.reconnectDelaySeconds = reconnectDelaySeconds
        self.protocolVersion = protocolVersion
        self.unknownAppKey = unknownAppKey
        self.authRefused = authRefused
        self.tls = tls
        self.pongTimeoutSeconds = pongTimeoutSeconds
    }
}

/// How the harness's user endpoint answers a case's signin.
public enum PusherUserAuthMode: Sendable, Hashable {
    /// Signed user data for the client's user.
    case valid
    /// 403, as an app refusing the user.
    case refused
    /// A signature the server must refuse (`pusher:error`).
    case badSignature
}

/// One Pusher conformance case: stable id `pusher.<group>.<name>`, the spec section it checks, the
/// steps it drives. It passes when every expectation holds within its window.
public struct PusherCase: Sendable, Hashable, Identifiable {
    public var id: String
    public var title: String
    /// The section of `shared/spec/pusher-protocol.md` checked, e.g. `§5`.
    public var spec: String
    public var client: PusherClientSettings
    public var steps: [PusherStep]
    public var requires: Set<PusherCapability>
    public var variants: [PusherVariant]
    /// A variant-only case: it applies only to clients declaring this aspect value (a behaviour
    /// only that family has) and is skipped for every other.
    public var onlyFor: PusherVariantSelector?
    /// The Pusher fault plan installed for the case's app key while it runs (docs/fault-plans.md).
    public var faultPlan: PusherFaultPlan?
    /// The server-side options of the case's app (e.g. a short activity timeout); nil = the defaults.
    public var appOptions: PusherAppOptions?
    /// The least budget the author asks for; the runner derives the real one (``PusherCaseBudget``).
    public var timeBudget: Duration
    /// Whether the case's app has an encryption master key (the runner derives one); false for
    /// cases about an app without one.
    public var appHasMasterKey = true

    public init(_ id: String, _ title: String, spec: String, client: PusherClientSettings = PusherClientSettings(),
                steps: [PusherStep], requires: Set<PusherCapability> = [], variants: [PusherVariant] = [],
                onlyFor: (PusherAspect, String)? = nil, faultPlan: PusherFaultPlan? = nil, appOptions: PusherAppOptions? = nil,
                timeBudget: Duration = .seconds(2)) {
        self.faultPlan = faultPlan
        self.appOptions = appOptions
        self.onlyFor = onlyFor.map { PusherVariantSelector(aspect: $0.0, value: $0.1) }
        self.id = id
        self.title = title
        self.spec = spec
        self.client = client
        self.steps = steps
        self.requires = requires
        self.variants = variants
        self.timeBudget = timeBudget
    }

    /// `pusher`.
    public var suite: String { String(id.split(separator: ".").first ?? "") }
    /// The group: the second component of the id.
    public var group: String { id.split(separator: ".").dropFirst().first.map(String.init) ?? "" }
}

extension PusherStep {
    /// A server-side trigger on one channel.
    public static func trigger(_ channel: String, _ event: String, _ data: String) -> PusherStep {
        .trigger(channels: [channel], event: event, data: data, excludeClient: false)
    }
}
