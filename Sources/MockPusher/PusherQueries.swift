// SPDX-License-Identifier: MIT

/// Why an HTTP-side request cannot be served; the HTTP layer maps each case to its status and body.
public enum PusherQueryError: Error, Sendable, Hashable {
    case unknownApp(id: String)
    /// `info=user_count` on a channel list needs a `presence-` prefix filter (REST ref: 400).
    case userCountNeedsPresencePrefix
    /// `users` of a channel that is not a presence channel (REST ref: 400).
    case notPresenceChannel(String)
    case invalidChannelName(String)
}

extension PusherQueryError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .unknownApp(let id): "unknown app id \(id)"
        case .userCountNeedsPresencePrefix: "info=user_count needs filter_by_prefix=presence-"
        case .notPresenceChannel(let channel): "\(channel) is not a presence channel"
        case .invalidChannelName(let channel): "invalid channel name \(channel)"
        }
    }
}

/// One occupied channel in a channel list.
public struct PusherChannelSummary: Sendable, Hashable {
    public var name: String
    /// Distinct users; presence channels only, when asked for.
    public var userCount: Int?
    /// Subscribed connections.
    public var subscriptionCount: Int

    public init(name: String, userCount: Int?, subscriptionCount: Int) {
        self.name = name
        self.userCount = userCount
        self.subscriptionCount = subscriptionCount
    }
}

/// One channel's state (`GET /apps/ID/channels/NAME`).
public struct PusherChannelInfo: Sendable, Hashable {
    public var occupied: Bool
    /// Distinct users; nil for non-presence channels.
    public var userCount: Int?
    public var subscriptionCount: Int
    /// The cached event of a cache channel, if any.
    public var cachedEvent: (event: String, data: String)? { cached.map { ($0.event, $0.data) } }
    var cached: CachedEvent?

    struct CachedEvent: Sendable, Hashable {
        var event: String
        var data: String
    }
}

extension PusherState {
    func app(_ id: String) throws(PusherQueryError) -> PusherAppState {
        guard let app = apps[id] else { throw .unknownApp(id: id) }
        return app
    }

    /// An HTTP `events` trigger: `data` delivered exactly as given (spec §3.5) on every channel, to
    /// every subscriber but the connection with `excludeSocketID`; cache channels keep it.
    mutating func trigger(
        appID: String, event: String, data: String, channels: [String], excludeSocketID: String?, now: PusherInstant
    ) throws(PusherQueryError) -> [PusherAction] {
        guard apps[appID] != nil else { throw .unknownApp(id: appID) }
        if let invalid = channels.first(where: { !PusherChannelKind.isValidName($0) }) { throw .invalidChannelName(invalid) }
        // A text that is no generated socket id excludes nobody.
        let excluded = excludeSocketID.flatMap(PusherSocketID.init)
        var actions: [PusherAction] = []
        for channel in channels {
            remember(event: event, data: data, channel: channel, appID: appID, now: now)
            guard let state = apps[appID]?.channels[channel] else { continue }
            let frame = PusherFrames.event(event, data: data, channel: channel)
            for receiver in state.orderedSubscribers where excluded == nil || connections[receiver]?.socketIDValue != excluded {
                actions.append(.send(receiver, frame))
            }
        }
        return actions
    }

    /// Occupied channels whose name starts with `prefix`, sorted by name.
    func channelList(appID: String, prefix: String?, includeUserCount: Bool) throws(PusherQueryError) -> [PusherChannelSummary] {
        let app = try app(appID)
        if includeUserCount, !(prefix ?? "").hasPrefix("presence-") { throw .userCountNeedsPresencePrefix }
        return app.channels.keys.filter { $0.hasPrefix(prefix ?? "") }.sorted().map { name in
            let channel = app.channels[name]!
            return PusherChannelSummary(
                name: name, userCount: includeUserCount ? channel.roster.count : nil, subscriptionCount: channel.subscribers.count)
        }
    }

    func channelInfo(appID: String, channel: String, now: PusherInstant) throws(PusherQueryError) -> PusherChannelInfo {
        let app = try app(appID)
        guard PusherChannelKind.isValidName(channel) else { throw .invalidChannelName(channel) }
        let state = app.channels[channel]
        let cached = app.cache[channel].flatMap { now < $0.expires ? PusherChannelInfo.CachedEvent(event: $0.event, data: $0.data) : nil }
        return PusherChannelInfo(
            occupied: state != nil, userCount: PusherChannelKind(name: channel).isPresence ? state?.roster.count ?? 0 : nil,
            subscriptionCount: state?.subscribers.count ?? 0, cached: cached)
    }

    /// The user ids of a presence channel, in join order.
    func presenceUsers(appID: String, channel: String) throws(PusherQueryError) -> [String] {
        let app = try app(appID)
        guard PusherChannelKind(name: channel).isPresence else { throw .notPresenceChannel(channel) }
        return app.channels[channel]?.roster.order ?? []
    }

    /// Closes every connection signed in as `userID` (only those that completed signin, REST ref).
    /// Close code per app option (UNVERIFIED, default 4009); reason UNVERIFIED.
    mutating func terminate(appID: String, userID: String) throws(PusherQueryError) -> [PusherAction] {
        let code = try app(appID).app.options.terminateCloseCode
        var actions: [PusherAction] = []
        let targets = connections.filter { $0.value.appID == appID && $0.value.signedIn?.id == userID }.map(\.key).sorted()
        for connection in targets {
            close(connection, code: code, reason: "Connections of this user were terminated", into: &actions)
        }
        return actions
    }
}
