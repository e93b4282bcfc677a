// SPDX-License-Identifier: MIT

/// A parsed Access Manager v2 audit (`GET /v2/auth/audit/sub-key/{sub}`) and the rendering of
/// its answer (pure).
///
/// The layouts are the v2 grant's (spec §9.2: `level`, `subscribe_key`, then the targets with
/// `r`, `w`, `m`, `d` flags), each entry with the grant's remaining minutes as `ttl` (0 for an
/// indefinite grant) and, at the channel and channel-group levels, the auth-key grants on it
/// nested as `auths`. The `channel-group+auth` layout is the one the JavaScript SDK's audit
/// test answers with, the subkey one (`channels`, `objects`, `channel-groups`) the C# SDK's;
/// UNVERIFIED against the live service, which no recording covers.
struct AuditRequest: Sendable, Hashable {
    var channels: [String]
    var groups: [String]
    var auths: [String]

    init(channels: [String], groups: [String], auths: [String]) {
        self.channels = channels
        self.groups = groups
        self.auths = auths
    }

    init(_ route: PubNubRoute) {
        self.init(channels: PubNubRoute.splitList(route.query["channel"]), groups: route.channelGroups,
                  auths: PubNubRoute.splitList(route.query["auth"]))
    }

    /// Auth keys without a channel or group: refused with a 400 (as an auth-only grant is; UNVERIFIED wording).
    var isAuthOnly: Bool { !auths.isEmpty && channels.isEmpty && groups.isEmpty }

    /// The success body for the grants in force at `now` (unix seconds).
    func responseBody(grants: [GrantKey: GrantRecord], subscribeKey: String, now: Int64) -> String {
        let live = grants.filter { $0.value.expiresAt.map { now < $0 } ?? true }
        func flags(_ record: GrantRecord, auths: String? = nil) -> String {
            let minutes = record.expiresAt.map { Int(($0 - now + 59) / 60) } ?? 0
            return String(record.permissions.shortJSON.dropLast()) + ",\"ttl\":" + String(minutes) + (auths.map { ",\"auths\":" + $0 } ?? "") + "}"
        }
        func object(_ pairs: [(String, String)]) -> String {
            "{" + pairs.map { PubNubJSON.quote($0.0) + ":" + $0.1 }.joined(separator: ",") + "}"
        }
        /// The auth-key grants on `target`, limited to `only` when given, by key.
        func authGrants(_ target: GrantTarget, only: [String]? = nil) -> [(String, String)] {
            live.compactMap { key, record -> (String, String)? in
                guard key.target == target, let auth = key.auth, only.map({ $0.contains(auth) }) ?? true else { return nil }
                return (auth, flags(record))
            }.sorted { $0.0 < $1.0 }
        }
        /// One target's entry: its own flags (zeros without a grant of its own) and its auth grants; nil without either.
        func entry(_ target: GrantTarget) -> String? {
            let auths = authGrants(target)
            let nested = auths.isEmpty ? nil : object(auths)
            if let own = live[GrantKey(target: target, auth: nil)] { return flags(own, auths: nested) }
            return nested.map { "{\"auths\":" + $0 + "}" }
        }
        func entries(_ targets: [(String, GrantTarget)]) -> String {
            object(targets.compactMap { name, target in entry(target).map { (name, $0) } })
        }
        let head = "\"subscribe_key\":" + PubNubJSON.quote(subscribeKey)
        let payload: String
        if let group = groups.first, !auths.isEmpty {
            payload = "\"level\":\"channel-group+auth\"," + head + ",\"channel-group\":" + PubNubJSON.quote(group)
                + ",\"auths\":" + object(authGrants(.group(group), only: auths))
        } else if !groups.isEmpty {
            payload = "\"level\":\"channel-group\"," + head + ",\"channel-groups\":" + entries(groups.map { ($0, .group($0)) })
        } else if let channel = channels.first, !auths.isEmpty {
            payload = "\"level\":\"user\"," + head + ",\"channel\":" + PubNubJSON.quote(channel)
                + ",\"auths\":" + object(authGrants(.channel(channel), only: auths))
        } else if !channels.isEmpty {
            payload = "\"level\":\"channel\"," + head + ",\"channels\":" + entries(channels.map { ($0, .channel($0)) })
        } else {
            var names: (channels: Set<String>, groups: Set<String>) = ([], [])
            for key in live.keys {
                switch key.target {
                case .channel(let name): names.channels.insert(name)
                case .group(let name): names.groups.insert(name)
                case .subkey, .uuid: break
                }
            }
            let own = live[GrantKey(target: .subkey, auth: nil)].map { record in
                "," + String(flags(record).dropFirst().dropLast())
            } ?? ""
            payload = "\"level\":\"subkey\"," + head + own
                + ",\"channels\":" + entries(names.channels.sorted().map { ($0, .channel($0)) })
                + ",\"objects\":{}"
                + ",\"channel-groups\":" + entries(names.groups.sorted().map { ($0, .group($0)) })
        }
        return "{\"message\":\"Success\",\"payload\":{" + payload + "},\"service\":\"Access Manager\",\"status\":200}"
    }
}
