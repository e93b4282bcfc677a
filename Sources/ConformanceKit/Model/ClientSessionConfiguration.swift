// SPDX-License-Identifier: MIT
import HarnessJSON

/// Per-case client settings that differ from the harness defaults. Times are in milliseconds and
/// always short: no case relies on an SDK default timeout.
public struct ClientOverrides: Sendable, Hashable {
    public var tls: Bool?
    public var cipherKey: String?
    /// `legacy`, `legacy-random-iv` or `aescbc` (docs of the crypto module).
    public var cipherScheme: String?
    public var nonSubscribeTimeoutMs: Int?
    public var subscribeTimeoutMs: Int?
    public var reconnectPingIntervalMs: Int?
    public var restoreSubscription: Bool?
    public var catchUpOnSubscriptionRestore: Bool?
    public var keepTimeTokenOnListChange: Bool?
    public var requestMessageCountThreshold: Int?
    /// Presence heartbeat value sent with subscribe (`heartbeat=`), in seconds.
    public var presenceHeartbeatValue: Int?
    public var presenceHeartbeatIntervalMs: Int?
    public var authKey: String?
    /// Configure the client with the keyset's secret key (a server-side client: it signs its
    /// requests and may grant, spec §9.2).
    public var secretKey: Bool?
    /// Use a fixed uuid instead of the case's own (for where-now/state cases naming another user).
    public var uuid: String?
    /// The subscribe filter expression (`filter-expr`).
    public var filterExpression: String?
    /// Run the client's event engine with these settings (nil: the client's default mode).
    public var eventEngine: EventEngineSettings?

    public init(
        tls: Bool? = nil, cipherKey: String? = nil, cipherScheme: String? = nil,
        nonSubscribeTimeoutMs: Int? = nil, subscribeTimeoutMs: Int? = nil, reconnectPingIntervalMs: Int? = nil,
        restoreSubscription: Bool? = nil, catchUpOnSubscriptionRestore: Bool? = nil,
        keepTimeTokenOnListChange: Bool? = nil, requestMessageCountThreshold: Int? = nil,
        presenceHeartbeatValue: Int? = nil, presenceHeartbeatIntervalMs: Int? = nil,
        authKey: String? = nil, secretKey: Bool? = nil, uuid: String? = nil
    ) {
        self.tls = tls
        self.cipherKey = cipherKey
        self.cipherScheme = cipherScheme
        self.nonSubscribeTimeoutMs = nonSubscribeTimeoutMs
        self.subscribeTimeoutMs = subscribeTimeoutMs
        self.reconnectPingIntervalMs = reconnectPingIntervalMs
        self.restoreSubscription = restoreSubscription
        self.catchUpOnSubscriptionRestore = catchUpOnSubscriptionRestore
        self.keepTimeTokenOnListChange = keepTimeTokenOnListChange
        self.requestMessageCountThreshold = requestMessageCountThreshold
        self.presenceHeartbeatValue = presenceHeartbeatValue
        self.presenceHeartbeatIntervalMs = presenceHeartbeatIntervalMs
        self.authKey = authKey
        self.secretKey = secretKey
        self.uuid = uuid
    }

    /// These overrides with a subscribe filter expression.
    public func filtering(_ expression: String) -> ClientOverrides {
        var copy = self
        copy.filterExpression = expression
        return copy
    }
}

/// Everything a client needs to start a session for one case: where the server is, the case's
/// own keys, and the resolved settings.
public struct ClientSessionConfiguration: Sendable, Hashable {
    /// `host:port` the client connects to (the shared server, or the case's own listener).
    public var origin: String
    public var tls: Bool
    /// PEM of the CA the client trusts when `tls` is on.
    public var caPEM: String?
    public var subscribeKey: String
    public var publishKey: String
    public var uuid: String
    public var authKey: String?
    /// The keyset's secret key, when the case asks for a server-side client.
    public var secretKey: String?
    public var cipherKey: String?
    public var cipherScheme: String?
    public var nonSubscribeTimeoutMs: Int
    public var subscribeTimeoutMs: Int
    public var reconnectPingIntervalMs: Int
    public var restoreSubscription: Bool
    public var catchUpOnSubscriptionRestore: Bool
    public var keepTimeTokenOnListChange: Bool
    public var requestMessageCountThreshold: Int
    public var presenceHeartbeatValue: Int
    public var presenceHeartbeatIntervalMs: Int
    /// The subscribe filter expression, when the case sets one.
    public var filterExpression: String?
    /// The event-engine settings, when the case sets them.
    public var eventEngine: EventEngineSettings?

