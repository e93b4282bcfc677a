// SPDX-License-Identifier: MIT

/// The query parameters a publish or signal reads, found in one pass over the query: each is
/// the value of the first item with its name, as `query[name]` finds it.
///
/// Holds the query and the position of each parameter in it (no string of its own to copy or
/// free); names of up to eight bytes are compared as one integer of their bytes.
struct PublishParameters: Sendable {
    private let query: RouteList<QueryItem>
    private var positions: (ptto: Int, meta: Int, customMessageType: Int, store: Int, norep: Int, ttl: Int, seqn: Int,
                            signature: Int) = (-1, -1, -1, -1, -1, -1, -1, -1)

    /// `ptto`: the publish timetoken the client asks for.
    var ptto: String? { value(at: positions.ptto) }
    var meta: String? { value(at: positions.meta) }
    var customMessageType: String? { value(at: positions.customMessageType) }
    var store: String? { value(at: positions.store) }
    var norep: String? { value(at: positions.norep) }
    var ttl: String? { value(at: positions.ttl) }
    var seqn: String? { value(at: positions.seqn) }
    /// `signature`: present on requests signed with the secret key.
    var signature: String? { value(at: positions.signature) }

    init(_ query: [QueryItem]) {
        self.init(.many(query))
    }

    /// The parameters of a route's query as the route holds it (`PubNubRoute.queryList`).
    init(_ query: RouteList<QueryItem>) {
        self.query = query
        switch query {
        case .one(let item):
            note(item.name, at: 0)
        case .many(let items):
            for position in items.indices { note(items[position].name, at: position) }
        }
    }

    /// Notes the item named `name` at `position`, if it is one of the parameters.
    private mutating func note(_ name: String, at position: Int) {
        switch name.utf8.count {
        case 3...5:
            switch Self.key(name) {
            case Self.ttlKey: Self.note(position, in: &positions.ttl)
            case Self.pttoKey: Self.note(position, in: &positions.ptto)
            case Self.metaKey: Self.note(position, in: &positions.meta)
            case Self.seqnKey: Self.note(position, in: &positions.seqn)
            case Self.storeKey: Self.note(position, in: &positions.store)
            case Self.norepKey: Self.note(position, in: &positions.norep)
            default: break
            }
        case 9:
            if name == "signature" { Self.note(position, in: &positions.signature) }
        case 19:
            if name == "custom_message_type" { Self.note(position, in: &positions.customMessageType) }
        default:
            break
        }
    }

    private func value(at position: Int) -> String? {
        position < 0 ? nil : query[position].value
    }

    /// Keeps the first position of a name.
    private static func note(_ position: Int, in slot: inout Int) {
        if slot < 0 { slot = position }
    }

    /// The bytes of a name of at most eight bytes as one integer, first byte highest.
    static func key(_ name: String) -> UInt64 {
        // Read in place (a small string's bytes are on the stack); iterating `utf8` costs more.
        let inPlace = name.utf8.withContiguousStorageIfAvailable { bytes in
            var key: UInt64 = 0
            for byte in bytes { key = key << 8 | UInt64(byte) }
            return key
        }
        if let inPlace { return inPlace }
        var key: UInt64 = 0
        for byte in name.utf8 { key = key << 8 | UInt64(byte) }
        return key
    }

    // `key(name)` of each name, written out so that no lazy initialisation is checked per item
    // (`PublishRequestStateTests` compares them with `key`).
    static let ttlKey: UInt64 = 0x74_74_6C
    static let pttoKey: UInt64 = 0x70_74_74_6F
    static let metaKey: UInt64 = 0x6D_65_74_61
    static let seqnKey: UInt64 = 0x73_65_71_6E
    static let storeKey: UInt64 = 0x73_74_6F_72_65
    static let norepKey: UInt64 = 0x6E_6F_72_65_70
}
