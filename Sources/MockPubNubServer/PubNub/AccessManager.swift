// SPDX-License-Identifier: MIT

/// The permissions of a PAM v2 grant. Only r, w, m and d are enforced; g, u, j are stored and echoed.
struct Permissions: Hashable, Sendable {
    var read = false, write = false, manage = false, delete = false
    var get = false, update = false, join = false

    /// The four-flag object of channel / group level grant responses.
    var shortJSON: String {
        "{\"r\":\(read ? 1 : 0),\"w\":\(write ? 1 : 0),\"m\":\(manage ? 1 : 0),\"d\":\(delete ? 1 : 0)}"
    }

    /// The seven flags inline, as in the subkey-level response.
    var inlineJSON: String {
        "\"r\":\(read ? 1 : 0),\"w\":\(write ? 1 : 0),\"m\":\(manage ? 1 : 0),\"d\":\(delete ? 1 : 0),"
            + "\"g\":\(get ? 1 : 0),\"u\":\(update ? 1 : 0),\"j\":\(join ? 1 : 0)"
    }
}

/// What a request needs on a resource.
enum Permission: Sendable {
    case read, write, manage, delete
}

/// What a grant applies to.
enum GrantTarget: Hashable, Sendable {
    case subkey
    case channel(String)
    case group(String)
    /// A uuid-level grant (`target-uuid`): stored for completeness; App Context is not served.
    case uuid(String)
}

/// A grant's identity: the target and the auth key (`nil` = every auth key).
struct GrantKey: Hashable, Sendable {
    var target: GrantTarget
    var auth: String?
}

struct GrantRecord: Sendable {
    var permissions: Permissions
    /// Service-clock second at which the grant lapses; `nil` for `ttl=0` (indefinite, as PubNub documents).
    var expiresAt: Int64?
}

extension KeyspaceState {
    /// Whether `auth` holds `permission` on `target` now, through a subkey-level or a target grant,
    /// with or without auth key (levels are OR-ed, as in PAM v2).
    func isAllowed(_ permission: Permission, on target: GrantTarget, auth: String?, now: Int64) -> Bool {
        var keys = [GrantKey(target: .subkey, auth: nil), GrantKey(target: target, auth: nil)]
        if let auth {
            keys.append(GrantKey(target: .subkey, auth: auth))
            keys.append(GrantKey(target: target, auth: auth))
        }
        return keys.contains { key in
            guard let grant = grants[key], grant.expiresAt.map({ now < $0 }) ?? true else { return false }
            switch permission {
            case .read: return grant.permissions.read
            case .write: return grant.permissions.write
            case .manage: return grant.permissions.manage
            case .delete: return grant.permissions.delete
            }
        }
    }

    /// The channels and groups (as named) lacking `permission`. A presence channel or group
    /// (`x-pnpres`) is also allowed by a grant on `x` (decision; PubNub grants `x-pnpres` separately).
    func denied(
        _ permission: Permission, channels: [String], groups: [String], auth: String?, now: Int64
    ) -> (channels: [String], groups: [String]) {
        func allowed(_ name: String, _ make: (String) -> GrantTarget) -> Bool {
            isAllowed(permission, on: make(name), auth: auth, now: now)
                || (ChannelNames.isPresence(name)
                    && isAllowed(permission, on: make(ChannelNames.base(name)), auth: auth, now: now))
        }
        return (
            channels.filter { !allowed($0, GrantTarget.channel) },
            groups.filter { !allowed($0, GrantTarget.group) }
        )
    }
}
