// SPDX-License-Identifier: MIT
import HarnessJSON

/// The App Context answers, with the recorded key order (spec modern §1.4).
enum ObjectsRendering {
    /// A uuid or channel object: `id`, the kind's own fields, then `type`, `status`, `custom` when
    /// included, then `updated`, `eTag`.
    static func object(_ record: ObjectRecord, include: ObjectsInclude) -> JSONValue {
        var members: [(String, JSONValue)] = [("id", .string(record.id))]
        for field in record.kind.baseFields { members.append((field, record.value(field))) }
        if include.type { members.append(("type", record.value("type"))) }
        if include.status { members.append(("status", record.value("status"))) }
        if include.custom { members.append(("custom", record.value("custom"))) }
        members.append(("updated", .string(record.updated)))
        members.append(("eTag", .string(record.eTag)))
        return .object(JSONObject(members))
    }

    /// One membership (`key` = `channel`) or member (`key` = `uuid`) item: the other side (just
    /// `{"id"}` unless included and it has metadata), then `type`, `status`, `custom` when
    /// included, `updated`, `eTag`.
    static func membership(_ m: Membership, key: String, other: ObjectRecord?, include: ObjectsInclude) -> JSONValue {
        let otherID = key == "channel" ? m.channel : m.uuid
        let embedded: JSONValue
        if include.embedded, let other {
            embedded = object(other, include: include.embeddedAsObject)
        } else {
            embedded = .object([("id", .string(otherID))])
        }
        var members: [(String, JSONValue)] = [(key, embedded)]
        if include.type { members.append(("type", m.type)) }
        if include.status { members.append(("status", m.status)) }
        if include.custom { members.append(("custom", m.custom)) }
        members.append(("updated", .string(m.updated)))
        members.append(("eTag", .string(m.eTag)))
        return .object(JSONObject(members))
    }

    /// `{"status":200,"data":…}` (a single object, or `null` after a removal).
    static func single(_ data: JSONValue) -> String {
        JSONValue.object([("status", .int(200)), ("data", data)]).jsonText
    }

    /// `{"status":200,"data":[…],"totalCount":N,"next":…,"prev":…}`, optional members left out.
    static func list(_ items: [JSONValue], totalCount: Int?, next: String?, prev: String?) -> String {
        var members: [(String, JSONValue)] = [("status", .int(200)), ("data", .array(items))]
        if let totalCount { members.append(("totalCount", .int(totalCount))) }
        if let next { members.append(("next", .string(next))) }
        if let prev { members.append(("prev", .string(prev))) }
        return JSONValue.object(JSONObject(members)).jsonText
    }
}

/// The App Context error answers: `{"status":N,"error":{"message":…,"source":"objects"[,"details":[…]]}}`,
/// `application/json` (recorded for 412; the other texts are the SDK test fixtures' and UNVERIFIED).
enum ObjectsErrors {
    static func error(_ status: Int, _ message: String, details: [(message: String, location: String, type: String)] = []) -> HTTPResponse {
        var error: [(String, JSONValue)] = [("message", .string(message)), ("source", .string("objects"))]
        if !details.isEmpty {
            error.append(("details", .array(details.map {
                .object([("message", .string($0.message)), ("location", .string($0.location)), ("locationType", .string($0.type))])
            })))
        }
        let body = JSONValue.object([("status", .int(status)), ("error", .object(JSONObject(error)))]).jsonText
        return .pubNub(status, body, .json)
    }

    /// 412: the object changed since the `If-Match` eTag was read (recorded 2025).
    static func preconditionFailed(_ kind: ObjectKind) -> HTTPResponse { error(412, kind.preconditionMessage) }

    /// 404: GET of an object without metadata.
    static func notFound() -> HTTPResponse { error(404, "Requested object was not found.") }

    /// 403: the request's auth key lacks the permission.
    static func forbidden() -> HTTPResponse {
        error(403, "Supplied authorization key does not have the permissions required to perform this operation.")
    }

    /// The 400 (or 415) for a refused request.
    static func response(_ problem: ObjectsProblem) -> HTTPResponse {
        switch problem {
        case .notJSON:
            return error(415, "Request payload must be in JSON format.")
        case .body(let location, let message):
            return error(400, "Request payload contained invalid input.", details: [(message, location, "body")])
        case .query(let location, let message):
            return error(400, "Request parameters contained invalid input.", details: [(message, location, "query")])
        case .filter(let message):
            return error(400, "Invalid filter expression.", details: [(message, "filter", "query")])
        }
    }
}
