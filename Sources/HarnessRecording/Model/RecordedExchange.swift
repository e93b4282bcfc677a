// SPDX-License-Identifier: MIT

/// One request and its answer.
public struct RecordedExchange: Sendable, Hashable, Codable {
    /// Unique in the recording, in the order requests arrived.
    public var id: Int
    /// The endpoint (`publish`, `subscribe`, … as fault plans name them), `storage-upload` /
    /// `storage-download` for the file storage, `unknown` for paths the harness does not know.
    public var endpoint: String
    /// When the request arrived, in milliseconds since recording started.
    public var startedMs: Double
    /// How long the upstream took to answer (or until the client gave up), in milliseconds.
    public var durationMs: Double
    public var outcome: ExchangeOutcome
    /// Why the exchange has no answer (`upstream-failed`).
    public var error: String?
    public var request: RecordedRequest
    public var response: RecordedResponse?
    /// Comparison rules for this exchange only (over the endpoint's).
    public var rules: ComparisonRules?
    /// For storage exchanges: the exchange whose answer named the storage URL.
    public var storage: StorageLink?

    public init(
        id: Int, endpoint: String, startedMs: Double, durationMs: Double, outcome: ExchangeOutcome, error: String? = nil,
        request: RecordedRequest, response: RecordedResponse?, rules: ComparisonRules? = nil, storage: StorageLink? = nil
    ) {
        self.id = id
        self.endpoint = endpoint
        self.startedMs = startedMs
        self.durationMs = durationMs
        self.outcome = outcome
        self.error = error
        self.request = request
        self.response = response
        self.rules = rules
        self.storage = storage
    }

    /// When the answer ended, in milliseconds since recording started.
    public var endedMs: Double { startedMs + durationMs }

    enum CodingKeys: String, CodingKey {
        case id, endpoint, outcome, error, request, response, rules, storage
        case startedMs = "started_ms"
        case durationMs = "duration_ms"
    }
}

/// How an exchange ended.
public enum ExchangeOutcome: String, Sendable, Hashable, Codable {
    /// The upstream answered (the answer is in `response`).
    case answered
    /// The client went away before the answer (a long-poll it abandoned).
    case cancelled
    /// The upstream could not be reached or broke off (no answer; the client saw the same).
    case upstreamFailed = "upstream-failed"
    /// Still waiting when recording stopped.
    case unfinished
}

/// Which earlier answer named a storage URL.
public struct StorageLink: Sendable, Hashable, Codable {
    public enum Kind: String, Sendable, Hashable, Codable {
        /// A multipart upload to the URL of a generate-upload-url answer.
        case upload
        /// A download following a redirect's `Location`.
        case download
    }

    public var kind: Kind
    /// The exchange whose answer named the URL.
    public var of: Int

    public init(kind: Kind, of: Int) {
        self.kind = kind
        self.of = of
    }
}

/// A request as the client sent it, redacted.
public struct RecordedRequest: Sendable, Hashable, Codable {
    public var method: String
    /// The raw (percent-encoded) path, credentials replaced by placeholders.
    public var path: String
    /// The decoded query items in order.
    public var query: [NameValue]
    /// The header fields that matter (content type and coding, `If-Match`, `Accept-Encoding`,
    /// `Origin`, `User-Agent`, preflight fields), redacted where they carry credentials.
    public var headers: [NameValue]
    /// The body as UTF-8 text (without its content coding), when it is text.
    public var body: String?
    /// The body in base64, when it is not UTF-8.
    public var bodyBase64: String?
    /// A multipart body's parts (file uploads), instead of `body`.
    public var form: [FormPart]?
    /// For storage requests: the storage origin (`https://bucket.s3.amazonaws.com`).
    public var origin: String?

    public init(
        method: String, path: String, query: [NameValue] = [], headers: [NameValue] = [], body: String? = nil,
        bodyBase64: String? = nil, form: [FormPart]? = nil, origin: String? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.bodyBase64 = bodyBase64
        self.form = form
        self.origin = origin
    }

    /// The first query value named `name`.
    public func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }

    /// The first header value named `name` (case-insensitive).
    public func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }

    /// The body bytes (text or base64), empty when none.
    public var bodyBytes: [UInt8] { RecordedBody.bytes(text: body, base64: bodyBase64) }

    enum CodingKeys: String, CodingKey {
        case method, path, query, headers, body, form, origin
        case bodyBase64 = "body_base64"
    }
}

/// An answer as the upstream sent it, redacted; the body without its content coding.
public struct RecordedResponse: Sendable, Hashable, Codable {
    public var status: Int
    /// Every header field, in order (`Content-Encoding` still says how it travelled).
    public var headers: [NameValue]
    public var body: String?
    public var bodyBase64: String?

    public init(status: Int, headers: [NameValue], body: String? = nil, bodyBase64: String? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.bodyBase64 = bodyBase64
    }

    /// The first header value named `name` (case-insensitive).
    public func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }

    /// The body bytes (text or base64), empty when none.
    public var bodyBytes: [UInt8] { RecordedBody.bytes(text: body, base64: bodyBase64) }

    enum CodingKeys: String, CodingKey {
        case status, headers, body
        case bodyBase64 = "body_base64"
    }
}

/// A name and a value (a query item, a header field), written as a two-element array.
public struct NameValue: Sendable, Hashable, Codable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        name = try container.decode(String.self)
        value = try container.decode(String.self)
        guard container.isAtEnd else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "a name/value pair has two elements")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(name)
        try container.encode(value)
    }
}

/// One part of a multipart upload: a form field, or the file.
public struct FormPart: Sendable, Hashable, Codable {
    public var name: String
    /// The field's value (redacted where it carries credentials); nil for the file.
    public var value: String?
    public var filename: String?
    public var contentType: String?
    /// The file's bytes in base64 (nil when larger than the proxy keeps; then `size` only).
    public var base64: String?
    public var size: Int?

    public init(name: String, value: String? = nil, filename: String? = nil, contentType: String? = nil, base64: String? = nil, size: Int? = nil) {
        self.name = name
        self.value = value
        self.filename = filename
        self.contentType = contentType
        self.base64 = base64
        self.size = size
    }

    enum CodingKeys: String, CodingKey {
        case name, value, filename, base64, size
        case contentType = "content_type"
    }
}
