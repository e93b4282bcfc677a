// SPDX-License-Identifier: MIT
import HarnessJSON

/// Where Pusher clients legitimately differ (spec §5, §2.3): each aspect with its reference
/// (libPusher) value.
public enum PusherAspect: String, Sendable, Hashable, CaseIterable {
    /// How the client reacts to the server's close codes: `close-codes` (reference: libPusher,
    /// pusher-js — 4000–4099 no reconnect, 4100–4199 back off, 4200–4299 at once) or
    /// `error-events-only` (pysher: only `pusher:error` codes count, a close is a lost socket).
    case closeCodes
    /// What a private channel's re-subscription after a reconnect carries: `reauthorize`
    /// (reference: a new auth for the new socket id) or `no-auth` (pysher re-subscribes without
    /// `auth`, §5).
    case resubscribe

    public var reference: String {
        switch self {
        case .closeCodes: "close-codes"
        case .resubscribe: "reauthorize"
        }
    }
}

/// A Pusher client's declared behaviour variants; the empty profile is the reference client.
public struct PusherProfile: Sendable, Hashable {
    public var variants: [PusherAspect: String]
    public init(variants: [PusherAspect: String] = [:]) { self.variants = variants }
    public static let reference = PusherProfile()
    public func value(_ aspect: PusherAspect) -> String { variants[aspect] ?? aspect.reference }

    /// Reads a driver's `hello` `profile` object (unknown aspects are ignored).
    public init(json: JSONValue?) {
        var variants: [PusherAspect: String] = [:]
        for aspect in PusherAspect.allCases {
            if let value = json?[aspect.rawValue]?.stringValue { variants[aspect] = value }
        }
        self.init(variants: variants)
    }
}

/// What a Pusher client session is started with.
public struct PusherSessionConfiguration: Sendable, Hashable {
    /// The WebSocket host and port (`ws`, or `wss` when ``caPEM`` is set).
    public var host: String
    public var port: Int
    /// With TLS (`wss`): the PEM of the test CA to trust; nil for plain `ws`.
    public var caPEM: String?
    /// Whether the client connects with `wss`.
    public var useTLS: Bool { caPEM != nil }
    public var appKey: String
    /// The app's secret, for clients that can only sign themselves (pysher); adapters that can use
    /// ``authEndpoint`` should.
    public var appSecret: String
    /// The harness's auth endpoint (`http://127.0.0.1:PORT/…`): a form POST with `socket_id` and
    /// `channel_name` answered `{"auth":…,"channel_data"?:…}`.
    public var authEndpoint: String
    /// The presence user id this client signs in as (the endpoint's `channel_data`).
    public var userID: String
    public var settings: PusherClientSettings
    /// The harness's user authentication endpoint (a form POST of `socket_id` answered
    /// `{"auth","user_data"}`), with the case's watchlist in its query.
    public var userAuthEndpoint: String

    public init(host: String, port: Int, appKey: String, appSecret: String, authEndpoint: String, userID: String,
                settings: PusherClientSettings, caPEM: String? = nil, userAuthEndpoint: String = "") {
        self.userAuthEndpoint = userAuthEndpoint
        self.caPEM = caPEM
        self.host = host
        self.port = port
        self.appKey = appKey
        self.appSecret = appSecret
        self.authEndpoint = authEndpoint
        self.userID = userID
        self.settings = settings
    }

    /// The `configure` request of the driver protocol (docs/driver-protocol.md, "Pusher").
    public var driverFields: [String: JSONValue] {
        var fields = base
        if let caPEM {
            fields["tls"] = .bool(true)
            fields["caPEM"] = .string(caPEM)
        }
        if let activity = settings.activityTimeoutSeconds { fields["activityTimeoutMs"] = .int(Int(activity * 1_000)) }
        if let pong = settings.pongTimeoutSeconds { fields["pongTimeoutMs"] = .int(Int(pong * 1_000)) }
        return fields
    }

    private var base: [String: JSONValue] {
        ["type": "configure", "host": .string(host), "port": .int(port), "appKey": .string(appKey),
         "appSecret": .string(appSecret), "authEndpoint": .string(authEndpoint), "userID": .string(userID),
         "userAuthEndpoint": .string(userAuthEndpoint),
         "userInfo": ["name": .string(userID)],
         "reconnectDelayMs": .int(Int(settings.reconnectDelaySeconds * 1_000)), "protocolVersion": .int(settings.protocolVersion)]
    }
}

