// SPDX-License-Identifier: MIT

/// One way a replayed answer differs from the recorded one.
public struct Difference: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// Another status code.
        case status
        /// A compared header field differs, is missing or is extra.
        case header
        /// A member the recorded answer has is missing.
        case missing
        /// A member the recorded answer does not have.
        case extra
        /// Another JSON type.
        case type
        /// Another literal value.
        case value
        /// An array of another length.
        case length
        /// A server-chosen value in another format.
        case format
        /// A server-chosen value seen before maps to another value than it did then.
        case mapping
        /// Server-chosen timetokens not in the order they were recorded in.
        case order
        /// A body that is not comparable as JSON, or differs as text or bytes.
        case body
    }

    public var kind: Kind
    /// A JSON path (`$.data[0].name`), `status`, or `header Content-Type`.
    public var path: String
    /// The recorded value (JSON text for JSON values).
    public var recorded: String?
    /// The replayed value.
    public var actual: String?
    public var note: String?

    public init(_ kind: Kind, _ path: String, recorded: String?, actual: String?, note: String? = nil) {
        self.kind = kind
        self.path = path
        self.recorded = recorded
        self.actual = actual
        self.note = note
    }

    /// `$.a.b: value: recorded "x", replayed "y" (note)`.
    public var description: String {
        var text = "\(path): \(kind.rawValue)"
        text += ": recorded " + (recorded ?? "(none)") + ", replayed " + (actual ?? "(none)")
        if let note { text += " (\(note))" }
        return text
    }
}

/// What `verify` concluded about one exchange.
public struct ExchangeVerdict: Sendable, Hashable, Codable {
    public enum Outcome: String, Sendable, Hashable, Codable, CaseIterable {
        /// The replayed answer matches the recorded one.
        case pass
        /// It differs (see `differences`).
        case fail
        /// Not compared: the recording has no answer (cancelled, upstream failure) or the exchange
        /// cannot be replayed (see `note`).
        case skipped
        /// The replay itself failed (no answer, a transport error).
        case error
    }

    public var id: Int
    public var endpoint: String
    /// `METHOD path` as recorded (redacted).
    public var request: String
    public var outcome: Outcome
    public var differences: [Difference]
    public var note: String?
    /// How long the recorded and the replayed answers took, in milliseconds.
    public var recordedMs: Double
    public var replayedMs: Double?
    /// Both answers of a failing exchange, for people: status line, compared headers, body.
    public var recordedAnswer: String?
    public var replayedAnswer: String?

    public init(id: Int, endpoint: String, request: String, outcome: Outcome, differences: [Difference] = [], note: String? = nil,
                recordedMs: Double, replayedMs: Double? = nil, recordedAnswer: String? = nil, replayedAnswer: String? = nil) {
        self.id = id
        self.endpoint = endpoint
        self.request = request
        self.outcome = outcome
        self.differences = differences
        self.note = note
        self.recordedMs = recordedMs
        self.replayedMs = replayedMs
        self.recordedAnswer = recordedAnswer
        self.replayedAnswer = replayedAnswer
    }

    enum CodingKeys: String, CodingKey {
        case id, endpoint, request, outcome, differences, note
        case recordedMs = "recorded_ms"
        case replayedMs = "replayed_ms"
        case recordedAnswer = "recorded_answer"
        case replayedAnswer = "replayed_answer"
    }
}
