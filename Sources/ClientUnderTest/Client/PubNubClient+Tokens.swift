// SPDX-License-Identifier: MIT
import HarnessJSON
import PubNubToken

/// What an Access Manager v3 grant asks for: resources and patterns (regular expressions) per
/// kind with their permissions, the ttl in minutes, an optional authorized uuid and meta.
public struct PNTokenGrant: Sendable, Hashable {
    public var ttl: Int
    public var channels: [String: TokenPermissions]
    public var groups: [String: TokenPermissions]
    public var uuids: [String: TokenPermissions]
    public var channelPatterns: [String: TokenPermissions]
    public var groupPatterns: [String: TokenPermissions]
    public var uuidPatterns: [String: TokenPermissions]
    public var authorizedUUID: String?
    /// A JSON object (`{}` when nil).
    public var meta: JSONValue?

    public init(
        ttl: Int, channels: [String: TokenPermissions] = [:], groups: [String: TokenPermissions] = [:],
        uuids: [String: TokenPermissions] = [:], channelPatterns: [String: TokenPermissions] = [:],
        groupPatterns: [String: TokenPermissions] = [:], uuidPatterns: [String: TokenPermissions] = [:],
        authorizedUUID: String? = nil, meta: JSONValue? = nil
    ) {
        self.ttl = ttl
        self.channels = channels
        self.groups = groups
        self.uuids = uuids
        self.channelPatterns = channelPatterns
        self.groupPatterns = groupPatterns
        self.uuidPatterns = uuidPatterns
        self.authorizedUUID = authorizedUUID
        self.meta = meta
    }

    /// The request body, in the key order of the Python SDK (`ttl`, `permissions{resources,
    /// patterns, meta, uuid}`); names sorted so the body is deterministic.
    var bodyJSON: JSONValue {
        func kinds(_ channels: [String: TokenPermissions], _ groups: [String: TokenPermissions], _ uuids: [String: TokenPermissions]) -> JSONValue {
            func masks(_ entries: [String: TokenPermissions]) -> JSONValue {
                .object(JSONObject(entries.sorted { $0.key < $1.key }.map { ($0.key, JSONValue.int($0.value.rawValue)) }))
            }
            return .object(JSONObject([("channels", masks(channels)), ("groups", masks(groups)), ("uuids", masks(uuids))]))
        }
        var permissions: [(String, JSONValue)] = [
            ("resources", kinds(channels, groups, uuids)), ("patterns", kinds(channelPatterns, groupPatterns, uuidPatterns)),
            ("meta", meta ?? .object(JSONObject([(String, JSONValue)]()))),
        ]
        if let authorizedUUID { permissions.append(("uuid", .string(authorizedUUID))) }
        return .object(JSONObject([("ttl", .int(ttl)), ("permissions", .object(JSONObject(permissions)))]))
    }
}

extension PubNubClient {
    /// Uses `token` (an Access Manager v3 token) as `auth` on every request from now on, in place
    /// of the auth key; `nil` goes back to the auth key.
    public func setToken(_ token: String?) {
        settings.withLock { $0.authToken = token }
    }

    /// Decodes a token without the network (base64url CBOR; padding optional). `nil` when `token`
    /// is not one.
    public static func parseToken(_ token: String) -> AccessToken? {
        try? AccessToken.parse(token)
    }

    /// Instance form of ``parseToken(_:)``.
    public func parseToken(_ token: String) -> AccessToken? { Self.parseToken(token) }

    /// Grants a v3 token (`POST /v3/pam/{sub}/grant`, signed): needs the secret key. The token
    /// on success; a `PNBadRequestCategory` status without a secret key (no request), or the
    /// service's 400 / 403 as `PNBadRequestCategory` / `PNAccessDeniedCategory`.
    public func grantToken(_ grant: PNTokenGrant) async -> Result<String, PNStatus> {
        let config = configuration
        guard config.secretKey != nil, config.publishKey != nil else {
            return .failure(PNStatus(category: .badRequest, operation: .grantToken,
                                     errorData: PNErrorData(information: "grantToken needs secretKey and publishKey")))
        }
        let request = PubNubRequest(
            operation: .grantToken, method: "POST", path: "/v3/pam/\(PercentEncoding.encode(config.subscribeKey))/grant",
            body: Array(grant.bodyJSON.jsonText.utf8), sendsAuth: false,
            channels: grant.channels.keys.sorted(), groups: grant.groups.keys.sorted())
        return await perform(request, parse: Self.shaped(request) { $0["data"]?["token"]?.stringValue })
    }

    /// Revokes a v3 token (`DELETE /v3/pam/{sub}/grant/{token}`, signed): needs the secret key.
    /// `PNAcknowledgmentCategory` on success.
    public func revokeToken(_ token: String) async -> PNStatus {
        let config = configuration
        guard config.secretKey != nil, config.publishKey != nil else {
            return PNStatus(category: .badRequest, operation: .revokeToken,
                            errorData: PNErrorData(information: "revokeToken needs secretKey and publishKey"))
        }
        let request = PubNubRequest(
            operation: .revokeToken, method: "DELETE",
            path: "/v3/pam/\(PercentEncoding.encode(config.subscribeKey))/grant/\(PercentEncoding.encode(token))", sendsAuth: false)
        return await acknowledge(request)
    }
}
