// SPDX-License-Identifier: MIT

/// A parsed PAM v2 grant request and the rendering of its success body (spec §9.2 fixtures).
struct GrantRequest: Sendable {
    var channels: [String]
    var groups: [String]
    /// The `target-uuid` list (uuid-level grants, for App Context; stored and echoed, not enforced).
    var uuids: [String]
    var auths: [String]
    var permissions: Permissions
    /// Minutes; 0 grants indefinitely (PubNub's documented meaning), default 1440; a revoke
    /// (every flag 0) without `ttl` reports 1 (recorded 2020).
    var ttl: Int

    static func parse(_ route: PubNubRoute) -> Result<GrantRequest, PubNubServiceError> {
        func on(_ name: String) -> Bool { route.query[name] == "1" }
        let permissions = Permissions(
            read: on("r"), write: on("w"), manage: on("m"), delete: on("d"), get: on("g"), update: on("u"), join: on("j"))
        var ttl = permissions == Permissions() ? 1 : 1440
        if let text = route.query["ttl"] {
            // PubNub's documented range is 1…525600 minutes (0 = indefinite).
            guard let value = Int(text), value >= 0, value <= 525_600 else { return .failure(.invalidGrantParameter(name: "ttl", value: text)) }
            ttl = value
        }
        return .success(GrantRequest(
            channels: PubNubRoute.splitList(route.query["channel"]), groups: route.channelGroups,
            uuids: PubNubRoute.splitList(route.query["target-uuid"]),
            auths: PubNubRoute.splitList(route.query["auth"]), permissions: permissions, ttl: ttl))
    }

    /// Whether the request names auth keys but no channel, group or uuid: the service refuses it
    /// with 400 `Auth-only grants are reserved for future use` (recorded 2016).
    var isAuthOnly: Bool { !auths.isEmpty && channels.isEmpty && groups.isEmpty && uuids.isEmpty }

    /// What the grant applies to: the subkey when it names neither channels, groups nor uuids.
    var targets: [GrantTarget] {
        if channels.isEmpty && groups.isEmpty && uuids.isEmpty { return [.subkey] }
        return channels.map(GrantTarget.channel) + groups.map(GrantTarget.group) + uuids.map(GrantTarget.uuid)
    }

    /// The success body, by level as recorded: `subkey` and `channel` carry all seven flags
    /// (r w m d g u j, 2020), `user` / `channel-group` / `channel-group+auth` the four r w m d
    /// (2019), `uuid` nests `auths` per uuid with seven flags (2020). Several groups with auth
    /// keys, channels with groups, and a uuid grant without auth are UNVERIFIED.
    func responseBody(subscribeKey: String) -> String {
        let head = "\"subscribe_key\":" + PubNubJSON.quote(subscribeKey) + ",\"ttl\":" + String(ttl)
        func auths(_ flags: String) -> String {
            "\"auths\":{" + self.auths.map { PubNubJSON.quote($0) + ":" + flags }.joined(separator: ",") + "}"
        }
        func nested(_ names: [String], _ flags: String) -> String {
            "{" + names.map { PubNubJSON.quote($0) + ":" + (self.auths.isEmpty ? flags : "{" + auths(flags) + "}") }
                .joined(separator: ",") + "}"
        }
        let short = permissions.shortJSON, full = "{" + permissions.inlineJSON + "}"
        var payload: String
        if !uuids.isEmpty && channels.isEmpty && groups.isEmpty {
            payload = "\"level\":\"uuid\"," + head + ",\"uuids\":" + nested(uuids, full)
        } else if channels.isEmpty && groups.isEmpty {
            payload = "\"level\":\"subkey\"," + head + "," + (self.auths.isEmpty ? permissions.inlineJSON : auths(full))
        } else if groups.isEmpty {
            if !self.auths.isEmpty && channels.count == 1 {
                payload = "\"level\":\"user\"," + head + ",\"channel\":" + PubNubJSON.quote(channels[0]) + "," + auths(short)
            } else if self.auths.isEmpty {
                payload = "\"level\":\"channel\"," + head + ",\"channels\":" + nested(channels, full)
            } else {
                payload = "\"level\":\"user\"," + head + ",\"channels\":" + nested(channels, short)
            }
        } else if !self.auths.isEmpty && groups.count == 1 && channels.isEmpty {
            payload = "\"level\":\"channel-group+auth\"," + head + ",\"channel-groups\":" + PubNubJSON.quote(groups[0])
                + "," + auths(short)
        } else {
            payload = "\"level\":" + (self.auths.isEmpty ? "\"channel-group\"" : "\"channel-group+auth\"") + "," + head
            if !channels.isEmpty { payload += ",\"channels\":" + nested(channels, short) }
            payload += ",\"channel-groups\":" + nested(groups, short)
        }
        return "{\"message\":\"Success\",\"payload\":{" + payload + "},\"service\":\"Access Manager\",\"status\":200}"
    }
}
