// SPDX-License-Identifier: MIT
import HarnessJSON

/// App Context (`/v2/objects/{sub}/…`, spec modern §1): requests and parsers.
enum AppContextEndpoints {
    static func base(_ subscribeKey: String) -> String { "/v2/objects/\(PercentEncoding.encode(subscribeKey))" }

    /// The query of a call: `include` (comma list), and for lists `count`, `limit`, `sort`, `filter`, `start`/`end`.
    static func query(_ options: PNAppContextQuery, list: Bool) -> [(String, String)] {
        var query: [(String, String)] = []
        if !options.include.isEmpty { query.append(("include", options.include.joined(separator: ","))) }
        guard list else { return query }
        if options.includeCount { query.append(("count", "true")) }
        if let limit = options.limit { query.append(("limit", String(limit))) }
        if !options.sort.isEmpty { query.append(("sort", options.sort.joined(separator: ","))) }
        if let filter = options.filter { query.append(("filter", filter)) }
        if let start = options.start { query.append(("start", start)) } else if let end = options.end { query.append(("end", end)) }
        return query
    }

    /// The body of a membership (`key` = `channel`) or member (`key` = `uuid`) PATCH.
    static func membershipBody(key: String, set: [PNMembershipInput], remove: [String]) -> [UInt8] {
        func item(_ input: PNMembershipInput) -> JSONValue {
            var members: [(String, JSONValue)] = [(key, .object([("id", .string(input.id))]))]
            if let custom = input.custom { members.append(("custom", custom)) }
            if let status = input.status { members.append(("status", .string(status))) }
            if let type = input.type { members.append(("type", .string(type))) }
            return .object(JSONObject(members))
        }
        let body: JSONValue = .object([
            ("set", .array(set.map(item))),
            ("delete", .array(remove.map { .object([(key, .object([("id", .string($0))]))]) })),
        ])
        return body.jsonBytes
    }

    static func parseObject(_ body: JSONValue) -> PNAppContextObjectResult? {
        guard body["status"] != nil, let data = body["data"], data.objectValue != nil else { return nil }
        return PNAppContextObjectResult(data: data)
    }

    static func parseList(_ body: JSONValue) -> PNAppContextListResult? {
        guard body["status"] != nil, let items = body["data"]?.arrayValue else { return nil }
        return PNAppContextListResult(data: items, totalCount: body["totalCount"]?.intValue,
                                      next: body["next"]?.stringValue, prev: body["prev"]?.stringValue)
    }

    /// The App Context event of an `e` = 2 envelope, if the payload has its shape.
    static func event(from envelope: SubscribeEnvelope) -> PNAppContextEvent? {
        let d = envelope.payload
        guard d["source"]?.stringValue == "objects", let event = d["event"]?.stringValue, let type = d["type"]?.stringValue,
            let data = d["data"]
        else { return nil }
        return PNAppContextEvent(channel: envelope.channel, subscription: envelope.subscription, timetoken: envelope.timetoken,
                                 event: event, type: type, data: data)
    }
}
