// SPDX-License-Identifier: MIT

/// A parsed PAM v2 grant request and the rendering of its success body (spec §9.2 fixtures).
struct GrantRequest: Sendable {
    var channels: [String]
    var groups: [String]
    var auths: [String]
    var permissions: Permissions
    /// Minutes; 0 grants indefinitely (PubNub's documented meaning), default 1440.
    var ttl: Int

    static func parse(_ route: PubNubRoute) -> Result<GrantRequest, PubNubServiceError> {
        func on(_ name: String) -> Bool { route.query[name] == "1" }
        var ttl = 1440
        if let text = route.query["ttl"] {
            guard let value = Int(text), value >= 0 else { return .failure(.invalidGrantParameter(name: "ttl", value: text)) }
            ttl = value
        }
        let permissions = Permissions(
            read: on("r"), write: on("w"), manage: on("m"), delete: on("d"), get: on("g"), update: on("u"), join: on("j"))
        return .success(GrantRequest(
            channels: PubNubRoute.splitList(route.query["channel"]), groups: route.channelGroups,
            auths: PubNubRoute.splitList(route.query["auth"]), permissions: permissions, ttl: ttl))
    }

    /// What the grant applies to: the subkey when it names neither channels nor groups.
    var targets: [GrantTarget] {
        if channels.isEmpty && groups.isEmpty { return [.subkey] }
        return channels.map(GrantTarget.channel) + groups.map(GrantTarget.group)
    }

    /// The success body. Levels `subkey`, `channel`, `user` (one channel + auth), `channel-group`,
    /// `channel-group+auth` (one group + auth) are recorded; several channels or groups with
    /// auth keys, and subkey + auth, nest `auths` per name (UNVERIFIED).
    func responseBody(subscribeKey: String) -> String {
        let head = "\"subscribe_key\":" + JSONText.quote(subscribeKey) + ",\"ttl\":" + String(ttl)
        let auths = "\"auths\":{" + self.auths.map { JSONText.quote($0) + ":" + permissions.shortJSON }
            .joined(separator: ",") + "}"
        func nested(_ names: [String]) -> String {
            "{" + names.map { JSONText.quote($0) + ":" + (self.auths.isEmpty ? permissions.shortJSON : "{" + auths + "}") }
                .joined(separator: ",") + "}"
        }
        var payload: String
        if channels.isEmpty && groups.isEmpty {
            payload = "\"level\":\"subkey\"," + head + "," + (self.auths.isEmpty ? permissions.inlineJSON : auths)
        } else if groups.isEmpty {
            if !self.auths.isEmpty && channels.count == 1 {
                payload = "\"level\":\"user\"," + head + ",\"channel\":" + JSONText.quote(channels[0]) + "," + auths
            } else {
                payload = "\"level\":" + (self.auths.isEmpty ? "\"channel\"" : "\"user\"") + "," + head
                    + ",\"channels\":" + nested(channels)
            }
        } else if !self.auths.isEmpty && groups.count == 1 && channels.isEmpty {
            payload = "\"level\":\"channel-group+auth\"," + head + ",\"channel-groups\":" + JSONText.quote(groups[0])
                + "," + auths
        } else {
            payload = "\"level\":" + (self.auths.isEmpty ? "\"channel-group\"" : "\"channel-group+auth\"") + "," + head
            if !channels.isEmpty { payload += ",\"channels\":" + nested(channels) }
            payload += ",\"channel-groups\":" + nested(groups)
        }
        return "{\"message\":\"Success\",\"payload\":{" + payload + "},\"service\":\"Access Manager\",\"status\":200}"
    }
}
