// SPDX-License-Identifier: MIT

/// Success bodies, pure functions of their inputs, in the recorded byte layout (spec §3-§8).
enum PubNubBodies {
    static func time(_ timetoken: UInt64) -> String { "[" + String(timetoken) + "]" }

    static func published(_ timetoken: UInt64) -> String { "[1,\"Sent\",\"" + String(timetoken) + "\"]" }

    /// `published(timetoken)` as bytes, written straight into one buffer.
    static func publishedBytes(_ timetoken: UInt64) -> [UInt8] {
        // Formed in a small buffer (11 bytes before the digits, at most 20 digits, 2 after) and
        // copied once into an array of its size (`Array(_:)` of the buffer;
        // `Array(unsafeUninitializedCapacity:)` allocated through an unspecialised path).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 33) { scratch in
            let base = scratch.baseAddress!
            let prefix: StaticString = "[1,\"Sent\",\""
            base.update(from: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
            var end = base + prefix.utf8CodeUnitCount
            end += HTTPResponseEncoder.writeDecimal(timetoken, to: end)
            end[0] = UInt8(ascii: "\"")
            end[1] = UInt8(ascii: "]")
            return Array(UnsafeBufferPointer(start: base, count: end + 2 - base))
        }
    }

    /// Appends the decimal digits of `value` (as `String(value)` spells them), formed in a small
    /// buffer and copied once.
    static func appendDecimal(_ value: UInt64, to bytes: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
            let base = scratch.baseAddress!
            bytes.append(contentsOf: UnsafeBufferPointer(start: base, count: HTTPResponseEncoder.writeDecimal(value, to: base)))
        }
    }

    /// `{"t":{"t":"<tt>","r":R},"m":[…]}` with `"t"` first (spec §5.2).
    static func subscribe(cursor: UInt64, region: Int, envelopes: [String]) -> String {
        "{\"t\":{\"t\":\"" + String(cursor) + "\",\"r\":" + String(region) + "},\"m\":[" + envelopes.joined(separator: ",") + "]}"
    }

    /// A presence event's payload `d` and its envelope metadata `u`, in the live service's compact
    /// layout. join / leave / timeout carry `precise_timestamp` (milliseconds; recorded 2025);
    /// state-change is recorded (2020) without it and with `data` before `occupancy`.
    static func presenceEvent(
        action: String, channel: String, uuid: String, occupancy: Int, seconds: Int64, milliseconds: Int64, data: String?
    ) -> (payload: String, meta: String) {
        let precise = action != "state-change"
        var meta = "{\"pn_action\":" + PubNubJSON.quote(action) + ",\"pn_channel\":" + PubNubJSON.quote(channel)
            + ",\"pn_ispresence\":1,\"pn_occupancy\":" + String(occupancy)
        if precise { meta += ",\"pn_precise_timestamp\":" + String(milliseconds) }
        meta += ",\"pn_timestamp\":" + String(seconds) + ",\"pn_uuid\":" + PubNubJSON.quote(uuid) + "}"
        var payload = "{\"action\":" + PubNubJSON.quote(action) + ",\"uuid\":" + PubNubJSON.quote(uuid)
            + ",\"timestamp\":" + String(seconds)
        if precise { payload += ",\"precise_timestamp\":" + String(milliseconds) }
        if let data { payload += ",\"data\":" + data }
        return (payload + ",\"occupancy\":" + String(occupancy) + "}", meta)
    }

    // The Presence service answers compact with keys in sorted order (recorded 2025: heartbeat,
    // leave, here now, where now, set state); get state is recorded only in its older spaced layout.
    static let heartbeat = "{\"message\":\"OK\",\"service\":\"Presence\",\"status\":200}"
    static let leave = "{\"action\":\"leave\",\"message\":\"OK\",\"service\":\"Presence\",\"status\":200}"
    /// Channel-group add / remove / delete, compact with sorted keys (recorded 2024-2025, `application/json`).
    static let channelRegistryOK = "{\"error\":false,\"message\":\"OK\",\"service\":\"channel-registry\",\"status\":200}"
    static let deleteOK = "{\"status\": 200, \"error\": false, \"error_message\": \"\"}"

    /// One occupant in a here-now list: a name, or `{["state":…,]"uuid":…}` with `state=1`.
    static func occupant(_ uuid: String, state: String?, withState: Bool) -> String {
        guard withState else { return PubNubJSON.quote(uuid) }
        return "{" + (state.map { "\"state\":" + $0 + "," } ?? "") + "\"uuid\":" + PubNubJSON.quote(uuid) + "}"
    }

    /// Single-channel here now (flat form); `occupants` `nil` with `disable_uuids=1`.
    static func hereNowSingle(occupants: [String]?, occupancy: Int) -> String {
        "{\"message\":\"OK\",\"occupancy\":" + String(occupancy) + ",\"service\":\"Presence\",\"status\":200"
            + (occupants.map { ",\"uuids\":[" + $0.joined(separator: ",") + "]" } ?? "") + "}"
    }

    /// Multi-channel / group / global here now (`payload` form).
    static func hereNowMulti(channels: [(name: String, occupants: [String]?, occupancy: Int)]) -> String {
        let entries = channels.map { entry in
            PubNubJSON.quote(entry.name) + ":{\"occupancy\":" + String(entry.occupancy)
                + (entry.occupants.map { ",\"uuids\":[" + $0.joined(separator: ",") + "]" } ?? "") + "}"
        }
        let total = channels.reduce(0) { $0 + $1.occupancy }
        return "{\"message\":\"OK\",\"payload\":{\"channels\":{" + entries.joined(separator: ",")
            + "},\"total_channels\":" + String(channels.count) + ",\"total_occupancy\":" + String(total)
            + "},\"service\":\"Presence\",\"status\":200}"
    }

    static func whereNow(channels: [String]) -> String {
        "{\"message\":\"OK\",\"payload\":{\"channels\":" + PubNubJSON.stringArray(channels, separator: ",")
            + "},\"service\":\"Presence\",\"status\":200}"
    }

    /// The set state answer; the state is echoed as the client sent it.
    static func setState(_ state: String) -> String {
        "{\"message\":\"OK\",\"payload\":" + state + ",\"service\":\"Presence\",\"status\":200}"
    }

    static func getStateSingle(uuid: String, channel: String, state: String) -> String {
        "{\"status\": 200, \"uuid\": " + PubNubJSON.quote(uuid) + ", \"service\": \"Presence\", \"message\": \"OK\", \"payload\": "
            + state + ", \"channel\": " + PubNubJSON.quote(channel) + "}"
    }

    static func getStateMulti(uuid: String, states: [(channel: String, state: String)]) -> String {
        let entries = states.map { PubNubJSON.quote($0.channel) + ": " + $0.state }.joined(separator: ", ")
        return "{\"status\": 200, \"message\": \"OK\", \"payload\": {\"channels\": {" + entries
            + "}}, \"service\": \"Presence\", \"uuid\": " + PubNubJSON.quote(uuid) + "}"
    }

    static func channelGroupList(group: String, channels: [String]) -> String {
        "{\"status\": 200, \"payload\": {\"channels\": " + PubNubJSON.stringArray(channels) + ", \"group\": "
            + PubNubJSON.quote(group) + "}, \"service\": \"channel-registry\", \"error\": false}"
    }

    static func channelGroupListGroups(_ groups: [String]) -> String {
        "{\"status\": 200, \"payload\": {\"namespace\": \"\", \"groups\": " + PubNubJSON.stringArray(groups)
            + "}, \"service\": \"channel-registry\", \"error\": false}"
    }

    /// Message counts with the per-channel `more` object the service adds (recorded 2019-11 on).
    static func messageCounts(_ counts: [(channel: String, count: Int, newest: UInt64)], subscribeKey: String) -> String {
        let entries = counts.map { PubNubJSON.quote($0.channel) + ":" + String($0.count) }.joined(separator: ",")
        let more = counts.map { entry in
            let url = "/v3/history/sub-key/" + PercentDecoding.encode(subscribeKey) + "/message-counts/"
                + PercentDecoding.encode(entry.channel) + "?timetoken=" + String(entry.newest)
            return PubNubJSON.quote(entry.channel) + ": {\"url\": " + PubNubJSON.quote(url) + ", \"is_more\": false}"
        }.joined(separator: ", ")
        return "{\"status\": 200, \"error\": false, \"error_message\": \"\", \"channels\": {" + entries
            + "}, \"more\": {" + more + "}}"
    }
}
