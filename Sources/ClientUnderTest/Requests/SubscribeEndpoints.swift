// SPDX-License-Identifier: MIT

/// Subscribe, heartbeat and leave requests.
enum SubscribeEndpoints {
    /// `eventEngine`: the request carries `ee=1`, as the Python asyncio SDK's event engine sends it
    /// (Swift sends a bare `ee`; what the flag changes on the service is UNVERIFIED, and the mock
    /// reads it as a flag only).
    static func subscribe(subscribeKey: String, set: SubscriptionSet, cursor: SubscribeCursor?, heartbeat: Int?,
                          filter: String? = nil, eventEngine: Bool = false) -> PubNubRequest
    {
        var query: [(String, String)] = []
        query.append(("tt", String(cursor?.timetoken ?? 0)))
        if let cursor, cursor.timetoken != 0, let region = cursor.region { query.append(("tr", String(region))) }
        if !set.queryGroups.isEmpty { query.append(("channel-group", set.queryGroups.joined(separator: ","))) }
        if let heartbeat { query.append(("heartbeat", String(heartbeat))) }
        if let state = set.stateForRequest { query.append(("state", state.jsonText)) }
        if let filter { query.append(("filter-expr", filter)) }
        if eventEngine { query.append(("ee", "1")) }
        return PubNubRequest(operation: .subscribe,
                             path: "/v2/subscribe/\(PercentEncoding.encode(subscribeKey))/\(PercentEncoding.commaList(set.pathChannels))/0",
                             query: query, channels: set.channels, groups: set.groups)
    }

    static func heartbeat(subscribeKey: String, channels: [String], groups: [String], heartbeat: Int?,
                          state: JSONValue?, eventEngine: Bool = false) -> PubNubRequest
    {
        var query: [(String, String)] = []
        if let heartbeat { query.append(("heartbeat", String(heartbeat))) }
        if !groups.isEmpty { query.append(("channel-group", groups.joined(separator: ","))) }
        if let state { query.append(("state", state.jsonText)) }
        if eventEngine { query.append(("ee", "1")) }
        return PubNubRequest(operation: .heartbeat,
                             path: "/v2/presence/sub-key/\(PercentEncoding.encode(subscribeKey))/channel/\(PercentEncoding.commaList(channels))/heartbeat",
                             query: query, channels: channels, groups: groups)
    }

    static func leave(subscribeKey: String, channels: [String], groups: [String]) -> PubNubRequest {
        var query: [(String, String)] = []
        if !groups.isEmpty { query.append(("channel-group", groups.joined(separator: ","))) }
        return PubNubRequest(operation: .unsubscribe,
                             path: "/v2/presence/sub-key/\(PercentEncoding.encode(subscribeKey))/channel/\(PercentEncoding.commaList(channels))/leave",
                             query: query, channels: channels, groups: groups)
    }

    static func time() -> PubNubRequest {
        PubNubRequest(operation: .time, path: "/time/0", sendsAuth: false, isSigned: false)
    }
}
