// SPDX-License-Identifier: MIT
import HarnessJSON

/// App Context (`/v2/objects/{sub}/…`, spec modern §1): uuid and channel metadata, memberships
/// and members, over the subscribe key's ``ObjectsStore``; every change is also announced to
/// subscribers (envelope `e` = 2).
extension PubNubService {
    /// The largest PATCH body read (UNVERIFIED: the live limit is not recorded).
    static let maxObjectsBodyBytes = 64 * 1024

    func objects(_ route: PubNubRoute, request: HTTPRequest) -> HTTPResponse {
        guard let resource = PubNubRoute.objectsResource(request) else { return PubNubErrors.notFound(path: request.rawPath) }
        let query: ObjectsListQuery
        switch ObjectsListQuery.parse(route.query, resource: resource) {
        case .success(let parsed): query = parsed
        case .failure(let problem): return ObjectsErrors.response(problem)
        }
        var body: [UInt8] = []
        if request.method == "PATCH" {
            switch ContentDecoding.body(of: request, limit: Self.maxObjectsBodyBytes) {
            case .success(let bytes): body = bytes
            case .failure(.tooLarge): return ObjectsErrors.error(413, "Request payload is too large.")
            case .failure(.corrupt): return ObjectsErrors.response(.notJSON)
            }
        }
        let ifMatch = request.headers["If-Match"]
        return withState(route.subscribeKey ?? "") { state, outbox, env in
            if let denied = objectsDenial(resource, method: request.method, route: route, state: state, env: env) { return denied }
            let (response, events) = Self.objectsAnswer(
                resource, method: request.method, query: query, body: body, ifMatch: ifMatch,
                store: &state.objects, timetoken: env.timetokens.next())
            for event in events {
                let text = event.payload.jsonText
                for channel in event.channels {
                    state.append(
                        StoredMessage(timetoken: env.timetokens.next(), channel: channel, kind: .objects, payload: text,
                                      inHistory: false, live: true),
                        env: env, outbox: &outbox)
                }
            }
            return response
        }
    }

    /// The answer to one App Context request and the events it causes (pure over the store).
    static func objectsAnswer(
        _ resource: ObjectsResource, method: String, query: ObjectsListQuery, body: [UInt8], ifMatch: String?,
        store: inout ObjectsStore, timetoken: UInt64
    ) -> (HTTPResponse, [ObjectsEvent]) {
        func ok(_ text: String) -> HTTPResponse { .pubNub(200, text, .json) }
        switch (method, resource) {
        case ("PATCH", .uuid(let id)), ("PATCH", .channel(let id)):
            let kind: ObjectKind = resource.uuid != nil ? .uuid : .channel
            let patch: ObjectPatch
            switch ObjectPatch.parse(body, kind: kind) {
            case .success(let parsed): patch = parsed
            case .failure(let problem): return (ObjectsErrors.response(problem), [])
            }
            if let ifMatch, ifMatch != "*", store.record(kind, id)?.eTag != ifMatch {
                return (ObjectsErrors.preconditionFailed(kind), [])
            }
            let (record, event) = store.apply(patch, kind: kind, id: id, timetoken: timetoken)
            return (ok(ObjectsRendering.single(ObjectsRendering.object(record, include: query.include))), [event])
        case ("DELETE", .uuid(let id)), ("DELETE", .channel(let id)):
            let kind: ObjectKind = resource.uuid != nil ? .uuid : .channel
            let event = store.delete(kind, id: id)
            // A removal of an object without metadata still answers 200 (recorded).
            return (ok(ObjectsRendering.single(.null)), event.map { [$0] } ?? [])
        case (_, .uuid(let id)), (_, .channel(let id)):
            let kind: ObjectKind = resource.uuid != nil ? .uuid : .channel
            guard let record = store.record(kind, id) else { return (ObjectsErrors.notFound(), []) }
            return (ok(ObjectsRendering.single(ObjectsRendering.object(record, include: query.include))), [])
        case (_, .uuids), (_, .channels):
            let kind: ObjectKind = resource == .uuids ? .uuid : .channel
            let records = Array(store.records(kind).values)
            let listed = ObjectsListing.select(records, query: query, id: \.id) { record, field in
                ObjectsListing.field(field, of: record)
            }
            let page = query.page(listed)
            return (ok(ObjectsRendering.list(page.items.map { ObjectsRendering.object($0, include: query.include) },
                                             totalCount: query.count ? listed.count : nil, next: page.next, prev: page.prev)), [])
        case (_, .memberships(let owner)), (_, .members(let owner)):
            let key = resource.uuid != nil ? "channel" : "uuid"
            var events: [ObjectsEvent] = []
            if method == "PATCH" {
                switch MembershipPatch.parse(body, key: key) {
                case .success(let patch): events = store.apply(patch, key: key, owner: owner, timetoken: timetoken)
                case .failure(let problem): return (ObjectsErrors.response(problem), [])
                }
            }
            let items = key == "channel" ? store.memberships(uuid: owner) : store.members(channel: owner)
            let otherKind: ObjectKind = key == "channel" ? .channel : .uuid
            func other(_ m: Membership) -> String { key == "channel" ? m.channel : m.uuid }
            let listed = ObjectsListing.select(items, query: query, id: other) { m, field in
                ObjectsListing.field(field, of: m, key: key, other: store.record(otherKind, other(m)))
            }
            let page = query.page(listed)
            let rendered = page.items.map {
                ObjectsRendering.membership($0, key: key, other: store.record(otherKind, other($0)), include: query.include)
            }
            return (ok(ObjectsRendering.list(rendered, totalCount: query.count ? listed.count : nil, next: page.next, prev: page.prev)),
                    events)
        }
    }

