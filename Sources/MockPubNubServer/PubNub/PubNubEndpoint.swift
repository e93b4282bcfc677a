// SPDX-License-Identifier: MIT

/// Every REST endpoint the mock serves, by the name fault plans and the journal use (spec §3-§9, §13).
public enum PubNubEndpoint: String, Sendable, Hashable, Codable, CaseIterable {
    case time
    case publish
    case signal
    case subscribe
    case heartbeat
    case leave
    case hereNow = "here-now"
    case globalHereNow = "global-here-now"
    case whereNow = "where-now"
    case getState = "get-state"
    case setState = "set-state"
    case history
    case fetchMessages = "fetch-messages"
    case fetchMessagesWithActions = "fetch-messages-with-actions"
    case deleteMessages = "delete-messages"
    case messageCounts = "message-counts"
    case channelGroupAdd = "channel-group-add"
    case channelGroupRemoveChannels = "channel-group-remove-channels"
    case channelGroupList = "channel-group-list"
    case channelGroupListGroups = "channel-group-list-groups"
    case channelGroupDelete = "channel-group-delete"
    case grant
    /// Access Manager v2 audit: `GET /v2/auth/audit/sub-key/{sub}` (docs/access-manager.md).
    case audit
    case addMessageAction = "add-message-action"
    case removeMessageAction = "remove-message-action"
    case getMessageActions = "get-message-actions"
    /// App Context (`/v2/objects/…`): uuid and channel metadata, memberships, members.
    case objects
    // File sharing (spec pubnub-modern §3; fault plans may name them all as `files`).
    case generateUploadURL = "generate-upload-url"
    case storageUpload = "storage-upload"
    case publishFile = "publish-file"
    case listFiles = "list-files"
    case getFile = "get-file"
    case storageDownload = "storage-download"
    case deleteFile = "delete-file"
    /// Mobile push registration (v1 and APNs2); also the journal's `PUSH` notices.
    case push
    /// Access Manager v3: `POST /v3/pam/{sub}/grant` (docs/access-manager.md).
    case grantToken = "grant-token"
    /// Access Manager v3: `DELETE /v3/pam/{sub}/grant/{token}`.
    case revokeToken = "revoke-token"
    /// Access Manager v1 (3.x clients): `GET /v1/auth/grant/sub-key/{sub}`.
    case grantV1 = "grant-v1"
    /// Access Manager v1 (3.x clients): `GET /v1/auth/audit/sub-key/{sub}`.
    case auditV1 = "audit-v1"
    case admin
}

/// A request classified by endpoint, with the keys, channels and groups it names.
///
/// Classification is pure and shared by the service (to dispatch) and the fault layer (to aim
/// rules), so both always agree on what a request is.
///
/// The fields live in one shared box (`PubNubRoute.Storage`, copied on the first write to a
/// shared one), so handing a route from classification to the fault layer and the service
/// costs a reference count instead of a copy of every field.
public struct PubNubRoute: Sendable, Hashable {
    private var storage: Storage