/// An operation the runner asks a Pusher client to perform.
public enum PusherOperation: Sendable, Hashable {
    case connect
    case disconnect
    case subscribe(channel: String)
    case unsubscribe(channel: String)
    case trigger(channel: String, event: String, data: JSONValue)
    /// Sign in at the `userAuthEndpoint` (pusher-js `signin()`).
    case signin

    public var name: String {
        switch self {
        case .connect: "connect"
        case .disconnect: "disconnect"
        case .subscribe: "subscribe"
        case .unsubscribe: "unsubscribe"
        case .trigger: "trigger"
        case .signin: "signin"
        }
    }

    /// The request of the driver protocol.
    public var driverFields: [String: JSONValue] {
        switch self {
        case .connect, .disconnect, .signin: ["type": .string(name)]
        case .subscribe(let channel), .unsubscribe(let channel): ["type": .string(name), "channel": .string(channel)]
        case .trigger(let channel, let event, let data): ["type": "trigger", "channel": .string(channel), "event": .string(event), "data": data]
        }
    }
}

/// Something a Pusher client reported, normalised for the runner.
public enum PusherObservation: Sendable, Hashable {
    case connected(socketID: String)
    /// The connection ended; `code` is the server's close code when the client saw one.
    case disconnected(code: Int?)
    case subscribed(channel: String)
    case subscriptionError(channel: String, message: String)
    /// A `pusher:error` (code nil = null).
    case errorEvent(code: Int?, message: String)
    /// A channel event delivered to the app, with its data as the client decoded it.
    case event(channel: String, name: String, data: JSONValue?, userID: String?)
    case memberAdded(channel: String, userID: String)
    case memberRemoved(channel: String, userID: String)
    /// The client's whole member list of a presence channel (after subscription_succeeded).
    case members(channel: String, userIDs: [String])
    /// `pusher:signin_success` reached the app.
    case signedIn(userID: String)
    /// An event sent to the signed-in user (`#server-to-user-ID`).
    case userEvent(name: String, data: JSONValue?)
    /// A watchlist entry (`online` / `offline`) with its user ids.
    case watchlist(name: String, userIDs: [String])

    /// A one-line form for failure details.
    public var summary: String {
        switch self {
        case .connected(let id): "connected \(id)"
        case .disconnected(let code): "disconnected \(code.map(String.init) ?? "-")"
        case .subscribed(let channel): "subscribed \(channel)"
        case .subscriptionError(let channel, let message): "subscription error \(channel): \(message)"
        case .errorEvent(let code, let message): "pusher:error \(code.map(String.init) ?? "null") \(message)"
        case .event(let channel, let name, let data, let user): "event \(channel) \(name) \(data?.jsonText ?? "-")\(user.map { " user \($0)" } ?? "")"
        case .memberAdded(let channel, let user): "member_added \(channel) \(user)"
        case .memberRemoved(let channel, let user): "member_removed \(channel) \(user)"
        case .members(let channel, let users): "members \(channel) \(users)"
        case .signedIn(let user): "signed in \(user)"
        case .userEvent(let name, let data): "user event \(name) \(data?.jsonText ?? "-")"
        case .watchlist(let name, let users): "watchlist \(name) \(users)"
        }
    }
}

/// A Pusher client the harness can drive: the built-in one, a driver process, or any adapter.
public protocol PusherConformanceClient: Sendable {
    var name: String { get }
    var capabilities: Set<PusherCapability> { get }
    var profile: PusherProfile { get }
    func makeSession(configuration: PusherSessionConfiguration) async throws -> any PusherClientSession
    /// The client ready for a run (a driver asked for its `hello`); called once.
    func prepared() async -> any PusherConformanceClient
    /// Whether every case starts a process of its own (as ``ConformanceClient/startsProcessPerCase``).
    var startsProcessPerCase: Bool { get }
}

extension PusherConformanceClient {
    public var profile: PusherProfile { .reference }
    public func prepared() async -> any PusherConformanceClient { self }
    public var startsProcessPerCase: Bool { false }
}

/// One configured Pusher client instance, used by one case.
public protocol PusherClientSession: Sendable {
    /// Everything the client reports, in order. Finishes after `close()`.
    var events: AsyncStream<PusherObservation> { get }
    /// Performs an operation; throws ``ClientAdapterError/unsupported(_:)`` for one the client lacks.
    func perform(_ operation: PusherOperation) async throws
    /// Stops the client. Safe to call twice.
    func close() async
}
