// SPDX-License-Identifier: MIT
import HarnessServerCore
import MockPusher

/// What the HTTP API answers to one request: the response, the core's actions to perform (deliveries,
/// closes, webhooks), and which terminate path form was used, if any.
public struct PusherAPIOutcome: Sendable, Hashable {
    public var status: Int
    /// `application/json` on success, `text/plain` for errors (the live service answers errors in plain text).
    public var contentType: String
    public var body: [UInt8]
    public var actions: [PusherAction]
    public var terminateForm: PusherAPIRoute.TerminatePathForm?

    static func json(_ value: JSONValue, actions: [PusherAction] = [], terminateForm: PusherAPIRoute.TerminatePathForm? = nil) -> Self {
        Self(status: 200, contentType: "application/json", body: value.jsonBytes, actions: actions, terminateForm: terminateForm)
    }

    static func error(_ error: PusherAPIError) -> Self {
        Self(status: error.status, contentType: "text/plain; charset=utf-8", body: Array(error.text.utf8), actions: [], terminateForm: nil)
    }

    /// The response the server sends.
    public var httpResponse: HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": contentType], body: body)
    }
}

/// The Pusher HTTP API (spec §6) over a `PusherCore`: request value in, outcome out. The only state
/// it touches is the core's.
public struct PusherHTTPAPI: Sendable {
    public let core: PusherCore

    public init(core: PusherCore) { self.core = core }

    /// Answers `request` at Unix time `unixTime` (seconds, for `auth_timestamp`) and core time `now`.
    public func respond(to request: PusherAPIRequest, unixTime: Int64, now: PusherInstant) -> PusherAPIOutcome {
        do throws(PusherAPIError) {
            return try serve(request, unixTime: unixTime, now: now)
        } catch {
            return .error(error)
        }
    }

    private func serve(_ request: PusherAPIRequest, unixTime: Int64, now: PusherInstant) throws(PusherAPIError) -> PusherAPIOutcome {
        guard let decoded = request.decodedPath else { throw .notFound }
        let segments = decoded.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        guard let route = PusherAPIRoute.match(method: request.method, segments: segments) else { throw .notFound }
        guard let query = request.query else { throw .badRequest("Invalid query string encoding\n") }  // UNVERIFIED text
        let app = try app(for: route, query: query)
        try PusherRequestAuthentication.verify(request, query: query, app: app, serverTime: unixTime)
        let allowed = PusherRequestAuthentication.authParameters.union(route.ownParameters)
        var extra: [String] = []
        for item in query where !allowed.contains(item.name.lowercased()) && !extra.contains(item.name) { extra.append(item.name) }
        guard extra.isEmpty else { throw .extraneousParameters(extra) }
        return try answer(route, app: app, request: request, now: now)
    }

    /// The app of the path's id, whose key `auth_key` must be; for the short terminate path, the app of `auth_key`.
    private func app(for route: PusherAPIRoute, query: [QueryItem]) throws(PusherAPIError) -> PusherApp {
        let key = query.first { $0.name.lowercased() == "auth_key" }?.value
        let id: String
        switch route {
        case .terminateShort:
            guard let key, let app = core.app(key: key) else { throw .unknownAuthKey }
            return app
        case .events(let appID), .batchEvents(let appID), .channels(let appID), .channel(let appID, _), .users(let appID, _),
            .terminate(let appID, _):
            id = appID
        }
        guard let app = core.app(id: id) else { throw .unknownApp(id: id) }
        guard key == app.key else { throw .unknownAuthKey }
        return app
    }

    private func answer(_ route: PusherAPIRoute, app: PusherApp, request: PusherAPIRequest, now: PusherInstant) throws(PusherAPIError) -> PusherAPIOutcome {
        switch route {
        case .events:
            let event = try PusherEventsRequest.events(body: request.body)
            let actions = try trigger(event, app: app, now: now)
            return .json(try eventInfo(event, app: app, now: now) ?? [:], actions: actions)
        case .batchEvents:
            let events = try PusherEventsRequest.batch(body: request.body)
            var actions: [PusherAction] = []
            for event in events { actions += try trigger(event, app: app, now: now) }
            guard events.contains(where: { !$0.info.isEmpty }) else { return .json([:], actions: actions) }
            var replies: [JSONValue] = []
            for event in events {
                let attributes = try channelAttributes(event.channels[0], info: event.info, app: app, now: now)
                replies.append(.object(attributes))
            }
            return .json(["batch": .array(replies)], actions: actions)
        case .channels:
            return .json(try channelList(app: app, query: request.query ?? []))
        case .channel(_, let name):
            return .json(try channelInfo(name, app: app, info: Self.infoList(request.parameter("info")), now: now))
        case .users(_, let channel):
            let users = try mapped { () throws(PusherQueryError) in try core.users(appID: app.id, channel: channel) }
            return .json(["users": .array(users.map { .object(["id": .string($0)]) })])
        case .terminate(_, let userID), .terminateShort(let userID):
            let actions = try mapped { () throws(PusherQueryError) in try core.terminateConnections(appID: app.id, userID: userID) }
            return .json([:], actions: actions, terminateForm: route.terminateForm)
        }
    }