    public var endpoint: PubNubEndpoint {
        get { storage.endpoint }
        _modify { yield &unique.endpoint }
    }
    /// The subscribe key from the path; `nil` for `/time/0` and the admin API.
    public var subscribeKey: String? {
        get { storage.subscribeKey }
        _modify { yield &unique.subscribeKey }
    }
    /// The publish key from the path (publish and signal only).
    public var publishKey: String? {
        get { storage.publishKey }
        _modify { yield &unique.publishKey }
    }
    /// Channels named in the path, decoded and split on `,` (empty for the `,` placeholder).
    public var channels: [String] {
        get { storage.channels }
        _modify { yield &unique.channels }
    }
    /// Channel groups: the `channel-group` query list, or the group in a channel-registration path.
    public var channelGroups: [String] {
        get { storage.channelGroups }
        _modify { yield &unique.channelGroups }
    }
    /// The `uuid` query parameter (the client's user id).
    public var uuid: String? {
        get { storage.uuid }
        _modify { yield &unique.uuid }
    }
    /// The uuid named in the path (where now, get/set state).
    public var targetUUID: String? {
        get { storage.targetUUID }
        _modify { yield &unique.targetUUID }
    }
    /// The decoded message segment of a GET publish or signal (the JSON text).
    public var message: String? {
        get { storage.message }
        _modify { yield &unique.message }
    }
    /// The message timetoken segment of a message-action path, as sent.
    public var messageTimetoken: String? {
        get { storage.messageTimetoken }
        _modify { yield &unique.messageTimetoken }
    }
    /// The action timetoken segment of a message-action removal path, as sent.
    public var actionTimetoken: String? {
        get { storage.actionTimetoken }
        _modify { yield &unique.actionTimetoken }
    }
    /// The decoded query, in order.
    public var query: [QueryItem] {
        get { storage.query }
        _modify { yield &unique.query }
    }
    /// The legacy subscribe's callback and timetoken (`/subscribe/…`); `nil` for v2 and other endpoints.
    public var subscribeV1: SubscribeV1Request? {
        get { storage.subscribeV1 }
        _modify { yield &unique.subscribeV1 }
    }
    /// The file id segment of a file download, delete or storage path.
    public var fileID: String? {
        get { storage.fileID }
        _modify { yield &unique.fileID }
    }
    /// The file name segment of a file download, delete or storage path.
    public var fileName: String? {
        get { storage.fileName }
        _modify { yield &unique.fileName }
    }
    /// The device of a mobile push registration request; `nil` for other endpoints.
    public var push: PushRequest? {
        get { storage.push }
        _modify { yield &unique.push }
    }
    /// The token segment of a revoke-token path, decoded.
    public var token: String? {
        get { storage.token }
        _modify { yield &unique.token }
    }
    /// Set by the service once a secret-key signature or a v3 token has decided access (the
    /// per-endpoint v2 grant checks then stand aside).
    var accessDecided: Bool {
        get { storage.accessDecided }
        _modify { yield &unique.accessDecided }
    }
    /// An App Context request's operation (and, once the access gate read the body, the ids a
    /// membership or member change names), for the token table; `nil` for other endpoints.
    var objectsAccess: ObjectsAccess? {
        get { storage.objectsAccess }
        _modify { yield &unique.objectsAccess }
    }

    public init(
        endpoint: PubNubEndpoint, subscribeKey: String? = nil, publishKey: String? = nil,
        channels: [String] = [], channelGroups: [String] = [], uuid: String? = nil,
        targetUUID: String? = nil, message: String? = nil, query: [QueryItem] = []
    ) {
        storage = Storage(
            endpoint: endpoint, subscribeKey: subscribeKey, publishKey: publishKey, channels: .many(channels),
            channelGroups: channelGroups, uuid: uuid, targetUUID: targetUUID, message: message, query: .many(query))
    }

    /// A route whose channels and query are given as lists (the publish path: one channel, and
    /// a one-item query, held without arrays).
    init(
        endpoint: PubNubEndpoint, subscribeKey: String?, publishKey: String?, channelList: RouteList<String>,
        channelGroups: [String], uuid: String?, message: String?, queryList: RouteList<QueryItem>
    ) {
        storage = Storage(
            endpoint: endpoint, subscribeKey: subscribeKey, publishKey: publishKey, channels: channelList,
            channelGroups: channelGroups, uuid: uuid, targetUUID: nil, message: message, query: queryList)
    }

    /// `channels`, as the route holds them (no array made for a single channel).
    var channelList: RouteList<String> { storage.channelList }

    /// `channels.first`, without making the array.
    var firstChannel: String? { storage.channelList.first }

    /// `query`, as the route holds it (no array made for a single item).
    var queryList: RouteList<QueryItem> { storage.queryList }

    /// The box, copied first when another route shares it (copy on write).
    private var unique: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
            return storage
        }
    }

    public static func == (lhs: PubNubRoute, rhs: PubNubRoute) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.isEqual(to: rhs.storage)
    }

    public func hash(into hasher: inout Hasher) {
        storage.hash(into: &hasher)
    }
}

/// Why a request could not be classified.
public enum RouteError: Error, Sendable, Hashable {
    /// A path segment or query part holds invalid percent-encoding or is not UTF-8.
    case invalidPercentEncoding
    /// No PubNub endpoint has this method and path.
    case notFound
}

extension PubNubRoute {
    /// Classifies `request` by method and path (spec §13 checklist).
    public static func classify(_ request: HTTPRequest) -> Result<PubNubRoute, RouteError> {
        if let route = classifyPublish(request) { return .success(route) }
        return classifyBySegments(request)
    }

