// SPDX-License-Identifier: MIT

/// What `verify` treats as the service's own choice in an answer, as JSON path patterns
/// (``JSONPathPattern``): data, so that a user marks a field in the recording without changing code.
public struct ComparisonRules: Sendable, Hashable, Codable {
    /// Values compared by format only (a 17-digit timetoken, an ISO time, a token, …), not by value.
    public var formatOnly: [String]
    /// Arrays compared as multisets (order ignored).
    public var unordered: [String]
    /// Values the service chose that later requests send back: the recorded value is mapped to the
    /// replayed one (and substituted in later requests); a value seen again must map the same way.
    public var learn: [String]
    /// Paths not compared at all.
    public var ignore: [String]

    public init(formatOnly: [String] = [], unordered: [String] = [], learn: [String] = [], ignore: [String] = []) {
        self.formatOnly = formatOnly
        self.unordered = unordered
        self.learn = learn
        self.ignore = ignore
    }

    /// These rules and `other`'s together.
    public func merged(with other: ComparisonRules?) -> ComparisonRules {
        guard let other else { return self }
        return ComparisonRules(
            formatOnly: formatOnly + other.formatOnly, unordered: unordered + other.unordered,
            learn: learn + other.learn, ignore: ignore + other.ignore)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        formatOnly = try container.decodeIfPresent([String].self, forKey: .formatOnly) ?? []
        unordered = try container.decodeIfPresent([String].self, forKey: .unordered) ?? []
        learn = try container.decodeIfPresent([String].self, forKey: .learn) ?? []
        ignore = try container.decodeIfPresent([String].self, forKey: .ignore) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if !formatOnly.isEmpty { try container.encode(formatOnly, forKey: .formatOnly) }
        if !unordered.isEmpty { try container.encode(unordered, forKey: .unordered) }
        if !learn.isEmpty { try container.encode(learn, forKey: .learn) }
        if !ignore.isEmpty { try container.encode(ignore, forKey: .ignore) }
    }

    enum CodingKeys: String, CodingKey {
        case unordered, learn, ignore
        case formatOnly = "format_only"
    }
}

/// A recording's rules: per endpoint, over (or instead of) the built-in defaults.
public struct RecordingRules: Sendable, Hashable, Codable {
    /// Rules by endpoint name (`*` applies to every endpoint).
    public var endpoints: [String: ComparisonRules]
    /// Drop the built-in defaults (``DefaultRules``) and use only these.
    public var replaceDefaults: Bool?

    public init(endpoints: [String: ComparisonRules] = [:], replaceDefaults: Bool? = nil) {
        self.endpoints = endpoints
        self.replaceDefaults = replaceDefaults
    }

    enum CodingKeys: String, CodingKey {
        case endpoints
        case replaceDefaults = "replace_defaults"
    }
}

extension Recording {
    /// The rules that apply to `exchange`: the defaults of its endpoint (unless the recording
    /// replaces them), the recording's `*` and endpoint rules, and the exchange's own.
    public func rules(for exchange: RecordedExchange) -> ComparisonRules {
        var rules = rules?.replaceDefaults == true ? ComparisonRules() : DefaultRules.rules(for: exchange.endpoint)
        rules = rules.merged(with: self.rules?.endpoints["*"]).merged(with: self.rules?.endpoints[exchange.endpoint])
        return rules.merged(with: exchange.rules)
    }
}

extension RecordingRules {
    /// The rules as a recording's `rules` member holds them (pretty JSON, sorted keys).
    public var prettyJSON: [UInt8] { Array(RecordingWriter.encode(self).utf8) }
}

extension Recording {
    /// Checks every rule path the recording gives (its endpoint rules and each exchange's).
    public func validateRules() throws(RecordingError) {
        for rules in rules?.endpoints.values.map({ $0 }) ?? [] { _ = try CompiledRules(rules) }
        for exchange in exchanges { _ = try CompiledRules(exchange.rules ?? ComparisonRules()) }
    }
}
