// SPDX-License-Identifier: MIT
import Foundation
import MockPusher

/// Signs HTTP API requests as an app server does (spec §6.2), for the harness's server-side triggers.
///
/// The string to sign is built here on purpose, not shared with the server's
/// `PusherRequestAuthentication` that checks it: one shared bug in the sorted-query rule would
/// otherwise pass both sides. Only the primitives (HMAC-SHA256, MD5) are shared.
public enum PusherAPISigner {
    /// `POST /apps/ID/events` for `app`: the request target (path and signed query) and the body.
    public static func events(app: PusherApp, channels: [String], event: String, data: String, excludeSocketID: String?,
                              timestamp: Int64) -> (target: String, body: [UInt8]) {
        var members: [(String, JSONValue)] = [("name", .string(event)), ("channels", .array(channels.map(JSONValue.string))), ("data", .string(data))]
        if let excludeSocketID { members.append(("socket_id", .string(excludeSocketID))) }
        let body = JSONValue.object(JSONObject(members)).jsonBytes
        let path = "/apps/\(app.id)/events"
        return (signedTarget(app: app, method: "POST", path: path, body: body, timestamp: timestamp), body)
    }

    /// `POST /apps/ID/users/USER/terminate_connections` (body `{}`, as pusher-http-node posts it).
    public static func terminate(app: PusherApp, userID: String, timestamp: Int64) -> (target: String, body: [UInt8]) {
        let body = Array("{}".utf8)
        let path = "/apps/\(app.id)/users/\(userID)/terminate_connections"
        return (signedTarget(app: app, method: "POST", path: path, body: body, timestamp: timestamp), body)
    }

    /// `PATH?auth_key=…&auth_timestamp=…&auth_version=1.0[&body_md5=…]&auth_signature=…`.
    static func signedTarget(app: PusherApp, method: String, path: String, body: [UInt8], timestamp: Int64) -> String {
        var parameters = ["auth_key": app.key, "auth_timestamp": String(timestamp), "auth_version": "1.0"]
        if !body.isEmpty { parameters["body_md5"] = PusherSignatures.md5Hex(body) }
        // Keys sorted, `key=value` joined by `&`, values unescaped: what the official libraries sign.
        let canonical = parameters.keys.sorted().map { "\($0)=\(parameters[$0]!)" }.joined(separator: "&")
        let signature = PusherSignatures.hmacSHA256Hex(secret: app.secret, message: "\(method)\n\(path)\n\(canonical)")
        let query = parameters.keys.sorted().map { "\($0)=\(encode(parameters[$0]!))" }.joined(separator: "&")
        return "\(path)?\(query)&auth_signature=\(signature)"
    }

    /// Percent-encodes everything but RFC 3986 unreserved characters.
    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }
}
