// SPDX-License-Identifier: MIT
import HarnessHTTPClient
import HarnessJSON
import MockPubNubServer

/// What the proxy sends upstream and back (pure): the client's request as the upstream gets it,
/// the upstream's answer as the client gets it, and the storage URLs rewritten through the proxy.
enum ForwardedMessages {
    /// Fields of one hop that are not forwarded (RFC 9110 §7.6.1), and the framing the HTTP client
    /// and the server's encoder write themselves.
    static let hopFields: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "host", "content-length",
        "expect", "proxy-authorization", "proxy-authenticate",
    ]

    /// The proxy's own paths: uploads and downloads it forwards to a storage URL.
    static let uploadPrefix = "/__record/upload/"
    static let storagePrefix = "/__record/storage/"

    /// The client's request for the upstream: same method, target, body and end-to-end fields.
    static func upstreamRequest(_ request: HTTPRequest, target: String? = nil) -> HTTPClientRequest {
        var headers: [String: String] = [:]
        var contentType = "application/octet-stream"
        for field in request.headers.fields {
            let lower = field.name.lowercased()
            if hopFields.contains(lower) { continue }
            if lower == "content-type" {
                contentType = field.value
                continue
            }
            headers[field.name] = headers[field.name].map { $0 + ", " + field.value } ?? field.value
        }
        let hasBody = !request.body.isEmpty || request.headers["Content-Length"] != nil || request.headers["Transfer-Encoding"] != nil
        return HTTPClientRequest(method: request.method, target: target ?? request.target, body: hasBody ? request.body : nil,
                                 contentType: contentType, headers: headers)
    }

    /// The upstream's answer for the client: its status, fields (without the framing) and body.
    static func clientResponse(status: Int, headers: [(name: String, value: String)], body: [UInt8]) -> HTTPResponse {
        var fields = HTTPHeaders()
        for field in headers where !hopFields.contains(field.name.lowercased()) { fields.add(displayName(field.name), field.value) }
        return HTTPResponse(status: status, headers: fields, body: body)
    }

    /// `content-type` → `Content-Type` (the HTTP client lowercases names; clients do not care, people do).
    static func displayName(_ lower: String) -> String {
        lower.split(separator: "-", omittingEmptySubsequences: false)
            .map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: "-")
    }

    /// A generate-upload-url answer whose `file_upload_request.url` points at the proxy instead
    /// (the body without a content coding, compact): the new body and the storage URL it replaced;
    /// nil when the body has no such URL.
    static func rewritingUploadURL(_ body: [UInt8], to proxyURL: String) -> (body: [UInt8], storageURL: String)? {
        guard case .object(var top)? = try? JSONValue.parse(body), case .object(var request)? = top["file_upload_request"],
            let storageURL = request["url"]?.stringValue
        else { return nil }
        request = JSONObject(request.map { ($0.key, $0.key == "url" ? JSONValue.string(proxyURL) : $0.value) })
        top = JSONObject(top.map { ($0.key, $0.key == "file_upload_request" ? JSONValue.object(request) : $0.value) })
        return (JSONValue.object(top).jsonBytes, storageURL)
    }

    /// The proxy's own URL for a path, as the client reached the proxy (its `Host`, its scheme).
    static func proxyURL(request: HTTPRequest, context: RequestContext, path: String) -> String {
        let scheme = context.isTLS ? "https" : "http"
        let host = request.headers["Host"].flatMap { $0.isEmpty ? nil : $0 } ?? "127.0.0.1:\(context.localPort)"
        return scheme + "://" + host + path
    }
}
