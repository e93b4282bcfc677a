// SPDX-License-Identifier: MIT
import HarnessHTTPClient

/// Turns a transport outcome into a JSON body or a status (ObjC 4.x rules):
/// HTTP 400 → BadRequest, 403 → AccessDenied (affected channels from `payload`), 404 → ResourceNotFound,
/// 414 → RequestURITooLong, 481 → MalformedFilterExpression, other ≥ 300 → Unknown;
/// 2xx with a Content-Type other than `application/json`, `text/json`, `text/javascript`,
/// or a body that is not JSON → MalformedResponse.
enum ResponseClassifier {
    static let acceptedContentTypes = ["application/json", "text/json", "text/javascript"]

    static func body(of outcome: Result<HTTPClientResponse, TransportError>, request: PubNubRequest, summary: String)
        -> Result<JSONValue, PNStatus>
    {
        let response: HTTPClientResponse
        switch outcome {
        case .failure(let error):
            return .failure(PNStatus(category: error.category, operation: request.operation,
                                     errorData: PNErrorData(information: error.description, transportError: error),
                                     request: summary))
        case .success(let r): response = r
        }
        let parsed = try? JSONValue.parse(response.body)
        if !(200..<300).contains(response.statusCode) {
            return .failure(errorStatus(response: response, body: parsed, request: request, summary: summary))
        }
        let contentType = response.header("content-type")?.lowercased() ?? ""
        guard acceptedContentTypes.contains(where: { contentType.contains($0) }) else {
            return .failure(malformed(request, summary, response.statusCode, "unexpected Content-Type \"\(contentType)\"", parsed))
        }
        guard let parsed else {
            return .failure(malformed(request, summary, response.statusCode, "body is not JSON", nil))
        }
        return .success(parsed)
    }

    static func malformed(_ request: PubNubRequest, _ summary: String, _ code: Int, _ text: String, _ body: JSONValue?) -> PNStatus {
        PNStatus(category: .malformedResponse, operation: request.operation, statusCode: code,
                 errorData: PNErrorData(information: text, body: body), request: summary)
    }

    static func errorStatus(response: HTTPClientResponse, body: JSONValue?, request: PubNubRequest, summary: String) -> PNStatus {
        let code = response.statusCode
        let category: PNStatusCategory = switch code {
        case 400: .badRequest
        case 403: .accessDenied
        case 404: .resourceNotFound
        case 414: .requestURITooLong
        case 412: .preconditionFailed
        case 481: .malformedFilterExpression
        default: .unknown
        }
        var channels: [String] = []
        var groups: [String] = []
        if category == .accessDenied {
            channels = body?["payload"]?["channels"]?.arrayValue?.compactMap(\.stringValue) ?? []
            groups = body?["payload"]?["channel-groups"]?.arrayValue?.compactMap(\.stringValue) ?? []
            if channels.isEmpty && groups.isEmpty {
                channels = request.channels
                groups = request.groups
            }
        }
        let info = serverMessage(body) ?? "HTTP \(code)"
        return PNStatus(category: category, operation: request.operation, statusCode: code,
                        errorData: PNErrorData(information: info, channels: channels, channelGroups: groups, body: body,
                                               retryAfterSeconds: response.header("retry-after").flatMap { Int($0.trimmingCharacters(in: .whitespaces)) }),
                        request: summary)
    }

    /// `message`, `error_message`, `error.message`, or the text of a `[0,"text",…]` array.
    static func serverMessage(_ body: JSONValue?) -> String? {
        guard let body else { return nil }
        if let m = body["message"]?.stringValue { return m }
        if let m = body["error_message"]?.stringValue, !m.isEmpty { return m }
        if let m = body["error"]?["message"]?.stringValue { return m }
        if let m = body["error"]?.stringValue { return m }
        if let m = body[1]?.stringValue { return m }
        return nil
    }
}