    /// Classification from the decoded path segments: every endpoint (`classifyPublish`
    /// answers the common publish forms first, with the same result).
    static func classifyBySegments(_ request: HTTPRequest) -> Result<PubNubRoute, RouteError> {
        guard let segments = request.pathSegments, let query = request.queryItems else {
            return .failure(.invalidPercentEncoding)
        }
        let groups = splitList(query["channel-group"])
        var route = PubNubRoute(endpoint: .time, channelGroups: groups, uuid: query["uuid"], query: query)
        let method = request.method
        let isRead = method == "GET" || method == "HEAD"

        switch segments.first {
        case "__admin":
            route.endpoint = .admin
            return .success(route)
        case "time" where segments.count == 2 && isRead:
            route.endpoint = .time
            return .success(route)
        case "publish", "signal":
            // /publish/{pub}/{sub}/0/{channel}/0[/{message}]
            guard segments.count == 6 || segments.count == 7 else { return .failure(.notFound) }
            let isSignal = segments[0] == "signal"
            let hasMessage = segments.count == 7
            guard (isRead && hasMessage) || (method == "POST" && !hasMessage && !isSignal)
                || (method == "POST" && isSignal && !hasMessage)
            else { return .failure(.notFound) }
            route.endpoint = isSignal ? .signal : .publish
            route.publishKey = segments[1]
            route.subscribeKey = segments[2]
            route.channels = [segments[4]]
            route.message = hasMessage ? segments[6] : nil
            return .success(route)
        case "subscribe":
            // Legacy v1: /subscribe/{sub}/{channels}/{callback}/{tt}
            guard segments.count == 5, isRead else { return .failure(.notFound) }
            route.endpoint = .subscribe
            route.subscribeKey = segments[1]
            route.channels = splitList(segments[2])
            route.subscribeV1 = SubscribeV1Request(
                callback: segments[3] == "0" ? nil : segments[3], timetoken: segments[4])
            return .success(route)
        case "v2" where segments.count > 2 && segments[1] == "objects":
            return classifyObjects(segments.dropFirst(2), method: method, route: route)
        case "v2":
            return classifyV2(Array(segments.dropFirst()), method: method, route: route)
        case "v3" where segments.count > 1 && segments[1] == "pam":
            return classifyAccessV3(Array(segments.dropFirst(2)), method: method, route: route)
        case "v1" where segments.count > 1 && segments[1] == "auth":
            return classifyAccessV1(Array(segments.dropFirst(2)), isRead: isRead, route: route)
        case "v3":
            return classifyV3(Array(segments.dropFirst()), method: method, route: route)
        case "v1" where segments.count > 1 && segments[1] == "files":
            return FileRoutes.classifyFiles(Array(segments.dropFirst(2)), method: method, route: route)
        case "file-storage":
            return FileRoutes.classifyStorage(Array(segments.dropFirst()), method: method, route: route)
        case "v1" where segments.count > 1 && segments[1] == "push":
            guard isRead else { return .failure(.notFound) }
            return classifyPush(Array(segments.dropFirst()), isAPNs2: false, route: route)
        case "v1" where segments.count > 1 && segments[1] == "message-actions":
            return classifyMessageActions(Array(segments.dropFirst(2)), method: method, route: route)
        case "v1":
            return classifyChannelRegistration(Array(segments.dropFirst()), isRead: isRead, route: route)
        default:
            return .failure(.notFound)
        }
    }

    private static func classifyV2(
        _ s: [String], method: String, route base: PubNubRoute
    ) -> Result<PubNubRoute, RouteError> {
        var route = base
        let isRead = method == "GET" || method == "HEAD"
        guard isRead, let service = s.first else { return .failure(.notFound) }
        switch service {
        case "subscribe":
            // /v2/subscribe/{sub}/{channels}/0
            guard s.count == 4 else { return .failure(.notFound) }
            route.endpoint = .subscribe
            route.subscribeKey = s[1]
            route.channels = splitList(s[2])
            return .success(route)
        case "presence":
            // /v2/presence/sub-key|sub_key/{sub}[/channel/{chs}[/heartbeat|/leave|/uuid/{u}[/data]]|/uuid/{u}]
            guard s.count >= 3, s[1] == "sub-key" || s[1] == "sub_key" else { return .failure(.notFound) }
            route.subscribeKey = s[2]
            let rest = Array(s.dropFirst(3))
            switch rest.count {
            case 0:
                route.endpoint = .globalHereNow
            case 2 where rest[0] == "channel":
                route.endpoint = .hereNow
                route.channels = splitList(rest[1])
            case 2 where rest[0] == "uuid":
                route.endpoint = .whereNow
                route.targetUUID = rest[1]
            case 3 where rest[0] == "channel" && (rest[2] == "heartbeat" || rest[2] == "leave"):
                route.endpoint = rest[2] == "heartbeat" ? .heartbeat : .leave
                route.channels = splitList(rest[1])
            case 4 where rest[0] == "channel" && rest[2] == "uuid":
                route.endpoint = .getState
                route.channels = splitList(rest[1])
                route.targetUUID = rest[3]
            case 5 where rest[0] == "channel" && rest[2] == "uuid" && rest[4] == "data":
                route.endpoint = .setState
                route.channels = splitList(rest[1])
                route.targetUUID = rest[3]
            default:
                return .failure(.notFound)
            }
            return .success(route)
        case "history":
            // /v2/history/sub-key/{sub}/channel/{ch}
            guard s.count == 5, s[1] == "sub-key", s[3] == "channel" else { return .failure(.notFound) }
            route.endpoint = .history
            route.subscribeKey = s[2]
            route.channels = [s[4]]
            return .success(route)
        case "push":
            return classifyPush(s, isAPNs2: true, route: route)
        case "auth":
            // /v2/auth/grant/sub-key/{sub}, /v2/auth/audit/sub-key/{sub}
            guard s.count == 4, s[1] == "grant" || s[1] == "audit", s[2] == "sub-key" else { return .failure(.notFound) }
            route.endpoint = s[1] == "grant" ? .grant : .audit
            route.subscribeKey = s[3]
            return .success(route)
        default:
            return .failure(.notFound)
        }
    }

