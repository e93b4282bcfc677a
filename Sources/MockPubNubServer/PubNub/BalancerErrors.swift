// SPDX-License-Identifier: MIT

/// What PubNub's load balancer answers to a request it cannot frame; the mock injects it into its
/// HTTP server as the ``HTTPParseErrorResponder``.
enum BalancerErrors {
    /// The 414 is byte-exact as the live balancer answered it (recorded 2020: unquoted charset,
    /// trailing line feed); the others follow `{"message":…,"error":true,"service":"Balancer","status":N}`
    /// with PubNub's content type (UNVERIFIED: the live balancer's texts for 400/413/431 are not recorded).
    static func response(for error: HTTPParseError) -> HTTPResponse {
        if case .targetTooLong = error {
            return HTTPResponse(status: 414, headers: uriTooLongHeaders, body: Array(
                "{\"status\":414,\"service\":\"Balancer\",\"error\":true,\"message\":\"Request URI Too Long\"}\n".utf8))
        }
        let message = switch error {
        case .headersTooLarge: "Request Header Fields Too Large"
        case .bodyTooLarge: "Request Entity Too Large"
        case .unsupportedVersion: "HTTP Version Not Supported"
        case .unsupportedTransferEncoding: "Not Implemented"
        case .tlsOnPlainPort: "This port speaks plain HTTP, not TLS: use http:// or the TLS port"
        // A request that did not arrive in time (UNVERIFIED: the live balancer's 408 is not recorded).
        case .requestTimeout: "Request Timeout"
        default: "Bad Request"
        }
        let status = error.status
        return .pubNub(status, "{\"message\":\"\(message)\",\"error\":true,\"service\":\"Balancer\",\"status\":\(status)}")
    }

    /// The recorded balancer 414's Content-Type (unquoted charset, unlike the services behind it).
    private static let uriTooLongHeaders: HTTPHeaders = ["Content-Type": "text/javascript; charset=UTF-8"]
}
