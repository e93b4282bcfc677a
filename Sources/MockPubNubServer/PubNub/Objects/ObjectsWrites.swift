// SPDX-License-Identifier: MIT
internal import COpenSSL
import HarnessJSON
internal import PubNubCrypto

/// The body of a uuid or channel PATCH: the fields it names, in body order.
struct ObjectPatch: Sendable, Hashable {
    var fields: [(String, JSONValue)]

    static func == (a: ObjectPatch, b: ObjectPatch) -> Bool {
        a.fields.map(\.0) == b.fields.map(\.0) && a.fields.map(\.1) == b.fields.map(\.1)
    }
    func hash(into hasher: inout Hasher) { for (key, value) in fields { hasher.combine(key); hasher.combine(value) } }

    /// Reads the body: a JSON object whose known fields are strings or `null` (`custom` a flat
    /// object of strings, numbers and booleans, or `null`). Unknown keys are ignored.
    /// UNVERIFIED: the live validation rules (lengths, custom value types) were not recorded;
    /// nested custom values are refused as the docs describe.
    static func parse(_ body: [UInt8], kind: ObjectKind) -> Result<ObjectPatch, ObjectsProblem> {
        guard let value = try? JSONValue.parse(body, maxDepth: 16) else { return .failure(.notJSON) }
        guard let object = value.objectValue else { return .failure(.body("", "the body must be a JSON object")) }
        var fields: [(String, JSONValue)] = []
        for (key, field) in object where kind.fields.contains(key) && !fields.contains(where: { $0.0 == key }) {
            if let problem = ObjectPatch.problem(field, key: key, location: kind.rawValue + "." + key) { return .failure(problem) }
            fields.append((key, field))
        }
        return .success(ObjectPatch(fields: fields))
    }

    /// The problem with one field's value, if any.
    static func problem(_ value: JSONValue, key: String, location: String) -> ObjectsProblem? {
        let accepted: Bool = switch value {
        case .null: true
        case .object: key == "custom"
        case .string: key != "custom"
        default: false
        }
        guard accepted else {
            return .body(location, key == "custom" ? "custom must be an object or null" : "\(key) must be a string or null")
        }
        if case .object(let members) = value {
            for (name, item) in members {
                switch item {
                case .string, .number, .bool, .null: continue
                default: return .body(location + "." + name, "custom values must be strings, numbers or booleans")
                }
            }
        }
        return nil
    }
}

/// One item of a membership or member PATCH (`set` or `delete`).
struct MembershipChange: Sendable, Hashable {
    /// The channel (memberships) or uuid (members) id.
    var id: String
    var custom: JSONValue = .null
    var status: JSONValue = .null
    var type: JSONValue = .null
}

/// The body of a membership or member PATCH: `{"set":[…],"delete":[…]}` (either may be absent).
struct MembershipPatch: Sendable, Hashable {
    var set: [MembershipChange] = []
    var delete: [MembershipChange] = []

    /// `key` is `channel` (memberships) or `uuid` (members); items name `{key: {"id": …}}`.
    static func parse(_ body: [UInt8], key: String) -> Result<MembershipPatch, ObjectsProblem> {
        guard let value = try? JSONValue.parse(body, maxDepth: 16) else { return .failure(.notJSON) }
        guard let object = value.objectValue else { return .failure(.body("", "the body must be a JSON object")) }
        var patch = MembershipPatch()
        for list in ["set", "delete"] {
            guard let items = object[list], items != .null else { continue }
            guard let array = items.arrayValue else { return .failure(.body(list, "\(list) must be an array")) }
            for (index, item) in array.enumerated() {
                let location = "\(list)[\(index)]"
                guard let id = item[key]?["id"]?.stringValue, !id.isEmpty else {
                    return .failure(.body(location + "." + key + ".id", "\(key).id must be a non-empty string"))
                }
                var change = MembershipChange(id: id)
                if list == "set" {
                    for field in ["custom", "status", "type"] {
                        let fieldValue = item[field] ?? .null
                        if let problem = ObjectPatch.problem(fieldValue, key: field, location: location + "." + field) {
                            return .failure(problem)
                        }
                    }
                    change.custom = item["custom"] ?? .null
                    change.status = item["status"] ?? .null
                    change.type = item["type"] ?? .null
                }
                if list == "set" { patch.set.append(change) } else { patch.delete.append(change) }
            }
        }
        return .success(patch)
    }
}

/// An App Context event to deliver (spec modern §1.9): its payload and the channels it goes to.
struct ObjectsEvent: Sendable, Hashable {
    var payload: JSONValue
    var channels: [String]

