// SPDX-License-Identifier: MIT
import HarnessJSON

/// Here now, where now, get/set state: requests and response parsers.
enum PresenceEndpoints {
    static func base(_ subscribeKey: String) -> String { "/v2/presence/sub-key/\(PercentEncoding.encode(subscribeKey))" }

    static func hereNow(subscribeKey: String, channels: [String], groups: [String], includeUUIDs: Bool, includeState: Bool)
        -> PubNubRequest
    {
        var query: [(String, String)] = [("disable_uuids", includeUUIDs ? "0" : "1"), ("state", includeState ? "1" : "0")]
        if !groups.isEmpty { query.append(("channel-group", groups.joined(separator: ","))) }
        let global = channels.isEmpty && groups.isEmpty
        let path = global ? base(subscribeKey) : base(subscribeKey) + "/channel/" + PercentEncoding.commaList(channels)
        return PubNubRequest(operation: global ? .hereNowGlobal : .hereNow, path: path, query: query,
                             channels: channels, groups: groups)
    }

    static func whereNow(subscribeKey: String, uuid: String) -> PubNubRequest {
        PubNubRequest(operation: .whereNow, path: base(subscribeKey) + "/uuid/" + PercentEncoding.encode(uuid))
    }

    static func setState(subscribeKey: String, channels: [String], groups: [String], uuid: String, state: JSONValue) -> PubNubRequest {
        var query: [(String, String)] = [("state", state.jsonText)]
        if !groups.isEmpty { query.append(("channel-group", groups.joined(separator: ","))) }
        return PubNubRequest(operation: .setState,
                             path: base(subscribeKey) + "/channel/\(PercentEncoding.commaList(channels))/uuid/\(PercentEncoding.encode(uuid))/data",
                             query: query, channels: channels, groups: groups)
    }

    static func getState(subscribeKey: String, channels: [String], groups: [String], uuid: String) -> PubNubRequest {
        var query: [(String, String)] = []
        if !groups.isEmpty { query.append(("channel-group", groups.joined(separator: ","))) }
        return PubNubRequest(operation: .getState,
                             path: base(subscribeKey) + "/channel/\(PercentEncoding.commaList(channels))/uuid/\(PercentEncoding.encode(uuid))",
                             query: query, channels: channels, groups: groups)
    }

    /// Flat form (one channel) or `payload.channels` form.
    static func parseHereNow(channels requested: [String], groups: [String]) -> @Sendable (JSONValue) -> PNHereNowResult? {
        { body in
            if let payload = body["payload"], let map = payload["channels"]?.objectValue {
                var channels: [String: PNChannelOccupancy] = [:]
                for (name, entry) in map {
                    guard let occupancy = parseOccupancy(entry) else { return nil }
                    channels[name] = occupancy
                }
                let totalOccupancy = payload["total_occupancy"]?.int64Value.map { Int($0) } ?? channels.values.reduce(0) { $0 + $1.occupancy }
                return PNHereNowResult(totalChannels: payload["total_channels"]?.int64Value.map { Int($0) } ?? channels.count,
                                       totalOccupancy: totalOccupancy, channels: channels)
            }
            guard requested.count == 1, groups.isEmpty, let occupancy = parseOccupancy(body) else { return nil }
            return PNHereNowResult(totalChannels: 1, totalOccupancy: occupancy.occupancy, channels: [requested[0]: occupancy])
        }
    }

    private static func parseOccupancy(_ entry: JSONValue) -> PNChannelOccupancy? {
        guard let occupancy = entry["occupancy"]?.int64Value else { return nil }
        var occupants: [PNOccupant] = []
        for item in entry["uuids"]?.arrayValue ?? [] {
            if let uuid = item.stringValue {
                occupants.append(PNOccupant(uuid: uuid, state: nil))
            } else if let uuid = item["uuid"]?.stringValue {
                occupants.append(PNOccupant(uuid: uuid, state: item["state"]))
            } else {
                return nil
            }
        }
        return PNChannelOccupancy(occupancy: Int(occupancy), occupants: occupants)
    }

    static func parseWhereNow(_ body: JSONValue) -> PNWhereNowResult? {
        guard let list = body["payload"]?["channels"]?.arrayValue else { return nil }
        return PNWhereNowResult(channels: list.compactMap(\.stringValue))
    }

    /// Get state: `channel` + `payload`, or `payload.channels`.
    static func parseGetState(_ body: JSONValue) -> PNStateResult? {
        if let channel = body["channel"]?.stringValue, let payload = body["payload"] {
            return PNStateResult(channels: [channel: payload])
        }
        if let map = body["payload"]?["channels"]?.objectValue { return PNStateResult(channels: map.dictionary) }
        return nil
    }

    /// Set state echoes the state in `payload`; it applies to every requested channel and group.
    static func parseSetState(names: [String]) -> @Sendable (JSONValue) -> PNStateResult? {
        { body in
            guard let payload = body["payload"] else { return nil }
            return PNStateResult(channels: Dictionary(uniqueKeysWithValues: names.map { ($0, payload) }))
        }
    }
}
