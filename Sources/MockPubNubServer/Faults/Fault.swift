// SPDX-License-Identifier: MIT

/// What the fault layer does to one request instead of (or on top of) the normal service.
///
/// Each case is one `kind` of docs/fault-plans.md; docs/faults.md shows a JSON example of each
/// and what a client observes.
public indirect enum Fault: Sendable, Hashable {
    /// Answer with `status` and a PubNub error body (the spec's body for that status unless `body` is given).
    case status(StatusFault)
    /// Forward to the service, then answer its body prefixed with `{` (invalid JSON), 200 kept.
    case malformedJSON
    /// Forward, then answer the first `bytes` bytes of its body (default half) with a correct Content-Length.
    case truncatedJSON(bytes: Int?)
    /// Answer 200 with valid JSON of the wrong shape (`body`, or a default chosen by endpoint).
    case wrongShape(body: String?)
    /// Answer 200 `text/html` (a captive portal's login page, or `body`).
    case html(body: String?)
    /// Answer `status` (default 200) with PubNub's content type and no body.
    case emptyBody(status: Int)
    /// Forward, then replace the service's `Content-Type` with `contentType`.
    case wrongContentType(contentType: String)
    /// Forward, then send the body chunked with a chunk-size line that is not hexadecimal, then FIN.
    case invalidChunked
    /// Wait `ms`, then do `then` (or the normal service answer when `nil`).
    case delay(ms: Int, then: Fault?)
    /// Send nothing; keep the connection open until the client gives up.
    case hang
    /// Send nothing; close with FIN.
    case close
    /// Send nothing; abort with RST.
    case reset
    /// Forward, then send the response head (declaring the full length) and abort with RST.
    case resetAfterHeaders
    /// Forward, then send the head and the first `bytes` body bytes, then abort with RST.
    case resetAfterBodyBytes(bytes: Int)
    /// Forward, then send the first `bytes` body bytes (default half) and close with FIN.
    case truncatedBody(bytes: Int?, contentLength: TruncatedContentLength)
    /// Forward, then write the whole response `chunkSize` bytes every `intervalMs`.
    case drip(chunkSize: Int, intervalMs: Int)
    /// Forward (a long-poll parks), then close the connection after `afterMs` as `mode` says.
    case closeLongPoll(afterMs: Int, mode: CloseMode)
    /// Answer a subscribe response carrying `count` generated messages.
    case messages(count: Int, channel: String?)
    /// Answer a subscribe response with one message encrypted with `cipherKey`.
    case foreignEncrypted(cipherKey: String, scheme: String?, message: String?)
    /// Answer a subscribe response whose cursor is `by` timetoken units older than the request's `tt`.
    case cursorBackwards(by: UInt64)
    /// Answer a subscribe response (request's `tt`, no messages) naming another region.
    case regionChange(region: Int)
    /// Forward, then answer without the cross-origin fields (`Access-Control-*`): a browser
    /// refuses the answer; other clients see no difference.
    case noCORS
    /// Fail a browser's preflight (`OPTIONS`; matches only preflights): answer `status`, or a 2xx
    /// that leaves out what `omit` names.
    case preflightFailure(PreflightFault)
    /// Forward, then send the body gzip-compressed (`Content-Encoding: gzip`) but cut after
    /// `bytes` compressed bytes (default half), with a `Content-Length` that matches the cut.
    case truncatedGzip(bytes: Int?)
    /// Forward, then send the body gzip-compressed whose first deflate block is invalid.
    case corruptGzip

    /// The `kind` string of the schema.
    public var kind: FaultKind {
        switch self {
        case .status: .status
        case .malformedJSON: .malformedJSON
        case .truncatedJSON: .truncatedJSON
        case .wrongShape: .wrongShape
        case .html: .html
        case .emptyBody: .emptyBody
        case .wrongContentType: .wrongContentType
        case .invalidChunked: .invalidChunked
        case .delay: .delay
        case .hang: .hang
        case .close: .close
        case .reset: .reset
        case .resetAfterHeaders: .resetAfterHeaders
        case .resetAfterBodyBytes: .resetAfterBodyBytes
        case .truncatedBody: .truncatedBody
        case .drip: .drip
        case .closeLongPoll: .closeLongPoll
        case .messages: .messages
        case .foreignEncrypted: .foreignEncrypted
        case .cursorBackwards: .cursorBackwards
        case .regionChange: .regionChange
        case .noCORS: .noCORS
        case .preflightFailure: .preflightFailure
        case .truncatedGzip: .truncatedGzip
        case .corruptGzip: .corruptGzip
        }
    }
}

