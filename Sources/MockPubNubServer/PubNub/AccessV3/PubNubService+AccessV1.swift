// SPDX-License-Identifier: MIT

extension PubNubService {
    /// `GET /v1/auth/grant/sub-key/{sub}` (3.x clients): the v1 signature (or v2), grants stored
    /// as v2 grants are, the answer in the v1 layout (`r`, `m`, `w` flags).
    func grantV1(_ route: PubNubRoute, request: HTTPRequest) -> HTTPResponse {
        let subscribeKey = route.subscribeKey ?? ""
        let entry = entry(subscribeKey)
        guard let keyset = entry.keyset else { return PubNubErrors.accessManager(400, "Invalid Subscribe Key") }
        let now = accessNow(entry)
        let check = RequestAuthentication.check(request, route: route, keyset: keyset, now: now, window: signatureWindow)
        guard check == .valid else {
            return RequestAuthentication.refusal(check) ?? PubNubErrors.accessManager(403, "Signature Does Not Match")
        }
        guard case .success(let grant) = GrantRequest.parse(route) else { return PubNubErrors.accessManager(400, "Invalid ttl") }
        if grant.isAuthOnly { return PubNubErrors.accessManager(400, "Auth-only grants are reserved for future use") }
        let expiresAt: Int64? = grant.ttl == 0 ? nil : now + Int64(grant.ttl) * 60
        return withState(entry, subscribeKey: subscribeKey) { state, _, _ in
            for target in grant.targets {
                for auth in grant.auths.isEmpty ? [nil] : grant.auths.map(Optional.some) {
                    state.grants[GrantKey(target: target, auth: auth)] = GrantRecord(permissions: grant.permissions, expiresAt: expiresAt)
                }
            }
            return .pubNub(200, AccessV1Bodies.grant(grant, subscribeKey: subscribeKey), .unquoted)
        }
    }

    /// `GET /v1/auth/audit/sub-key/{sub}` (3.x clients): the grants in force for the named
    /// channel, group and auth keys (or every channel grant without auth key), in the v1 layout.
    func auditV1(_ route: PubNubRoute, request: HTTPRequest) -> HTTPResponse {
        let subscribeKey = route.subscribeKey ?? ""
        let entry = entry(subscribeKey)
        guard let keyset = entry.keyset else { return PubNubErrors.accessManager(400, "Invalid Subscribe Key") }
        let now = accessNow(entry)
        let check = RequestAuthentication.check(request, route: route, keyset: keyset, now: now, window: signatureWindow)
        guard check == .valid else {
            return RequestAuthentication.refusal(check) ?? PubNubErrors.accessManager(403, "Signature Does Not Match")
        }
        let query = AccessV1Bodies.AuditQuery(
            channel: route.query["channel"], group: route.channelGroups.first, auths: PubNubRoute.splitList(route.query["auth"]))
        return withState(entry, subscribeKey: subscribeKey) { state, _, _ in
            let live = state.grants.filter { $0.value.expiresAt.map { now < $0 } ?? true }
            return .pubNub(200, AccessV1Bodies.audit(query, grants: live, subscribeKey: subscribeKey, now: now), .unquoted)
        }
    }
}

/// The v1 Access Manager answers: `{"message":"Success","payload":{…},"service":"Access Manager","status":200}`
/// with `r`, `m`, `w` flags (the layout 3.x clients read; UNVERIFIED against the live v1 service,
/// which no recording covers: taken from the official SDKs' test stubs).
enum AccessV1Bodies {
    struct AuditQuery {
        var channel: String?
        var group: String?
        var auths: [String]
    }

    static func flags(_ p: Permissions, ttl: Int? = nil) -> String {
        "{\"r\":\(p.read ? 1 : 0),\"m\":\(p.manage ? 1 : 0),\"w\":\(p.write ? 1 : 0)" + (ttl.map { ",\"ttl\":\($0)" } ?? "") + "}"
    }

    private static func envelope(_ payload: String) -> String {
        "{\"message\":\"Success\",\"payload\":{" + payload + "},\"service\":\"Access Manager\",\"status\":200}"
    }

    private static func members(_ pairs: [(String, String)]) -> String {
        "{" + pairs.map { PubNubJSON.quote($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
    }

    static func grant(_ grant: GrantRequest, subscribeKey: String) -> String {
        let head = "\"subscribe_key\":" + PubNubJSON.quote(subscribeKey) + ",\"ttl\":" + String(grant.ttl)
        let f = flags(grant.permissions)
        let auths = members(grant.auths.map { ($0, f) })
        if let group = grant.groups.first, grant.channels.isEmpty {
            if grant.auths.isEmpty {
                return envelope("\"level\":\"channel-group\"," + head + ",\"channel-groups\":" + members(grant.groups.map { ($0, f) }))
            }
            return envelope("\"level\":\"channel-group+auth\"," + head + ",\"channel-group\":" + PubNubJSON.quote(group) + ",\"auths\":" + auths)
        }
        if let channel = grant.channels.first {
            if grant.auths.isEmpty {
                return envelope("\"level\":\"channel\"," + head + ",\"channels\":" + members(grant.channels.map { ($0, f) }))
            }
            return envelope("\"level\":\"user\"," + head + ",\"channel\":" + PubNubJSON.quote(channel) + ",\"auths\":" + auths)
        }
        let inline = String(f.dropFirst().dropLast())
        return envelope("\"level\":\"subkey\"," + head + "," + inline)
    }

    static func audit(_ query: AuditQuery, grants: [GrantKey: GrantRecord], subscribeKey: String, now: Int64) -> String {
        let head = "\"subscribe_key\":" + PubNubJSON.quote(subscribeKey)
        func remaining(_ record: GrantRecord) -> Int { record.expiresAt.map { Int(($0 - now + 59) / 60) } ?? 0 }
        func entry(_ key: GrantKey) -> String? { grants[key].map { flags($0.permissions, ttl: remaining($0)) } }
        func auths(_ target: GrantTarget) -> String {
            members(query.auths.compactMap { auth in entry(GrantKey(target: target, auth: auth)).map { (auth, $0) } })
        }
        if let group = query.group {
            if query.auths.isEmpty {
                let listed = entry(GrantKey(target: .group(group), auth: nil)).map { [(group, $0)] } ?? []
                return envelope("\"level\":\"channel-group\"," + head + ",\"channel-groups\":" + members(listed))
            }
            return envelope("\"level\":\"channel-group+auth\"," + head + ",\"channel-group\":" + PubNubJSON.quote(group)
                + ",\"auths\":" + auths(.group(group)))
        }
        if let channel = query.channel {
            if query.auths.isEmpty {
                let listed = entry(GrantKey(target: .channel(channel), auth: nil)).map { [(channel, $0)] } ?? []
                return envelope("\"level\":\"channel\"," + head + ",\"channels\":" + members(listed))
            }
            return envelope("\"level\":\"user\"," + head + ",\"channel\":" + PubNubJSON.quote(channel) + ",\"auths\":" + auths(.channel(channel)))
        }
        let channels = grants.compactMap { key, record -> (String, String)? in
            guard case .channel(let name) = key.target, key.auth == nil else { return nil }
            return (name, flags(record.permissions, ttl: remaining(record)))
        }.sorted { $0.0 < $1.0 }
        return envelope("\"level\":\"subkey\"," + head + ",\"channels\":" + members(channels))
    }
}