    private func trigger(_ event: PusherEventsRequest, app: PusherApp, now: PusherInstant) throws(PusherAPIError) -> [PusherAction] {
        try mapped { () throws(PusherQueryError) in
            try core.trigger(appID: app.id, event: event.name, data: event.data, channels: event.channels, excludeSocketID: event.socketID, now: now)
        }
    }

    /// `{"channels":{name:{user_count?,subscription_count?}}}` when `info` asks for attributes.
    private func eventInfo(_ event: PusherEventsRequest, app: PusherApp, now: PusherInstant) throws(PusherAPIError) -> JSONValue? {
        guard !event.info.isEmpty else { return nil }
        var channels: JSONObject = [:]
        for channel in event.channels {
            channels[channel] = .object(try channelAttributes(channel, info: event.info, app: app, now: now))
        }
        return ["channels": .object(channels)]
    }

    /// The asked attributes of a channel after a trigger: `user_count` only for presence channels.
    private func channelAttributes(_ channel: String, info: [String], app: PusherApp, now: PusherInstant) throws(PusherAPIError) -> JSONObject {
        let state = try mapped { () throws(PusherQueryError) in try core.channelInfo(appID: app.id, channel: channel, now: now) }
        var attributes: JSONObject = [:]
        if info.contains("user_count"), let users = state.userCount { attributes["user_count"] = .int(users) }
        if info.contains("subscription_count") { attributes["subscription_count"] = .int(state.subscriptionCount) }
        return attributes
    }

    private func channelList(app: PusherApp, query: [QueryItem]) throws(PusherAPIError) -> JSONValue {
        let prefix = query.first { $0.name == "filter_by_prefix" }?.value
        let info = Self.infoList(query.first { $0.name == "info" }?.value)
        let wantsUsers = info.contains("user_count")
        let summaries = try mapped { () throws(PusherQueryError) in
            try core.channels(appID: app.id, prefix: prefix, includeUserCount: wantsUsers)
        }
        var channels: JSONObject = [:]
        for summary in summaries {
            var attributes: JSONObject = [:]
            if let users = summary.userCount { attributes["user_count"] = .int(users) }
            if info.contains("subscription_count") { attributes["subscription_count"] = .int(summary.subscriptionCount) }
            channels[summary.name] = .object(attributes)
        }
        return ["channels": .object(channels)]
    }

    /// `{"occupied":…, "user_count"?, "subscription_count"?, "cache"?}`; `user_count` on a channel that
    /// is not a presence channel is refused (REST ref: an unavailable attribute is an error; text UNVERIFIED).
    private func channelInfo(_ name: String, app: PusherApp, info: [String], now: PusherInstant) throws(PusherAPIError) -> JSONValue {
        let state = try mapped { () throws(PusherQueryError) in try core.channelInfo(appID: app.id, channel: name, now: now) }
        var members: JSONObject = ["occupied": .bool(state.occupied)]
        if info.contains("user_count") {
            guard let users = state.userCount else {
                throw .badRequest("Cannot retrieve the user count unless the channel is a presence channel\n")  // UNVERIFIED
            }
            members["user_count"] = .int(users)
        }
        if info.contains("subscription_count") { members["subscription_count"] = .int(state.subscriptionCount) }
        if info.contains("cache"), let cached = state.cachedEvent {
            // UNVERIFIED shape: the cached event's name and data.
            members["cache"] = ["event": .string(cached.event), "data": .string(cached.data)]
        }
        return .object(members)
    }

    static func infoList(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { String($0).trimmingSpaces }
    }

    /// Runs a core query, mapping its errors to the HTTP API's.
    private func mapped<T>(_ body: () throws(PusherQueryError) -> T) throws(PusherAPIError) -> T {
        do throws(PusherQueryError) {
            return try body()
        } catch {
            switch error {
            case .unknownApp(let id): throw .unknownApp(id: id)
            case .userCountNeedsPresencePrefix:
                throw .badRequest("info=user_count is only allowed with filter_by_prefix=presence-\n")  // UNVERIFIED text
            case .notPresenceChannel(let channel):
                throw .badRequest("Channel \(channel) is not a presence channel\n")  // UNVERIFIED text
            case .invalidChannelName(let channel):
                throw .badRequest("Invalid channel name: \(channel)\n")  // UNVERIFIED text
            }
        }
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return String(text)
    }
}
