// SPDX-License-Identifier: MIT

/// What a channel name's prefix makes it (spec §4.1).
struct PusherChannelKind: Hashable {
    enum Access: Hashable {
        case `public`
        /// `private-`: auth over `socket_id:channel`.
        case `private`
        /// `private-encrypted-`: auth as private; the server relays ciphertext and refuses client events.
        case encrypted
        /// `presence-`: auth over `socket_id:channel:channel_data`.
        case presence
        /// `#server-to-user-ID`: only the connection signed in as ID.
        case serverToUser(userID: String)
    }

    var access: Access
    /// `cache-`, `private-cache-`, `private-encrypted-cache-`, `presence-cache-`.
    var isCache: Bool

    static let serverToUserPrefix = "#server-to-user-"
    /// Channel names are at most 164 characters (channels.md).
    static let maxNameLength = 164

    init(name: String) {
        if name.hasPrefix(Self.serverToUserPrefix) {
            access = .serverToUser(userID: String(name.dropFirst(Self.serverToUserPrefix.count)))
            isCache = false
        } else if name.hasPrefix("private-encrypted-") {
            access = .encrypted
            isCache = name.hasPrefix("private-encrypted-cache-")
        } else if name.hasPrefix("private-") {
            access = .private
            isCache = name.hasPrefix("private-cache-")
        } else if name.hasPrefix("presence-") {
            access = .presence
            isCache = name.hasPrefix("presence-cache-")
        } else {
            access = .public
            isCache = name.hasPrefix("cache-")
        }
    }

    /// Whether a subscription needs an `auth` value signed with the app secret.
    var needsSignature: Bool { access == .private || access == .encrypted || access == .presence }
    var isPresence: Bool { access == .presence }
    /// Client events are accepted on private and presence channels only (spec §3.6).
    var acceptsClientEvents: Bool { access == .private || access == .presence }

    /// `[-a-zA-Z0-9_=@,.;]`, 1...164 characters; `#` only as the reserved server-to-user prefix.
    static func isValidName(_ name: String) -> Bool {
        let body = name.hasPrefix(serverToUserPrefix) ? Substring(name.dropFirst(serverToUserPrefix.count)) : Substring(name)
        guard !body.isEmpty, name.utf8.count <= maxNameLength else { return false }
        return body.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "="), UInt8(ascii: "@"), UInt8(ascii: ","), UInt8(ascii: "."),
                UInt8(ascii: ";"):
                true
            default: false
            }
        }
    }
}
