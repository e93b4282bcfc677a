// SPDX-License-Identifier: MIT
import PubNubToken

/// Why a grant-token body is refused: the recorded 400 `error` fields.
struct TokenGrantProblem: Sendable, Hashable, Error {
    var message: String
    var detail: String
    var location: String
}

/// A parsed `POST /v3/pam/{sub}/grant` body (spec §2.1): pure, no state.
struct TokenGrantBody: Sendable, Hashable {
    /// Minutes, 1…43200.
    var ttl: Int
    var resources: TokenGrants
    var patterns: TokenGrants
    var meta: CBORValue
    var authorizedUUID: String?

    static let maxTTL = 43_200

    /// Parses and checks `body` in the service's order: ttl, permissions, patterns.
    static func parse(_ body: [UInt8]) -> Result<TokenGrantBody, TokenGrantProblem> {
        guard let document = try? JSONValue.parse(body, maxDepth: 64), let root = document.objectValue else {
            // UNVERIFIED: the live answer to a body that is not a JSON object is not recorded.
            return .failure(TokenGrantProblem(message: "Invalid request body", detail: "Request body must be a JSON object.", location: "body"))
        }
        guard let ttl = ttlMinutes(root["ttl"]), (1...maxTTL).contains(ttl) else {
            return .failure(TokenGrantProblem(message: "Invalid ttl", detail: "Range should be 1 to 43200 minute(s).", location: "ttl"))
        }
        let permissions = root["permissions"]?.objectValue ?? JSONObject([:])
        var grant = TokenGrantBody(ttl: ttl, resources: TokenGrants(), patterns: TokenGrants(), meta: .map([]), authorizedUUID: nil)
        for (side, sideName) in [(\TokenGrantBody.resources, "resources"), (\TokenGrantBody.patterns, "patterns")] {
            guard let members = permissions[sideName]?.objectValue else { continue }
            for kind in TokenResourceKind.allCases {
                guard let entries = members[kind.bodyName]?.objectValue else { continue }
                for (name, value) in entries {
                    let location = "permissions." + sideName + "." + kind.bodyName + "." + name
                    guard let mask = value.intValue, mask > 0, mask <= 255 else {
                        return .failure(TokenGrantProblem(
                            message: "Invalid permissions",
                            detail: "Unexpected value: `" + location + "` must be positive and non-zero.", location: location))
                    }
                    if sideName == "patterns", let problem = PatternSyntax.problem(in: name) {
                        return .failure(TokenGrantProblem(message: "Invalid RegExp", detail: problem, location: location))
                    }
                    grant[keyPath: side][kind].append(TokenGrantEntry(name: name, mask: mask))
                }
            }
        }
        if grant.resources.isEmpty && grant.patterns.isEmpty {
            // UNVERIFIED wording: a grant naming no resource and no pattern at all.
            return .failure(TokenGrantProblem(
                message: "Invalid permissions", detail: "Unexpected value: `permissions` must grant at least one resource or pattern.",
                location: "permissions"))
        }
        // The SDKs write `meta` and `uuid` inside `permissions` (recorded); the top level is read too.
        if let meta = permissions["meta"] ?? root["meta"], case .object = meta { grant.meta = CBORJSON.cbor(meta) }
        if case .string(let uuid)? = permissions["uuid"] ?? root["uuid"], !uuid.isEmpty { grant.authorizedUUID = uuid }
        return .success(grant)
    }

    /// `ttl` as a JSON number or a decimal string (2021 clients sent `"15"`).
    private static func ttlMinutes(_ value: JSONValue?) -> Int? {
        switch value {
        case .number(let text)?: Int(text)
        case .string(let text)?: text.utf8.count <= 9 && text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) ? Int(text) : nil
        default: nil
        }
    }
}