/// The `kind` vocabulary of request-level faults.
public enum FaultKind: String, Sendable, Hashable, Codable, CaseIterable {
    case status
    case malformedJSON = "malformed-json"
    case truncatedJSON = "truncated-json"
    case wrongShape = "wrong-shape"
    case html
    case emptyBody = "empty-body"
    case wrongContentType = "wrong-content-type"
    case invalidChunked = "invalid-chunked"
    case delay
    case hang
    case close
    case reset
    case resetAfterHeaders = "reset-after-headers"
    case resetAfterBodyBytes = "reset-after-body-bytes"
    case truncatedBody = "truncated-body"
    case drip
    case closeLongPoll = "close-long-poll"
    case messages
    case foreignEncrypted = "foreign-encrypted"
    case cursorBackwards = "cursor-backwards"
    case regionChange = "region-change"
    case noCORS = "no-cors"
    case preflightFailure = "preflight-failure"
    case truncatedGzip = "truncated-gzip"
    case corruptGzip = "corrupt-gzip"
}

/// How a `truncated-body` fault frames the cut body.
public enum TruncatedContentLength: String, Sendable, Hashable, Codable, CaseIterable {
    /// `Content-Length` equals the bytes sent, then FIN.
    case correct
    /// `Content-Length` declares the full body, fewer bytes follow, then FIN.
    case full
}

/// An error status answer: the code, and optional overrides of the default body and headers.
public struct StatusFault: Sendable, Hashable {
    /// The HTTP status, 100...599.
    public var status: Int
    /// The body text; `nil` = the spec's body for this status (docs/faults.md).
    public var body: String?
    /// The content type; `nil` = PubNub's (`text/html` for the default 502 body).
    public var contentType: String?
    /// Extra header fields, in order.
    public var headers: [HeaderField]
    /// The `Retry-After` seconds of a 429 (default 1); ignored for other statuses unless set.
    public var retryAfter: Int?

    public init(
        status: Int, body: String? = nil, contentType: String? = nil,
        headers: [HeaderField] = [], retryAfter: Int? = nil
    ) {
        self.status = status
        self.body = body
        self.contentType = contentType
        self.headers = headers
        self.retryAfter = retryAfter
    }
}

/// One header field of a fault's response.
public struct HeaderField: Sendable, Hashable, Codable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

/// A failing preflight: a status that is not 2xx, or a 2xx without a part a browser needs.
public struct PreflightFault: Sendable, Hashable {
    /// The status of the answer (default 403 without `omit`, 204 with it).
    public var status: Int
    /// What a 2xx answer leaves out; `nil` = nothing (then `status` is the failure).
    public var omit: PreflightOmission?

    public init(status: Int? = nil, omit: PreflightOmission? = nil) {
        self.status = status ?? (omit == nil ? 403 : 204)
        self.omit = omit
    }
}

/// The part of a preflight answer a `preflight-failure` fault leaves out.
public enum PreflightOmission: String, Sendable, Hashable, Codable, CaseIterable {
    /// The requested method is not in `Access-Control-Allow-Methods`.
    case method
    /// The requested headers are not in `Access-Control-Allow-Headers`.
    case headers
    /// No cross-origin field at all (no `Access-Control-Allow-Origin`).
    case origin
}
