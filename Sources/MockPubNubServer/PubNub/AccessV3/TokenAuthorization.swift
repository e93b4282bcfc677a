// SPDX-License-Identifier: MIT
import PubNubToken

/// The verdict on a request that carries a v3 token as `auth`.
enum TokenVerdict: Sendable, Hashable {
    case allowed
    /// Not issued by this keyset (or not a token this service can read).
    case invalid
    case revoked
    case expired
    /// The token names an authorized uuid and the request's `uuid` is another.
    case wrongUUID
    /// Permissions missing on these resources.
    case denied(channels: [String], groups: [String], uuids: [String])
}

/// Checks a token against a request's needs (spec §2.4): pure.
enum TokenAuthorization {
    /// The verdict for `token` (already verified as issued here) on `rule` at Unix second `now`.
    /// Order: revoked, expired, authorized uuid, permissions.
    static func verdict(
        _ token: AccessToken, rule: AccessRule, uuid: String?, now: Int64, isRevoked: Bool
    ) -> TokenVerdict {
        if isRevoked { return .revoked }
        if now >= token.expiresAt { return .expired }
        if let authorized = token.authorizedUUID, authorized != uuid { return .wrongUUID }
        switch rule {
        case .open: return .allowed
        case .secretKeyOnly: return .denied(channels: [], groups: [], uuids: [])
        case .resources(let requirements):
            var channels: [String] = [], groups: [String] = [], uuids: [String] = []
            for requirement in requirements where !holds(token, requirement) {
                switch requirement.resource {
                case .channel(let name): if !channels.contains(name) { channels.append(name) }
                case .group(let name): if !groups.contains(name) { groups.append(name) }
                case .uuid(let name): if !uuids.contains(name) { uuids.append(name) }
                }
            }
            return channels.isEmpty && groups.isEmpty && uuids.isEmpty ? .allowed : .denied(channels: channels, groups: groups, uuids: uuids)
        }
    }

    /// Whether `token` grants `requirement`: an exact resource entry decides when there is one
    /// (its mask alone), else any matching pattern with the bit (INFERRED from the docs: exact
    /// first, then patterns; permissions do not cascade). A presence channel `x-pnpres` is also
    /// admitted by a grant on `x` (as this service's v2 grants do; UNVERIFIED for tokens).
    static func holds(_ token: AccessToken, _ requirement: AccessRequirement) -> Bool {
        let (name, kinds): (String, [TokenResourceKind]) = switch requirement.resource {
        case .channel(let name): (name, [.channels, .spaces])
        case .group(let name): (name, [.groups])
        case .uuid(let name): (name, [.uuids, .users])
        }
        if grants(token, name: name, kinds: kinds, permission: requirement.permission) { return true }
        if case .channel = requirement.resource, ChannelNames.isPresence(name) {
            return grants(token, name: ChannelNames.base(name), kinds: kinds, permission: requirement.permission)
        }
        return false
    }

    private static func grants(_ token: AccessToken, name: String, kinds: [TokenResourceKind], permission: TokenPermissions) -> Bool {
        let exact = kinds.flatMap { token.resources[$0] }.filter { $0.name == name }
        if !exact.isEmpty { return exact.contains { $0.permissions.contains(permission) } }
        return kinds.flatMap { token.patterns[$0] }.contains {
            $0.permissions.contains(permission) && PatternSyntax.matches($0.name, name)
        }
    }
}
