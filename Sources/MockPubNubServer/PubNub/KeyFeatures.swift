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
    public init(wildcardSubscribe: Bool = true, invalidFilter: InvalidFilterAnswer = .reject) {
        self.wildcardSubscribe = wildcardSubscribe
        self.invalidFilter = invalidFilter
    }
}

extension PubNubServiceConfiguration {
    /// The features of `subscribeKey`: its override, else the default.
    public func features(for subscribeKey: String) -> KeyFeatures {
        featuresByKey[subscribeKey] ?? features
    }
}
