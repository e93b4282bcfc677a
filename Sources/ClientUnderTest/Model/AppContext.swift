// SPDX-License-Identifier: MIT

/// The list options of App Context calls (spec modern §1.2): what to include, page size and
/// cursor, order, filter, and whether to ask for `totalCount`.
public struct PNAppContextQuery: Sendable, Equatable {
    /// `include` tokens as the service names them: `custom`, `status`, `type`, and for
    /// memberships/members `channel`, `channel.custom`, `channel.status`, `channel.type` /
    /// `uuid`, `uuid.custom`, `uuid.status`, `uuid.type`.
    public var include: [String]
    /// Page size (the service's default and maximum is 100); `nil` sends none.
    public var limit: Int?
    /// Sort keys, `field` or `field:asc` / `field:desc`, in priority order.
    public var sort: [String]
    /// An App Context filter expression.
    public var filter: String?
    /// The next-page cursor (a previous result's `next`).
    public var start: String?
    /// The previous-page cursor (a previous result's `prev`); ignored when `start` is set.
    public var end: String?
    /// Asks for `totalCount` (`count=true`).
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
}

/// One channel (memberships) or uuid (members) to set, with the membership's own data.
public struct PNMembershipInput: Sendable, Equatable {
    public var id: String
    public var custom: JSONValue?
    public var status: String?
    public var type: String?

    public init(id: String, custom: JSONValue? = nil, status: String? = nil, type: String? = nil) {
        self.id = id
        self.custom = custom
        self.status = status
        self.type = type
    }
}

/// A uuid's or channel's metadata as the service answered it (`data`), with its id and eTag.
public struct PNAppContextObjectResult: Sendable, Equatable {
    /// The object as answered, every included field in the service's order.
    public let data: JSONValue
    public var id: String? { data["id"]?.stringValue }
    /// The eTag to send as `If-Match` to update only this version.
    public var eTag: String? { data["eTag"]?.stringValue }
}

/// A page of uuids, channels, memberships or members.
public struct PNAppContextListResult: Sendable, Equatable {
    public let data: [JSONValue]
    /// Present when `includeCount` was asked for.
    public let totalCount: Int?
    /// The cursor of the next page (the service sends it whenever the page is not empty).
    public let next: String?
    /// The cursor of the previous page (from the second page on).
    public let prev: String?
}

/// An App Context event received over subscribe (envelope `e` = 2): a uuid's, channel's or
/// membership's metadata set or deleted.
public struct PNAppContextEvent: Sendable, Equatable {
    /// The channel the event arrived on.
    public let channel: String
    public let subscription: String?
    public let timetoken: UInt64
    /// `set` or `delete`.
    public let event: String
    /// `uuid`, `channel` or `membership`.
    public let type: String
    /// The changed fields (`null` = removed) with `id`, `eTag`, `updated`; ids only for a delete.
    public let data: JSONValue
}
