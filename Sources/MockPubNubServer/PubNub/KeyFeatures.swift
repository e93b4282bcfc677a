// SPDX-License-Identifier: MIT

/// Per-keyset switches of the service's add-ons and admin settings (the Stream Controller's
/// wildcard subscribe and the answer to an unparsable filter). Open keys use
/// `PubNubServiceConfiguration.features`; `featuresByKey` overrides them per subscribe key.
public struct KeyFeatures: Sendable, Hashable, Codable {
    /// Whether `a.*` subscriptions are served (Stream Controller); when off they are refused
    /// like any name with `*` (400 `Reserved character`).
    public var wildcardSubscribe: Bool
    /// How an unparsable `filter-expr` is answered.
    public var invalidFilter: InvalidFilterAnswer
    /// Interval presence mode: above this occupancy a channel's joins, leaves and timeouts are
    /// gathered into periodic `interval` events. `nil` (the default): every change is announced.
    public var presenceAnnounceMax: Int?
    /// Seconds between `interval` events (UNVERIFIED default: 10, the commonly cited value).
    public var presenceInterval: Int
    /// More changes than this in one interval send `here_now_refresh: true` instead of the arrays
    /// (UNVERIFIED: the service's limit is not documented).
    public var presenceDeltaLimit: Int
    /// Whether a subscribe carrying the event-engine flag `ee` announces and keeps the client's
    /// presence like any subscribe (the default). UNVERIFIED: the SDKs send `ee` (Swift bare,
    /// Python asyncio `ee=1`) with subscribe and heartbeat requests when their event engine runs,
    /// and no source says what the service does with it; the plausible other reading (presence
    /// only from the engine's own heartbeat requests) is this switch off
    /// (`serve --ee-subscribe-presence off`).
    public var eventEngineSubscribePresence: Bool

    public init(
        wildcardSubscribe: Bool = true, invalidFilter: InvalidFilterAnswer = .reject, presenceAnnounceMax: Int? = nil,
        presenceInterval: Int = 10, presenceDeltaLimit: Int = 20, eventEngineSubscribePresence: Bool = true
    ) {
        self.eventEngineSubscribePresence = eventEngineSubscribePresence
        self.wildcardSubscribe = wildcardSubscribe
        self.invalidFilter = invalidFilter
        self.presenceAnnounceMax = presenceAnnounceMax
        self.presenceInterval = presenceInterval
        self.presenceDeltaLimit = presenceDeltaLimit
    }
}

extension PubNubServiceConfiguration {
    /// The features of `subscribeKey`: its override, else the default.
    public func features(for subscribeKey: String) -> KeyFeatures {
        featuresByKey[subscribeKey] ?? features
    }

    /// Whether any key uses interval presence mode (the announce path checks nothing else otherwise).
    var presenceIntervalMode: Bool {
        features.presenceAnnounceMax != nil || featuresByKey.values.contains { $0.presenceAnnounceMax != nil }
    }
}
