// SPDX-License-Identifier: MIT
import HarnessJSON

/// The list options of App Context operations (spec modern §1.2).
public struct AppContextListOptions: Sendable, Hashable {
    /// `include` tokens (`custom`, `status`, `type`, `channel.custom`, `uuid.custom`, …).
    public var include: [String]
    public var limit: Int?
    /// `field` or `field:asc|desc`, in priority order.
    public var sort: [String]
    public var filter: String?
    /// A page cursor; `{next}` / `{prev}` stand for the last result's cursors.
    public var start: String?
    public var end: String?
    public var includeCount: Bool

    public init(include: [String] = [], limit: Int? = nil, sort: [String] = [], filter: String? = nil,
                start: String? = nil, end: String? = nil, includeCount: Bool = false) {
        self.include = include
        self.limit = limit
        self.sort = sort
        self.filter = filter
        self.start = start
        self.end = end
        self.includeCount = includeCount
    }

    var driverFields: [String: JSONValue] {
        var fields: [String: JSONValue] = ["include": .array(include.map { .string($0) }), "sort": .array(sort.map { .string($0) }),
                                           "includeCount": .bool(includeCount)]
        if let limit { fields["limit"] = .int(limit) }
        if let filter { fields["filter"] = .string(filter) }
        if let start { fields["start"] = .string(start) }
        if let end { fields["end"] = .string(end) }
        return fields
    }
}

/// One channel (memberships) or uuid (members) to set, with the membership's own data.
public struct AppContextMembership: Sendable, Hashable {
    public var id: String
    public var custom: JSONValue?
    public var status: String?
    public var type: String?

    public init(_ id: String, custom: JSONValue? = nil, status: String? = nil, type: String? = nil) {
        self.id = id
        self.custom = custom
        self.status = status
        self.type = type
    }

    var driverValue: JSONValue {
        var fields: [String: JSONValue] = ["id": .string(id)]
        if let custom { fields["custom"] = custom }
        if let status { fields["status"] = .string(status) }
        if let type { fields["type"] = .string(type) }
        return .object(JSONObject(fields))
    }
}

/// App Context operations (spec modern §1). Results: single objects as `{"data": {…}}`, lists as
/// `{"data": […], "totalCount"?, "next"?, "prev"?}`, removals as acknowledgments. `uuid: nil`
/// means the client's own uuid; `ifMatchesETag: "{eTag}"` the last result's `data.eTag`.
public enum AppContextOperation: Sendable, Hashable {
    case getUUIDMetadata(uuid: String?, include: [String])
    case setUUIDMetadata(uuid: String?, metadata: JSONValue, include: [String], ifMatchesETag: String?)
    case removeUUIDMetadata(uuid: String?)
    case getAllUUIDMetadata(AppContextListOptions)
    case getChannelMetadata(channel: String, include: [String])
    case setChannelMetadata(channel: String, metadata: JSONValue, include: [String], ifMatchesETag: String?)
    case removeChannelMetadata(channel: String)
    case getAllChannelMetadata(AppContextListOptions)
    case getMemberships(uuid: String?, AppContextListOptions)
    case setMemberships(uuid: String?, channels: [AppContextMembership], AppContextListOptions)
    case removeMemberships(uuid: String?, channels: [String], AppContextListOptions)
    case manageMemberships(uuid: String?, set: [AppContextMembership], remove: [String], AppContextListOptions)
    case getMembers(channel: String, AppContextListOptions)
    case setMembers(channel: String, uuids: [AppContextMembership], AppContextListOptions)
    case removeMembers(channel: String, uuids: [String], AppContextListOptions)
    case manageMembers(channel: String, set: [AppContextMembership], remove: [String], AppContextListOptions)

    /// The operation's name on the driver protocol.
    public var name: String {
        switch self {
        case .getUUIDMetadata: "getUUIDMetadata"
        case .setUUIDMetadata: "setUUIDMetadata"
        case .removeUUIDMetadata: "removeUUIDMetadata"
        case .getAllUUIDMetadata: "getAllUUIDMetadata"
        case .getChannelMetadata: "getChannelMetadata"
        case .setChannelMetadata: "setChannelMetadata"
        case .removeChannelMetadata: "removeChannelMetadata"
        case .getAllChannelMetadata: "getAllChannelMetadata"
        case .getMemberships: "getMemberships"
        case .setMemberships: "setMemberships"
        case .removeMemberships: "removeMemberships"
        case .manageMemberships: "manageMemberships"
        case .getMembers: "getMembers"
        case .setMembers: "setMembers"
        case .removeMembers: "removeMembers"
        case .manageMembers: "manageMembers"
        }
    }