    /// The request timeout of a case that sets none (short: a case's budget is a few seconds).
    public static let defaultNonSubscribeTimeoutMs = 400

    /// The harness defaults (4.x defaults for flags; short timeouts) with `overrides` applied.
    public init(
        origin: String, caPEM: String?, subscribeKey: String, publishKey: String, uuid: String, secretKey: String? = nil,
        overrides: ClientOverrides = ClientOverrides()
    ) {
        self.origin = origin
        self.tls = overrides.tls ?? false
        self.caPEM = caPEM
        self.subscribeKey = subscribeKey
        self.publishKey = publishKey
        self.uuid = overrides.uuid ?? uuid
        self.authKey = overrides.authKey
        self.secretKey = overrides.secretKey == true ? secretKey : nil
        self.cipherKey = overrides.cipherKey
        self.cipherScheme = overrides.cipherScheme ?? (overrides.cipherKey == nil ? nil : "legacy")
        self.nonSubscribeTimeoutMs = overrides.nonSubscribeTimeoutMs ?? Self.defaultNonSubscribeTimeoutMs
        // Above every case budget: an idle long-poll must never time out unless a case asks for it.
        self.subscribeTimeoutMs = overrides.subscribeTimeoutMs ?? 30_000
        self.reconnectPingIntervalMs = overrides.reconnectPingIntervalMs ?? 100
        self.restoreSubscription = overrides.restoreSubscription ?? true
        self.catchUpOnSubscriptionRestore = overrides.catchUpOnSubscriptionRestore ?? true
        self.keepTimeTokenOnListChange = overrides.keepTimeTokenOnListChange ?? true
        self.requestMessageCountThreshold = overrides.requestMessageCountThreshold ?? 0
        self.presenceHeartbeatValue = overrides.presenceHeartbeatValue ?? 20
        self.presenceHeartbeatIntervalMs = overrides.presenceHeartbeatIntervalMs ?? 0
        self.filterExpression = overrides.filterExpression
        self.eventEngine = overrides.eventEngine
    }

    /// The configuration as the driver protocol's `configure` object.
    public var driverFields: [String: JSONValue] {
        var fields: [String: JSONValue] = [
            "type": "configure", "origin": .string(origin), "tls": .bool(tls),
            "subscribeKey": .string(subscribeKey), "publishKey": .string(publishKey), "uuid": .string(uuid),
            "nonSubscribeTimeoutMs": .int(nonSubscribeTimeoutMs),
            "subscribeTimeoutMs": .int(subscribeTimeoutMs),
            "reconnectPingIntervalMs": .int(reconnectPingIntervalMs),
            "restoreSubscription": .bool(restoreSubscription),
            "catchUpOnSubscriptionRestore": .bool(catchUpOnSubscriptionRestore),
            "keepTimeTokenOnListChange": .bool(keepTimeTokenOnListChange),
            "requestMessageCountThreshold": .int(requestMessageCountThreshold),
            "presenceHeartbeatValue": .int(presenceHeartbeatValue),
            "presenceHeartbeatIntervalMs": .int(presenceHeartbeatIntervalMs),
        ]
        if let caPEM { fields["caPEM"] = .string(caPEM) }
        if let authKey { fields["authKey"] = .string(authKey) }
        if let secretKey { fields["secretKey"] = .string(secretKey) }
        if let cipherKey { fields["cipherKey"] = .string(cipherKey) }
        if let cipherScheme { fields["cipherScheme"] = .string(cipherScheme) }
        if let filterExpression { fields["filterExpression"] = .string(filterExpression) }
        if let eventEngine {
            fields["eventEngine"] = .bool(true)
            fields["retryPolicy"] = eventEngine.retryPolicyJSON
            fields["suppressLeaveEvents"] = .bool(eventEngine.suppressLeaveEvents)
        }
        return fields
    }
}
