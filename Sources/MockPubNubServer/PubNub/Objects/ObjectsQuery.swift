// SPDX-License-Identifier: MIT
internal import PubNubCrypto

/// What `include` asks for (spec modern §1.2). For memberships and members, `custom`, `status`
/// and `type` are the membership's own, `channel…` / `uuid…` the embedded object's; the
/// `totalCount` token is ignored (recorded: only `count=true` adds `totalCount`).
struct ObjectsInclude: Sendable, Hashable {
    var custom = false, status = false, type = false
    /// The embedded channel (memberships) or uuid (members) with its metadata.
    var embedded = false
    var embeddedCustom = false, embeddedStatus = false, embeddedType = false

    /// Everything (the admin API's view).
    static let all = ObjectsInclude(custom: true, status: true, type: true, embedded: true,
                                    embeddedCustom: true, embeddedStatus: true, embeddedType: true)

    /// Parses the comma list; `prefix` names the embedded object (`channel` or `uuid`). Tokens
    /// may repeat (js sends `status` twice); unknown tokens are ignored (UNVERIFIED: the live
    /// answer to an unknown token is not recorded).
    static func parse(_ text: String?, prefix: String) -> ObjectsInclude {
        var include = ObjectsInclude()
        for raw in (text ?? "").split(separator: ",") {
            let token = raw.trimmingSpaces
            switch token {
            case "custom": include.custom = true
            case "status": include.status = true
            case "type": include.type = true
            case prefix: include.embedded = true
            case prefix + ".custom": include.embedded = true; include.embeddedCustom = true
            case prefix + ".status": include.embedded = true; include.embeddedStatus = true
            case prefix + ".type": include.embedded = true; include.embeddedType = true
            default: break
            }
        }
        return include
    }

    /// The include of the embedded object, as a single object's include.
    var embeddedAsObject: ObjectsInclude {
        ObjectsInclude(custom: embeddedCustom, status: embeddedStatus, type: embeddedType)
    }
}

/// One `sort` key: a field and its direction.
struct ObjectsSortKey: Sendable, Hashable {
    var field: String
    var descending: Bool
}

/// The list parameters of a request: include, count, limit, sort, filter, page cursor.
struct ObjectsListQuery: Sendable {
    var include: ObjectsInclude
    var count: Bool
    var limit: Int
    var sort: [ObjectsSortKey]
    var filter: ObjectsFilter.Expression?
    /// The page: items from `offset` on (`start`), or the `limit` items before `offset` (`end`).
    var offset: Int
    var before: Bool

    /// The default and largest `limit` (js sends 100 on every list; pubnub/skills names 100 as the maximum).
    static let defaultLimit = 100
    static let maximumLimit = 100

    /// Reads the query of a list (or single-object) request on `resource`; a problem is a 400.
    static func parse(_ query: [QueryItem], resource: ObjectsResource) -> Result<ObjectsListQuery, ObjectsProblem> {
        let prefix: String
        let sortable: Set<String>
        switch resource {
        case .memberships:
            prefix = "channel"
            sortable = ["channel.id", "channel.name", "channel.updated", "channel.status", "channel.type", "updated", "status", "type"]
        case .members:
            prefix = "uuid"
            sortable = ["uuid.id", "uuid.name", "uuid.updated", "uuid.status", "uuid.type", "updated", "status", "type"]
        default:
            prefix = ""
            sortable = ["id", "name", "updated", "status", "type"]
        }
        var result = ObjectsListQuery(
            include: .parse(query["include"], prefix: prefix), count: query["count"]?.lowercased() == "true",
            limit: defaultLimit, sort: [], filter: nil, offset: 0, before: false)
        if let text = query["limit"], !text.isEmpty {
            guard text.utf8.count <= 9, let value = Int(text), (0...maximumLimit).contains(value) else {
                return .failure(.query("limit", "must be an integer between 0 and \(maximumLimit)"))
            }
            result.limit = value
        }
        for item in query where item.name == "sort" {
            for part in item.value.split(separator: ",") {
                let pieces = part.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map { $0.trimmingSpaces }
                let field = pieces.first ?? ""
                let direction = pieces.count > 1 ? pieces[1].lowercased() : "asc"
                guard sortable.contains(field), direction == "asc" || direction == "desc" else {
                    return .failure(.query("sort", "unsupported sort key \"\(part)\""))
                }
                result.sort.append(ObjectsSortKey(field: field, descending: direction == "desc"))
            }
        }
        if let text = query["filter"], !text.isEmpty {
            switch ObjectsFilter.parse(text) {
            case .success(let expression): result.filter = expression
            case .failure(let error): return .failure(.filter(error.description))
            }
        }
        if let start = query["start"], !start.isEmpty {
            guard let offset = ObjectsCursor.offset(start) else { return .failure(.query("start", "invalid page cursor")) }
            result.offset = offset
        } else if let end = query["end"], !end.isEmpty {
            guard let offset = ObjectsCursor.offset(end) else { return .failure(.query("end", "invalid page cursor")) }
            result.offset = offset
            result.before = true
        }
        return .success(result)
    }

    /// The page of `items` this query selects, and its cursors (spec modern §1.5): `next` whenever
    /// the page is not empty (the last page too), `prev` when the page does not start at 0.
    func page<T>(_ items: [T]) -> (items: ArraySlice<T>, next: String?, prev: String?) {
        let lower = before ? max(0, offset - limit) : min(offset, items.count)
        let upper = before ? min(offset, items.count) : min(items.count, offset + limit)
        let slice = lower < upper ? items[lower..<upper] : items[items.count..<items.count]
        let next = slice.isEmpty ? nil : ObjectsCursor.text(upper)
        let prev = slice.isEmpty || lower == 0 ? nil : ObjectsCursor.text(lower)
        return (slice, next, prev)
    }
}

/// Page cursors: base64 without padding of the decimal offset (recorded `MQ` = 1, `MTA` = 10).
enum ObjectsCursor {
    static func text(_ offset: Int) -> String {
        var text = ByteEncoding.base64(Array(String(offset).utf8))
        while text.hasSuffix("=") { text.removeLast() }
        return text
    }

    static func offset(_ cursor: String) -> Int? {
        guard cursor.utf8.count <= 16 else { return nil }
        var padded = cursor
        while padded.utf8.count % 4 != 0 { padded += "=" }
        guard let bytes = try? ByteEncoding.bytes(fromBase64: padded), !bytes.isEmpty, bytes.count <= 9,
            bytes.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int(String(decoding: bytes, as: UTF8.self))
        else { return nil }
        return value
    }
}

/// A request the service refuses before touching state.
enum ObjectsProblem: Error, Sendable, Hashable {
    /// A query parameter (`limit`, `sort`, `start`, `end`) with an unusable value.
    case query(String, String)
    /// A filter expression that does not parse.
    case filter(String)
    /// A body that is not JSON.
    case notJSON
    /// A body field with an unusable value (location in the body, what is wrong).
    case body(String, String)
}