    /// The 403 for an App Context request on an Access Manager keyset without the grant it needs,
    /// else `nil`. UNVERIFIED mapping (v2 grants know no App Context rights): channel resources
    /// need read (GET), manage (PATCH) or delete (DELETE) on the channel; uuid resources the same
    /// on the uuid (`target-uuid` grants); the full lists a subkey-level read.
    func objectsDenial(
        _ resource: ObjectsResource, method: String, route: PubNubRoute, state: KeyspaceState, env: ServiceEnvironment
    ) -> HTTPResponse? {
        guard env.keyset != nil else { return nil }
        let permission: Permission = switch method {
        case "PATCH": .manage
        case "DELETE": .delete
        default: .read
        }
        let target: GrantTarget
        if let channel = resource.channel {
            target = .channel(channel)
        } else if let uuid = resource.uuid {
            target = .uuid(uuid)
        } else {
            target = .subkey
        }
        if state.isAllowed(permission, on: target, auth: route.query["auth"], now: clock.unixSeconds) { return nil }
        return ObjectsErrors.forbidden()
    }
}

/// Filtering, sorting and field access of App Context lists (pure).
enum ObjectsListing {
    /// `items` that pass the query's filter, in the query's order (default: by id; ties by id).
    static func select<T>(
        _ items: [T], query: ObjectsListQuery, id: (T) -> String, field: (T, String) -> JSONValue?
    ) -> [T] {
        var kept = items
        if let filter = query.filter { kept = kept.filter { item in ObjectsFilter.matches(filter) { field(item, $0) } } }
        return kept.sorted { a, b in
            for key in query.sort {
                let order = compare(field(a, key.field) ?? .null, field(b, key.field) ?? .null)
                if order != 0 { return key.descending ? order > 0 : order < 0 }
            }
            return ObjectsOrder.less(id(a), id(b))
        }
    }

    /// Sort order of two values: strings by bytes, numbers by value; `null` after every value
    /// in ascending order (UNVERIFIED).
    static func compare(_ a: JSONValue, _ b: JSONValue) -> Int {
        switch (a, b) {
        case (.null, .null): return 0
        case (.null, _): return 1
        case (_, .null): return -1
        case (.string(let x), .string(let y)): return x == y ? 0 : (ObjectsOrder.less(x, y) ? -1 : 1)
        default:
            let x = a.doubleValue ?? 0, y = b.doubleValue ?? 0
            return x == y ? 0 : (x < y ? -1 : 1)
        }
    }

    /// A uuid's or channel's field for filters and sorting: `id`, `updated`, `eTag`, its own
    /// fields, `custom.<key>`.
    static func field(_ name: String, of record: ObjectRecord) -> JSONValue? {
        switch name {
        case "id": return .string(record.id)
        case "updated": return .string(record.updated)
        case "eTag": return .string(record.eTag)
        default:
            if name.hasPrefix("custom.") { return record.value("custom")[String(name.dropFirst(7))] }
            return record.kind.fields.contains(name) ? record.value(name) : nil
        }
    }

    /// A membership's field: its own (`custom.<key>`, `status`, `type`, `updated`, `eTag`) or the
    /// other side's under `channel.` / `uuid.` (`id` always, the rest when it has metadata).
    static func field(_ name: String, of m: Membership, key: String, other: ObjectRecord?) -> JSONValue? {
        if name.hasPrefix(key + ".") {
            let rest = String(name.dropFirst(key.count + 1))
            if rest == "id" { return .string(key == "channel" ? m.channel : m.uuid) }
            return other.flatMap { field(rest, of: $0) }
        }
        if name.hasPrefix("custom.") { return m.custom[String(name.dropFirst(7))] }
        switch name {
        case "custom", "status", "type", "updated", "eTag": return m.value(name)
        default: return nil
        }
    }
}
