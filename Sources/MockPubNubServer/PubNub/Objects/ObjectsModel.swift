// SPDX-License-Identifier: MIT
import HarnessJSON

/// The two kinds of App Context object with metadata of their own.
enum ObjectKind: String, Sendable, Hashable {
    case uuid
    case channel

    /// The fields a PATCH may set, in the order the service writes them (spec modern §1.4):
    /// the kind's own fields, then `type`, `status`, `custom` (the last three only when included).
    var fields: [String] {
        switch self {
        case .uuid: ["name", "externalId", "profileUrl", "email", "type", "status", "custom"]
        case .channel: ["name", "description", "type", "status", "custom"]
        }
    }

    /// The fields written whatever `include` says.
    var baseFields: [String] { Array(fields.dropLast(3)) }

    /// The 412 message of a stale `If-Match` (recorded 2025).
    var preconditionMessage: String {
        switch self {
        case .uuid: "User to update has been modified after it was read."
        case .channel: "Channel to update has been modified after it was read."
        }
    }
}

/// A uuid's or a channel's metadata: every field a JSON string or `null` (`custom` an object or `null`).
struct ObjectRecord: Sendable, Hashable {
    var kind: ObjectKind
    var id: String
    var values: [String: JSONValue] = [:]
    /// ISO-8601 UTC time of the last write, microseconds with trailing zeros trimmed.
    var updated: String = ""
    /// 32 lowercase hex digits; a new one on every write.
    var eTag: String = ""

    /// The value of `field` (`null` when never set).
    func value(_ field: String) -> JSONValue { values[field] ?? .null }
}

/// A uuid's membership in a channel (the same record answers memberships and members).
struct Membership: Sendable, Hashable {
    var uuid: String
    var channel: String
    var custom: JSONValue = .null
    var status: JSONValue = .null
    var type: JSONValue = .null
    var updated: String = ""
    /// A short base64 text derived from custom, status and type, so equal content has equal
    /// eTags (as recorded: every membership without custom data carried the same eTag).
    var eTag: String = ""

    /// The value of a membership field (`custom`, `status`, `type`, `updated`, `eTag`).
    func value(_ field: String) -> JSONValue {
        switch field {
        case "custom": custom
        case "status": status
        case "type": type
        case "updated": .string(updated)
        case "eTag": .string(eTag)
        default: .null
        }
    }
}

/// Identity of a membership.
struct MembershipKey: Sendable, Hashable {
    var uuid: String
    var channel: String
}

/// All App Context state of one subscribe key.
struct ObjectsStore: Sendable {
    var uuids: [String: ObjectRecord] = [:]
    var channels: [String: ObjectRecord] = [:]
    var memberships: [MembershipKey: Membership] = [:]
    /// The microsecond of the last write, so that every write gets a later `updated`.
    var lastWriteMicros: UInt64 = 0

    /// The records of `kind`.
    func records(_ kind: ObjectKind) -> [String: ObjectRecord] {
        kind == .uuid ? uuids : channels
    }

    func record(_ kind: ObjectKind, _ id: String) -> ObjectRecord? {
        kind == .uuid ? uuids[id] : channels[id]
    }

    mutating func store(_ record: ObjectRecord) {
        if record.kind == .uuid { uuids[record.id] = record } else { channels[record.id] = record }
    }

    mutating func remove(_ kind: ObjectKind, _ id: String) -> ObjectRecord? {
        kind == .uuid ? uuids.removeValue(forKey: id) : channels.removeValue(forKey: id)
    }

    /// A write's `updated` text from a timetoken (100 ns units), strictly later than every earlier one.
    mutating func nextUpdated(timetoken: UInt64) -> String {
        let micros = max(timetoken / 10, lastWriteMicros + 1)
        lastWriteMicros = micros
        return ObjectsTime.iso8601(micros: micros)
    }

    /// The memberships of `uuid` (memberships list) or of `channel` (members list).
    func memberships(uuid: String) -> [Membership] { memberships.values.filter { $0.uuid == uuid } }
    func members(channel: String) -> [Membership] { memberships.values.filter { $0.channel == channel } }

    /// Everything, for the admin API: uuids and channels by id, memberships by uuid then channel.
    var json: JSONValue {
        func sorted(_ table: [String: ObjectRecord]) -> JSONValue {
            .array(table.keys.sorted(by: ObjectsOrder.less).map { ObjectsRendering.object(table[$0]!, include: .all) })
        }
        let keys = memberships.keys.sorted { ($0.uuid, $0.channel) < ($1.uuid, $1.channel) }
        return .object([
            ("uuids", sorted(uuids)), ("channels", sorted(channels)),
            ("memberships", .array(keys.map { key in
                let m = memberships[key]!
                return .object([
                    ("uuid", .string(m.uuid)), ("channel", .string(m.channel)), ("type", m.type), ("status", m.status),
                    ("custom", m.custom), ("updated", .string(m.updated)), ("eTag", .string(m.eTag)),
                ])
            })),
        ])
    }
}

/// The order of ids: UTF-8 byte order (the recorded member list `…-0, …-1, …-10, …-2` is byte
/// order; the live service's collation of `_` differs, see docs/endpoints.md).
enum ObjectsOrder {
    static func less(_ a: String, _ b: String) -> Bool {
        a.utf8.lexicographicallyPrecedes(b.utf8)
    }
}

/// `updated` times: ISO-8601 UTC, microseconds with trailing zeros trimmed (`…53.26682Z`).
enum ObjectsTime {
    static func iso8601(micros: UInt64) -> String {
        let seconds = Int64(micros / 1_000_000)
        var fraction = String(micros % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        func two(_ v: Int64) -> String { v < 10 ? "0" + String(v) : String(v) }
        var text = String(year) + "-" + two(month) + "-" + two(day) + "T" + two(secondOfDay / 3600) + ":"
            + two(secondOfDay / 60 % 60) + ":" + two(secondOfDay % 60)
        if !fraction.isEmpty { text += "." + fraction }
        return text + "Z"
    }

    /// Year, month, day of a day count since 1970-01-01 (the proleptic Gregorian calendar).
    static func civil(fromDays days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