    /// The fields of the driver-protocol object besides `type` (docs/driver-protocol.md).
    public var driverFields: [String: JSONValue] {
        var fields: [String: JSONValue] = [:]
        func strings(_ list: [String]) -> JSONValue { .array(list.map { .string($0) }) }
        func put(_ key: String, _ value: String?) { if let value { fields[key] = .string(value) } }
        func merge(_ options: AppContextListOptions) { fields.merge(options.driverFields) { $1 } }
        switch self {
        case .getUUIDMetadata(let uuid, let include):
            put("uuid", uuid)
            fields["include"] = strings(include)
        case .setUUIDMetadata(let uuid, let metadata, let include, let eTag):
            put("uuid", uuid)
            fields["metadata"] = metadata
            fields["include"] = strings(include)
            put("ifMatchesETag", eTag)
        case .removeUUIDMetadata(let uuid):
            put("uuid", uuid)
        case .getAllUUIDMetadata(let options), .getAllChannelMetadata(let options):
            merge(options)
        case .getChannelMetadata(let channel, let include):
            fields["channel"] = .string(channel)
            fields["include"] = strings(include)
        case .setChannelMetadata(let channel, let metadata, let include, let eTag):
            fields["channel"] = .string(channel)
            fields["metadata"] = metadata
            fields["include"] = strings(include)
            put("ifMatchesETag", eTag)
        case .removeChannelMetadata(let channel):
            fields["channel"] = .string(channel)
        case .getMemberships(let uuid, let options):
            put("uuid", uuid)
            merge(options)
        case .setMemberships(let uuid, let channels, let options):
            put("uuid", uuid)
            fields["set"] = .array(channels.map(\.driverValue))
            merge(options)
        case .removeMemberships(let uuid, let channels, let options):
            put("uuid", uuid)
            fields["remove"] = strings(channels)
            merge(options)
        case .manageMemberships(let uuid, let set, let remove, let options):
            put("uuid", uuid)
            fields["set"] = .array(set.map(\.driverValue))
            fields["remove"] = strings(remove)
            merge(options)
        case .getMembers(let channel, let options):
            fields["channel"] = .string(channel)
            merge(options)
        case .setMembers(let channel, let uuids, let options):
            fields["channel"] = .string(channel)
            fields["set"] = .array(uuids.map(\.driverValue))
            merge(options)
        case .removeMembers(let channel, let uuids, let options):
            fields["channel"] = .string(channel)
            fields["remove"] = strings(uuids)
            merge(options)
        case .manageMembers(let channel, let set, let remove, let options):
            fields["channel"] = .string(channel)
            fields["set"] = .array(set.map(\.driverValue))
            fields["remove"] = strings(remove)
            merge(options)
        }
        return fields
    }

    /// The operation with `{eTag}`, `{next}` and `{prev}` replaced by the values of `last`
    /// (a previous result's `data`): its object's eTag, its page cursors.
    func resolving(_ last: JSONValue?) -> AppContextOperation {
        func value(_ text: String?) -> String? {
            switch text {
            case "{eTag}": last?["data"]?["eTag"]?.stringValue ?? text
            case "{next}": last?["next"]?.stringValue ?? text
            case "{prev}": last?["prev"]?.stringValue ?? text
            default: text
            }
        }
        func page(_ o: AppContextListOptions) -> AppContextListOptions {
            var copy = o
            copy.start = value(o.start)
            copy.end = value(o.end)
            return copy
        }
        switch self {
        case .setUUIDMetadata(let uuid, let metadata, let include, let eTag):
            return .setUUIDMetadata(uuid: uuid, metadata: metadata, include: include, ifMatchesETag: value(eTag))
        case .setChannelMetadata(let channel, let metadata, let include, let eTag):
            return .setChannelMetadata(channel: channel, metadata: metadata, include: include, ifMatchesETag: value(eTag))
        case .getAllUUIDMetadata(let o): return .getAllUUIDMetadata(page(o))
        case .getAllChannelMetadata(let o): return .getAllChannelMetadata(page(o))
        case .getMemberships(let uuid, let o): return .getMemberships(uuid: uuid, page(o))
        case .getMembers(let channel, let o): return .getMembers(channel: channel, page(o))
        default: return self
        }
    }
}

/// An App Context event a client's listener received (envelope `e` = 2).
public struct AppContextEvent: Sendable, Hashable {
    public var channel: String
    /// `set` or `delete`.
    public var event: String
    /// `uuid`, `channel` or `membership`.
    public var type: String
    public var data: JSONValue

    public init(channel: String, event: String, type: String, data: JSONValue) {
        self.channel = channel
        self.event = event
        self.type = type
        self.data = data
    }
}

/// An App Context event a case expects; `data` must be contained in the event's data.
public struct ExpectedAppContextEvent: Sendable, Hashable {
    public var channel: String
    public var event: String
    public var type: String
    public var data: JSONValue?

    public init(channel: String, event: String, type: String, data: JSONValue? = nil) {
        self.channel = channel
        self.event = event
        self.type = type
        self.data = data
    }

    func matches(_ e: AppContextEvent) -> Bool {
        e.channel == channel && e.event == event && e.type == type && (data.map { e.data.contains($0) } ?? true)
    }
}
