// SPDX-License-Identifier: MIT

/// A recording: what a client sent and what the service answered, exchange by exchange, with
/// credentials replaced by placeholders (docs/recordings.md; schema docs/recording-schema.json).
public struct Recording: Sendable, Hashable, Codable {
    /// The `format` every recording carries.
    public static let formatName = "pubnub-harness-recording"
    /// The version this harness writes; it reads this one only.
    public static let currentVersion = 1

    public var format: String
    public var version: Int
    /// Where and when it was recorded.
    public var recorded: RecordingOrigin
    /// Comparison rules for every exchange of an endpoint, over the built-in defaults.
    public var rules: RecordingRules?
    /// The exchanges, in the order they ended (each carries its start).
    public var exchanges: [RecordedExchange]
    /// Every placeholder in the file and what kind of value it stands for (never the value).
    public var keys: [RecordedKey]
    /// The channel, group and uuid names the client used (rewritten on replay).
    public var names: [RecordedName]

    public init(
        recorded: RecordingOrigin, rules: RecordingRules? = nil, exchanges: [RecordedExchange] = [],
        keys: [RecordedKey] = [], names: [RecordedName] = []
    ) {
        format = Self.formatName
        version = Self.currentVersion
        self.recorded = recorded
        self.rules = rules
        self.exchanges = exchanges
        self.keys = keys
        self.names = names
    }

    /// The exchanges in the order they started.
    public var exchangesByStart: [RecordedExchange] {
        exchanges.sorted { ($0.startedMs, $0.id) < ($1.startedMs, $1.id) }
    }

    /// The table entry of `placeholder`.
    public func key(_ placeholder: String) -> RecordedKey? { keys.first { $0.placeholder == placeholder } }
}

/// Where a recording came from.
public struct RecordingOrigin: Sendable, Hashable, Codable {
    /// The upstream origin the proxy forwarded to (`https://ps.pndsn.com`).
    public var upstream: String
    /// When recording started (ISO 8601, UTC).
    public var started: String
    /// The harness that recorded it (`pubnub-harness 1.2.0`).
    public var tool: String
    /// A free note (what was run).
    public var note: String?

    public init(upstream: String, started: String, tool: String, note: String? = nil) {
        self.upstream = upstream
        self.started = started
        self.tool = tool
        self.note = note
    }
}

/// What a placeholder stands for.
public enum KeyKind: String, Sendable, Hashable, Codable, CaseIterable {
    case subscribeKey = "sub-key"
    case publishKey = "pub-key"
    case secretKey = "secret-key"
    case auth
    case token
    case signature
    case policy
    case credential
    case redacted

    /// `{sub-key-3}` for `index` 3.
    public func placeholder(_ index: Int) -> String { "{\(rawValue)-\(index)}" }
}

/// One placeholder of a recording.
public struct RecordedKey: Sendable, Hashable, Codable {
    public var placeholder: String
    public var kind: KeyKind
    /// For subscribe keys: whether Access Manager was on (a signed request, or an Access Manager
    /// refusal was seen); verify then registers a keyset with a secret key for it.
    public var accessManager: Bool?
    /// For subscribe keys: the publish key placeholder seen with it.
    public var publishKey: String?
    /// For tokens: the key paths of the token's CBOR map (`v`, `t`, `res.chan`, ...), no values.
    public var tokenShape: [String]?

    public init(placeholder: String, kind: KeyKind, accessManager: Bool? = nil, publishKey: String? = nil, tokenShape: [String]? = nil) {
        self.placeholder = placeholder
        self.kind = kind
        self.accessManager = accessManager
        self.publishKey = publishKey
        self.tokenShape = tokenShape
    }

    enum CodingKeys: String, CodingKey {
        case placeholder, kind
        case accessManager = "access_manager"
        case publishKey = "publish_key"
        case tokenShape = "token_shape"
    }
}

/// A name the client chose.
public struct RecordedName: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        case channel, group, uuid
    }

    public var kind: Kind
    public var name: String

    public init(kind: Kind, name: String) {
        self.kind = kind
        self.name = name
    }
}
