// SPDX-License-Identifier: MIT

/// Where correct clients legitimately differ (docs/driver-protocol.md, "Profiles"): each aspect
/// names one behaviour the protocol leaves to the SDK family, with the reference (4.x) value.
public enum BehaviourAspect: String, Sendable, Hashable, CaseIterable {
    /// How the loop comes back after an unexpected disconnect: `time-ping` (reference: `/time/0`
    /// at the configured interval), `time-ping-jittered` (pings after a policy delay with random
    /// jitter), `retry-policy` (the subscribe itself is retried), `none`.
    case reconnection
    /// The status after unsubscribing from everything: `PNDisconnectedCategory` (reference),
    /// another category name, or `none`.
    case unsubscribeAllStatus
    /// Whether a channel-list change makes a new handshake announced as connected:
    /// `PNConnectedCategory` (reference) or `none` (the loop restarts in place).
    case listChangeStatus
    /// What a subscribe request that times out produces: `unexpected-disconnect` (reference) or
    /// `silent-restart` (the long-poll is reissued, nothing is announced).
    case subscribeTimeout
    /// The status the loop announces for an HTTP or body fault on a long-poll:
    /// `PNUnexpectedDisconnectCategory` (reference) or the failed request's own category name.
    case subscribeFaultStatus
    /// The handshake's cursor: `tt=0` (reference) or `absent`.
    case handshake
    /// Where the presence heartbeat travels: `subscribe-query` (reference) or `separate-request`.
    case heartbeat

    /// The 4.x reference value.
    public var reference: String {
        switch self {
        case .reconnection: "time-ping"
        case .unsubscribeAllStatus: "PNDisconnectedCategory"
        case .listChangeStatus: "PNConnectedCategory"
        case .subscribeTimeout: "unexpected-disconnect"
        case .subscribeFaultStatus: "PNUnexpectedDisconnectCategory"
        case .handshake: "tt=0"
        case .heartbeat: "subscribe-query"
        }
    }
}

/// A configuration setting of the driver protocol's `configure` that a client may not have.
public enum ClientSetting: String, Sendable, Hashable, CaseIterable {
    case reconnectPingIntervalMs, restoreSubscription, catchUpOnSubscriptionRestore, keepTimeTokenOnListChange
    case requestMessageCountThreshold, presenceHeartbeatIntervalMs
}

/// How a client behaves where the protocol allows variants, and which settings it ignores.
/// The empty profile is the reference client.
public struct ClientProfile: Sendable, Hashable {
    /// Declared values; an aspect not listed has its reference value.
    public var variants: [BehaviourAspect: String]
    /// `configure` settings the client has no equivalent for.
    public var ignoredSettings: Set<ClientSetting>
    /// Granularity of the client's timeouts (e.g. 1000 when they are whole seconds); 0 = exact.
    public var timeoutResolutionMs: Int

    public init(variants: [BehaviourAspect: String] = [:], ignoredSettings: Set<ClientSetting> = [], timeoutResolutionMs: Int = 0) {
        self.variants = variants
        self.ignoredSettings = ignoredSettings
        self.timeoutResolutionMs = timeoutResolutionMs
    }

    /// The reference client.
    public static let reference = ClientProfile()

    /// The value for `aspect` (declared or reference).
    public func value(_ aspect: BehaviourAspect) -> String { variants[aspect] ?? aspect.reference }

    /// Whether the client declares a non-reference value for `aspect`.
    public func differs(_ aspect: BehaviourAspect) -> Bool { value(aspect) != aspect.reference }

    /// Reads the `profile` object of a driver's `hello` (unknown aspects and settings are kept out).
    public init(json: JSONValue?) {
        var variants: [BehaviourAspect: String] = [:]
        for aspect in BehaviourAspect.allCases {
            if let value = json?[aspect.rawValue]?.stringValue { variants[aspect] = value }
        }
        let ignored = (json?["settingsIgnored"]?.arrayValue ?? []).compactMap { $0.stringValue.flatMap(ClientSetting.init(rawValue:)) }
        self.init(variants: variants, ignoredSettings: Set(ignored), timeoutResolutionMs: json?["timeoutResolutionMs"]?.intValue ?? 0)
    }
}
