// SPDX-License-Identifier: MIT

/// The Content-Type values the live service answers with, per endpoint family (as recorded;
/// docs/endpoints.md lists which endpoint uses which).
enum PubNubContentType {
    /// `text/javascript; charset="UTF-8"`: subscribe, presence, history, time, channel-group reads,
    /// publish refusals (400).
    case quoted
    /// `text/javascript; charset=UTF-8`: publish/signal success (2025), Access Manager answers and
    /// denials, balancer errors.
    case unquoted
    /// `application/json`: channel-group mutations (add, remove, delete; 2024-2025).
    case json

    var value: String {
        switch self {
        case .quoted: HTTPResponse.pubNubContentType
        case .unquoted: "text/javascript; charset=UTF-8"
        case .json: "application/json"
        }
    }
}

extension HTTPResponse {
    /// Header sets built once and shared by every response of their kind.
    private static let quotedHeaders: HTTPHeaders = ["Content-Type": PubNubContentType.quoted.value]
    private static let unquotedHeaders: HTTPHeaders = ["Content-Type": PubNubContentType.unquoted.value]
    private static let jsonHeaders: HTTPHeaders = ["Content-Type": PubNubContentType.json.value]

    /// A PubNub answer with the Content-Type of `type`.
    static func pubNub(_ status: Int, _ body: String, _ type: PubNubContentType) -> HTTPResponse {
        switch type {
        case .quoted: .pubNub(status, body)
        case .unquoted: HTTPResponse(status: status, headers: unquotedHeaders, body: Array(body.utf8))
        case .json: HTTPResponse(status: status, headers: jsonHeaders, body: Array(body.utf8))
        }
    }

    /// A PubNub answer with the Content-Type of `type` and `body` as it is.
    static func pubNub(_ status: Int, bytes body: [UInt8], _ type: PubNubContentType) -> HTTPResponse {
        switch type {
        case .quoted: HTTPResponse(status: status, headers: quotedHeaders, body: body)
        case .unquoted: HTTPResponse(status: status, headers: unquotedHeaders, body: body)
        case .json: HTTPResponse(status: status, headers: jsonHeaders, body: body)
        }
    }
}
