// SPDX-License-Identifier: MIT

/// Success bodies, pure functions of their inputs, in the recorded byte layout (spec §3-§8).
enum PubNubBodies {
    static func time(_ timetoken: UInt64) -> String { "[" + String(timetoken) + "]" }

    static func published(_ timetoken: UInt64) -> String { "[1,\"Sent\",\"" + String(timetoken) + "\"]" }

    /// `{"t":{"t":"<tt>","r":R},"m":[…]}` with `"t"` first (spec §5.2).
    static func subscribe(cursor: UInt64, region: Int, envelopes: [String]) -> String {
        "{\"t\":{\"t\":\"" + String(cursor) + "\",\"r\":" + String(region) + "},\"m\":[" + envelopes.joined(separator: ",") + "]}"
    }

    /// The `d` of a presence event, in the live service's spaced layout; `data` last when known.
    static func presenceEvent(action: String, timestamp: Int64, uuid: String, occupancy: Int, data: String?) -> String {
        var body = "{\"action\": " + JSONText.quote(action) + ", \"timestamp\": " + String(timestamp)
        body += ", \"uuid\": " + JSONText.quote(uuid) + ", \"occupancy\": " + String(occupancy)
        if let data { body += ", \"data\": " + data }
        return body + "}"
    }

    static let heartbeat = "{\"status\": 200, \"message\": \"OK\", \"service\": \"Presence\"}"
    static let leave = "{\"status\": 200, \"action\": \"leave\", \"message\": \"OK\", \"service\": \"Presence\"}"
    static let channelRegistryOK = "{\"status\": 200, \"message\": \"OK\", \"service\": \"channel-registry\", \"error\": false}"
    static let deleteOK = "{\"status\": 200, \"error\": false, \"error_message\": \"\"}"

    /// One occupant in a here-now list: a name, or `{"uuid": …[, "state": …]}` with `state=1`.
    static func occupant(_ uuid: String, state: String?, withState: Bool) -> String {
        guard withState else { return JSONText.quote(uuid) }
        var item = "{\"uuid\": " + JSONText.quote(uuid)
        if let state { item += ", \"state\": " + state }
        return item + "}"
    }

    /// Single-channel here now (flat form; the empty form has its own recorded key order).
    static func hereNowSingle(occupants: [String]?, occupancy: Int) -> String {
        let uuids = occupants.map { ", \"uuids\": [" + $0.joined(separator: ", ") + "]" } ?? ""
        if occupancy == 0 {
            return "{\"status\": 200, \"message\": \"OK\", \"occupancy\": 0" + uuids + ", \"service\": \"Presence\"}"
        }
        return "{\"status\": 200, \"message\": \"OK\", \"service\": \"Presence\"" + uuids + ", \"occupancy\": " + String(occupancy) + "}"
    }

    /// Multi-channel / group / global here now (`payload` form).
    static func hereNowMulti(channels: [(name: String, occupants: [String]?, occupancy: Int)]) -> String {
        let entries = channels.map { entry in
            let uuids = entry.occupants.map { "\"uuids\": [" + $0.joined(separator: ", ") + "], " } ?? ""
            return JSONText.quote(entry.name) + ": {" + uuids + "\"occupancy\": " + String(entry.occupancy) + "}"
        }
        let total = channels.reduce(0) { $0 + $1.occupancy }
        return "{\"status\": 200, \"message\": \"OK\", \"payload\": {\"channels\": {" + entries.joined(separator: ", ")
            + "}, \"total_channels\": " + String(channels.count) + ", \"total_occupancy\": " + String(total)
            + "}, \"service\": \"Presence\"}"
    }

    static func whereNow(channels: [String]) -> String {
        "{\"status\": 200, \"message\": \"OK\", \"payload\": {\"channels\": " + JSONText.stringArray(channels)
            + "}, \"service\": \"Presence\"}"
    }

    static func setState(_ state: String) -> String {
        "{\"status\": 200, \"message\": \"OK\", \"payload\": " + state + ", \"service\": \"Presence\"}"
    }

    static func getStateSingle(uuid: String, channel: String, state: String) -> String {
        "{\"status\": 200, \"uuid\": " + JSONText.quote(uuid) + ", \"service\": \"Presence\", \"message\": \"OK\", \"payload\": "
            + state + ", \"channel\": " + JSONText.quote(channel) + "}"
    }

    static func getStateMulti(uuid: String, states: [(channel: String, state: String)]) -> String {
        let entries = states.map { JSONText.quote($0.channel) + ": " + $0.state }.joined(separator: ", ")
        return "{\"status\": 200, \"message\": \"OK\", \"payload\": {\"channels\": {" + entries
            + "}}, \"service\": \"Presence\", \"uuid\": " + JSONText.quote(uuid) + "}"
    }

    static func channelGroupList(group: String, channels: [String]) -> String {
        "{\"status\": 200, \"payload\": {\"channels\": " + JSONText.stringArray(channels) + ", \"group\": "
            + JSONText.quote(group) + "}, \"service\": \"channel-registry\", \"error\": false}"
    }

    static func channelGroupListGroups(_ groups: [String]) -> String {
        "{\"status\": 200, \"payload\": {\"namespace\": \"\", \"groups\": " + JSONText.stringArray(groups)
            + "}, \"service\": \"channel-registry\", \"error\": false}"
    }

    static func messageCounts(_ counts: [(channel: String, count: Int)]) -> String {
        let entries = counts.map { JSONText.quote($0.channel) + ":" + String($0.count) }.joined(separator: ",")
        return "{\"status\": 200, \"error\": false, \"error_message\": \"\", \"channels\": {" + entries + "}}"
    }
}