    /// `{"source":"objects","version":"2.0","event":…,"type":…,"data":…}` with `data`'s keys sorted.
    static func make(_ event: String, type: String, data: [(String, JSONValue)], channels: [String]) -> ObjectsEvent {
        let sorted = data.sorted { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
        let payload: JSONValue = .object([
            ("source", .string("objects")), ("version", .string("2.0")), ("event", .string(event)),
            ("type", .string(type)), ("data", .object(JSONObject(sorted))),
        ])
        var unique: [String] = []
        for channel in channels where !unique.contains(channel) { unique.append(channel) }
        return ObjectsEvent(payload: payload, channels: unique)
    }
}

extension ObjectsStore {
    /// Applies a uuid or channel PATCH (an upsert: only the fields in the body change), giving
    /// the object a new `updated` and eTag; returns the record and its `set` event, whose data
    /// holds the changed fields (`null` = removed) plus `id`, `eTag`, `updated`.
    mutating func apply(_ patch: ObjectPatch, kind: ObjectKind, id: String, timetoken: UInt64) -> (ObjectRecord, ObjectsEvent) {
        var record = record(kind, id) ?? ObjectRecord(kind: kind, id: id)
        var changed: [(String, JSONValue)] = []
        for (field, value) in patch.fields where record.value(field) != value {
            record.values[field] = value
            changed.append((field, value))
        }
        record.updated = nextUpdated(timetoken: timetoken)
        record.eTag = ObjectsETag.object(record)
        store(record)
        changed += [("id", .string(id)), ("eTag", .string(record.eTag)), ("updated", .string(record.updated))]
        // Routing INFERRED (spec modern §1.9): an object's events go to the channel named by its id.
        return (record, .make("set", type: kind.rawValue, data: changed, channels: [id]))
    }

    /// Removes a uuid's or channel's metadata; the `delete` event only when there was metadata
    /// (UNVERIFIED). Memberships stay (they are records of their own).
    mutating func delete(_ kind: ObjectKind, id: String) -> ObjectsEvent? {
        guard remove(kind, id) != nil else { return nil }
        return .make("delete", type: kind.rawValue, data: [("id", .string(id))], channels: [id])
    }

    /// Applies a membership (`key` = `channel`, `owner` = the uuid) or member (`key` = `uuid`,
    /// `owner` = the channel) PATCH: every `set` item is stored (replacing custom, status and
    /// type: absent means `null`; UNVERIFIED), then every `delete` item removed.
    mutating func apply(_ patch: MembershipPatch, key: String, owner: String, timetoken: UInt64) -> [ObjectsEvent] {
        func membershipKey(_ other: String) -> MembershipKey {
            key == "channel" ? MembershipKey(uuid: owner, channel: other) : MembershipKey(uuid: other, channel: owner)
        }
        var events: [ObjectsEvent] = []
        for change in patch.set {
            let k = membershipKey(change.id)
            var m = Membership(uuid: k.uuid, channel: k.channel, custom: change.custom, status: change.status, type: change.type)
            m.updated = nextUpdated(timetoken: timetoken)
            m.eTag = ObjectsETag.membership(m)
            memberships[k] = m
            var data: [(String, JSONValue)] = [
                ("channel", .object([("id", .string(m.channel))])), ("uuid", .object([("id", .string(m.uuid))])),
                ("eTag", .string(m.eTag)), ("updated", .string(m.updated)),
            ]
            for (field, value) in [("custom", m.custom), ("status", m.status), ("type", m.type)] where value != .null {
                data.append((field, value))
            }
            // Routing INFERRED (spec modern §1.9, gap 7): the channel's subscribers and the uuid's own channel.
            events.append(.make("set", type: "membership", data: data, channels: [m.channel, m.uuid]))
        }
        for change in patch.delete {
            let k = membershipKey(change.id)
            guard memberships.removeValue(forKey: k) != nil else { continue }
            events.append(.make("delete", type: "membership", data: [
                ("channel", .object([("id", .string(k.channel))])), ("uuid", .object([("id", .string(k.uuid))])),
            ], channels: [k.channel, k.uuid]))
        }
        return events
    }
}

/// eTags: 32 hex digits for objects (a digest of the content and the write's time, so every
/// write gives a new one); for memberships a short base64 text of their content only (as
/// recorded, equal content has equal eTags).
enum ObjectsETag {
    static func object(_ record: ObjectRecord) -> String {
        let content = JSONValue.object(JSONObject(record.kind.fields.map { ($0, record.value($0)) })).jsonText
        return ByteEncoding.hex(md5(Array((record.kind.rawValue + "\n" + record.id + "\n" + content + "\n" + record.updated).utf8)))
    }

    static func membership(_ m: Membership) -> String {
        let content = JSONValue.array([m.custom, m.status, m.type]).jsonText
        var text = ByteEncoding.base64([0x01] + md5(Array(content.utf8)).prefix(9))
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    static func md5(_ bytes: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 16)
        var length: UInt32 = 0
        _ = EVP_Digest(bytes, bytes.count, &digest, &length, EVP_md5(), nil)
        return digest
    }
}
