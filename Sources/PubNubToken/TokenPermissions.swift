// SPDX-License-Identifier: MIT

/// The permission bits of an Access Manager v3 grant (the official SDKs' `PAMPermissions`).
public struct TokenPermissions: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let read = TokenPermissions(rawValue: 1)
    public static let write = TokenPermissions(rawValue: 2)
    public static let manage = TokenPermissions(rawValue: 4)
    public static let delete = TokenPermissions(rawValue: 8)
    /// Legacy; granted and carried, never required by an operation.
    public static let create = TokenPermissions(rawValue: 16)
    public static let get = TokenPermissions(rawValue: 32)
    public static let update = TokenPermissions(rawValue: 64)
    public static let join = TokenPermissions(rawValue: 128)

    /// Every bit by its name, in bit order (as clients present a parsed token).
    public static let named: [(name: String, bit: TokenPermissions)] = [
        ("read", .read), ("write", .write), ("manage", .manage), ("delete", .delete),
        ("create", .create), ("get", .get), ("update", .update), ("join", .join),
    ]
}

/// The kinds of resource a token grants on, with their CBOR keys (`res`/`pat` members) in the
/// order the live service writes them.
public enum TokenResourceKind: String, Sendable, Hashable, CaseIterable {
    case channels = "chan"
    case groups = "grp"
    /// The legacy alias of channels (`spaces` in a grant body).
    case spaces = "spc"
    /// The legacy alias of uuids (`users` in a grant body).
    case users = "usr"
    case uuids = "uuid"

    /// The member name in a grant request body's `resources` / `patterns`.
    public var bodyName: String {
        switch self {
        case .channels: "channels"
        case .groups: "groups"
        case .spaces: "spaces"
        case .users: "users"
        case .uuids: "uuids"
        }
    }
}

/// One resource (or pattern) and the permission mask granted on it.
public struct TokenGrantEntry: Sendable, Hashable {
    public var name: String
    public var mask: Int

    public init(name: String, mask: Int) {
        self.name = name
        self.mask = mask
    }

    public var permissions: TokenPermissions { TokenPermissions(rawValue: mask) }
}

/// The grants of one side of a token (`res` or `pat`): entries per kind, in the order granted.
public struct TokenGrants: Sendable, Hashable {
    public var entries: [TokenResourceKind: [TokenGrantEntry]]

    public init(entries: [TokenResourceKind: [TokenGrantEntry]] = [:]) {
        self.entries = entries
    }

    public subscript(kind: TokenResourceKind) -> [TokenGrantEntry] {
        get { entries[kind] ?? [] }
        set { entries[kind] = newValue }
    }

    /// Whether nothing is granted.
    public var isEmpty: Bool { entries.values.allSatisfy(\.isEmpty) }
}
