// SPDX-License-Identifier: MIT

/// The bodies of Access Manager v3 (grant token, revoke token, token denials), byte for byte as
/// recorded (docs/access-manager.md); `text/javascript; charset=UTF-8` throughout.
enum AccessV3Bodies {
    /// The header set of a grant-token success (recorded with `Cache-Control`).
    private static let grantHeaders: HTTPHeaders = [
        "Content-Type": PubNubContentType.unquoted.value, "Cache-Control": "no-cache, no-store, must-revalidate",
    ]

    /// 200 `{"data":{"message":"Success","token":…},"service":"Access Manager","status":200}`.
    static func granted(_ token: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: grantHeaders, body: Array(
            ("{\"data\":{\"message\":\"Success\",\"token\":" + PubNubJSON.quote(token) + "},\"service\":\"Access Manager\",\"status\":200}").utf8))
    }

    /// 200 `{"data":{"message":"Success"},"service":"Access Manager","status":200}` (revoke).
    static func revoked() -> HTTPResponse {
        .pubNub(200, "{\"data\":{\"message\":\"Success\"},\"service\":\"Access Manager\",\"status\":200}", .unquoted)
    }

    /// A grant 400: `error{message,source,details[{message,location,locationType}]}` in the
    /// recorded order (ttl recorded 2025; the other grant errors follow it, INFERRED).
    static func grantError(_ problem: TokenGrantProblem) -> HTTPResponse {
        .pubNub(400, "{\"error\":{\"message\":" + PubNubJSON.quote(problem.message) + ",\"source\":\"grant\",\"details\":[{\"message\":"
            + PubNubJSON.quote(problem.detail) + ",\"location\":" + PubNubJSON.quote(problem.location)
            + ",\"locationType\":\"body\"}]},\"service\":\"Access Manager\",\"status\":400}", .unquoted)
    }

    /// A revoke error with the keys of `error` in alphabetical order, as recorded (2025).
    static func revokeError(status: Int, message: String, detail: String, location: String) -> HTTPResponse {
        .pubNub(status, "{\"error\":{\"details\":[{\"location\":" + PubNubJSON.quote(location) + ",\"locationType\":\"path\",\"message\":"
            + PubNubJSON.quote(detail) + "}],\"message\":" + PubNubJSON.quote(message) + ",\"source\":\"revoke\"},"
            + "\"service\":\"Access Manager\",\"status\":" + String(status) + "}", .unquoted)
    }

    /// A 403 for a token that cannot be used: `{"error":true,"status":403,"service":"Access Manager","message":…}`
    /// and a line feed, as recorded for `Token is revoked` (2025). `Token is expired` and
    /// `Invalid token` use the same layout (UNVERIFIED; no trailing period, like the live revoked text).
    static func tokenRefused(_ message: String) -> HTTPResponse {
        .pubNub(403, "{\"error\":true,\"status\":403,\"service\":\"Access Manager\",\"message\":" + PubNubJSON.quote(message) + "}\n", .unquoted)
    }
}
