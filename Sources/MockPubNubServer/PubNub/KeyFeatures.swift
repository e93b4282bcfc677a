// SPDX-License-Identifier: MIT

/// Per-keyset switches of the service's add-ons and admin settings (the Stream Controller's
/// wildcard subscribe, the filter answer, presence announce mode). Open keys use
/// `PubNubServiceConfiguration.features`; `featuresByKey` overrides them per subscribe key.
public struct KeyFeatures: Sendable, Hashable, Codable {
    /// Whether `a.*` subscriptions are served (Stream Controller); when off they are refused
    /// like any name with `*` (400 `Reserved character`).
    public var wildcardSubscribe: Bool
    /// How an unparsable `filter-expr` is answered.
    public var invalidFilter: InvalidFilterAnswer
    /// When set, a channel whose occupancy exceeds this switches from `join`/`leave`/`timeout`
    /// events to periodic `interval` events (the "announce max" setting). `nil`: always announce.
    public var presenceAnnounceMax: Int?
    /// Seconds between `interval` events in interval mode.
    public var presenceInterval: Int
    /// In interval mode, more changes than this in one interval send `here_now_refresh: true`
    /// instead of the `join`/`leave`/`timeout` arrays (UNVERIFIED: the service's limit is not documented).
    public var presenceDeltaLimit: Int

    public init(
        wildcardSubscribe: Bool = true, invalidFilter: InvalidFilterAnswer = .reject,
        presenceAnnounceMax: Int? = nil, presenceInterval: Int = 10, presenceDeltaLimit: Int = 100
    ) {
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
}