    private static func classifyV3(
        _ s: [String], method: String, route base: PubNubRoute
    ) -> Result<PubNubRoute, RouteError> {
        var route = base
        let isRead = method == "GET" || method == "HEAD"
        guard s.count == 5, s[0] == "history" || s[0] == "history-with-actions", s[1] == "sub-key" else {
            return .failure(.notFound)
        }
        route.subscribeKey = s[2]
        route.channels = splitList(s[4])
        switch (s[0], s[3], method) {
        case ("history", "channel", "DELETE"):
            route.endpoint = .deleteMessages
        case ("history", "channel", _) where isRead:
            route.endpoint = .fetchMessages
        case ("history-with-actions", "channel", _) where isRead:
            route.endpoint = .fetchMessagesWithActions
        case ("history", "message-counts", _) where isRead:
            route.endpoint = .messageCounts
        default:
            return .failure(.notFound)
        }
        return .success(route)
    }

    private static func classifyChannelRegistration(
        _ s: [String], isRead: Bool, route base: PubNubRoute
    ) -> Result<PubNubRoute, RouteError> {
        var route = base
        // /v1/channel-registration/sub-key/{sub}/channel-group[/{g}[/remove]]
        guard isRead, s.count >= 4, s[0] == "channel-registration", s[1] == "sub-key", s[3] == "channel-group"
        else { return .failure(.notFound) }
        route.subscribeKey = s[2]
        switch s.count {
        case 4:
            route.endpoint = .channelGroupListGroups
        case 5:
            route.channelGroups = [s[4]]
            if let add = route.query["add"] {
                route.endpoint = .channelGroupAdd
                route.channels = splitList(add)
            } else if let remove = route.query["remove"] {
                route.endpoint = .channelGroupRemoveChannels
                route.channels = splitList(remove)
            } else {
                route.endpoint = .channelGroupList
            }
        case 6 where s[5] == "remove":
            route.channelGroups = [s[4]]
            route.endpoint = .channelGroupDelete
        default:
            return .failure(.notFound)
        }
        return .success(route)
    }

    private static func classifyMessageActions(
        _ s: [String], method: String, route base: PubNubRoute
    ) -> Result<PubNubRoute, RouteError> {
        var route = base
        // /v1/message-actions/{sub}/channel/{ch}[/message/{mtt}[/action/{att}]]
        guard s.count >= 3, s[1] == "channel" else { return .failure(.notFound) }
        route.subscribeKey = s[0]
        route.channels = [s[2]]
        switch (s.count, method) {
        case (3, "GET"), (3, "HEAD"):
            route.endpoint = .getMessageActions
        case (5, "POST") where s[3] == "message":
            route.endpoint = .addMessageAction
            route.messageTimetoken = s[4]
        case (7, "DELETE") where s[3] == "message" && s[5] == "action":
            route.endpoint = .removeMessageAction
            route.messageTimetoken = s[4]
            route.actionTimetoken = s[6]
        default:
            return .failure(.notFound)
        }
        return .success(route)
    }

    /// Splits a comma list, dropping empty names (so the `,` placeholder is an empty list).
    static func splitList(_ list: String?) -> [String] {
        guard let list, !list.isEmpty else { return [] }
        return list.split(separator: ",", omittingEmptySubsequences: true).map(String.init)
    }
}
