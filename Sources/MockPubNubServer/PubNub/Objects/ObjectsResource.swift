// SPDX-License-Identifier: MIT

/// What an App Context request (`/v2/objects/{sub}/…`, spec modern §1.1) is about.
enum ObjectsResource: Sendable, Hashable {
    /// `/uuids`: the list of uuid metadata.
    case uuids
    /// `/uuids/{uuid}`: one uuid's metadata.
    case uuid(String)
    /// `/channels`: the list of channel metadata.
    case channels
    /// `/channels/{channel}`: one channel's metadata.
    case channel(String)
    /// `/uuids/{uuid}/channels`: the channels a uuid is a member of.
    case memberships(uuid: String)
    /// `/channels/{channel}/uuids`: the uuids that are members of a channel.
    case members(channel: String)

    /// The resource named by the (decoded) path segments after `/v2/objects/{sub}`, if the
    /// method applies to it: GET everywhere, PATCH on single objects and on membership lists,
    /// DELETE on single objects.
    static func parse(_ rest: ArraySlice<String>, method: String) -> ObjectsResource? {
        let s = Array(rest)
        let resource: ObjectsResource
        switch s.count {
        case 1 where s[0] == "uuids": resource = .uuids
        case 1 where s[0] == "channels": resource = .channels
        case 2 where s[0] == "uuids" && !s[1].isEmpty: resource = .uuid(s[1])
        case 2 where s[0] == "channels" && !s[1].isEmpty: resource = .channel(s[1])
        case 3 where s[0] == "uuids" && s[2] == "channels" && !s[1].isEmpty: resource = .memberships(uuid: s[1])
        case 3 where s[0] == "channels" && s[2] == "uuids" && !s[1].isEmpty: resource = .members(channel: s[1])
        default: return nil
        }
        switch (method, resource) {
        case ("GET", _), ("HEAD", _): return resource
        case ("PATCH", .uuid), ("PATCH", .channel), ("PATCH", .memberships), ("PATCH", .members): return resource
        case ("DELETE", .uuid), ("DELETE", .channel): return resource
        default: return nil
        }
    }

    /// The channel the resource names, if any (so fault rules aimed at a channel match).
    var channel: String? {
        switch self {
        case .channel(let id), .members(let id): id
        default: nil
        }
    }

    /// The uuid the resource names, if any.
    var uuid: String? {
        switch self {
        case .uuid(let id), .memberships(let id): id
        default: nil
        }
    }

    /// Whether the answer is a paginated list.
    var isList: Bool {
        switch self {
        case .uuids, .channels, .memberships, .members: true
        case .uuid, .channel: false
        }
    }
}

extension PubNubRoute {
    /// Classifies `/v2/objects/{sub}/…` (`s` = the segments after `objects`).
    static func classifyObjects(_ s: ArraySlice<String>, method: String, route base: PubNubRoute) -> Result<PubNubRoute, RouteError> {
        guard let key = s.first, let resource = ObjectsResource.parse(s.dropFirst(), method: method) else {
            return .failure(.notFound)
        }
        var route = base
        route.endpoint = .objects
        route.subscribeKey = key
        route.channels = resource.channel.map { [$0] } ?? []
        route.targetUUID = resource.uuid
        return .success(route)
    }

    /// The App Context resource of an `objects` route, re-read from the request path.
    static func objectsResource(_ request: HTTPRequest) -> ObjectsResource? {
        guard let segments = request.pathSegments, segments.count >= 4, segments[0] == "v2", segments[1] == "objects" else {
            return nil
        }
        return ObjectsResource.parse(segments.dropFirst(3), method: request.method)
    }
}
