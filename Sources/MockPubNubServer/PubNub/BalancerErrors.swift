// SPDX-License-Identifier: MIT

/// What PubNub's load balancer answers to a request it cannot frame; the mock injects it into its
/// HTTP server as the ``HTTPParseErrorResponder``.
enum BalancerErrors {
    /// `{"message":…,"error":true,"service":"Balancer","status":N}` with PubNub's content type.
    ///
    /// The 414 body is byte-exact from the spec (§4.5); the other messages follow the same shape
    /// (UNVERIFIED: the live balancer's texts for 400/413/431 are not recorded in the spec).
    static func response(for error: HTTPParseError) -> HTTPResponse {
        let message = switch error {
        case .targetTooLong: "Request URI Too Long"
        case .headersTooLarge: "Request Header Fields Too Large"
        case .bodyTooLarge: "Request Entity Too Large"
        case .unsupportedVersion: "HTTP Version Not Supported"
        case .unsupportedTransferEncoding: "Not Implemented"
        default: "Bad Request"
        }
        let status = error.status
        return .pubNub(status, "{\"message\":\"\(message)\",\"error\":true,\"service\":\"Balancer\",\"status\":\(status)}")
    }
}
