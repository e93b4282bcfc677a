// SPDX-License-Identifier: MIT

/// The joins, leaves and timeouts of one channel gathered in interval mode since the last
/// `interval` event.
struct PresenceDeltas: Sendable, Hashable {
    var join: [String] = []
    var leave: [String] = []
    var timeout: [String] = []

    var count: Int { join.count + leave.count + timeout.count }

    mutating func record(_ action: String, uuid: String) {
        switch action {
        case "join": join.append(uuid)
        case "leave": leave.append(uuid)
        default: timeout.append(uuid)
        }
    }
}

/// Interval presence mode (pubnub-modern spec §8, the "announce max" admin setting): a channel
/// whose occupancy is above `KeyFeatures.presenceAnnounceMax` stops announcing each join, leave
/// and timeout; every `presenceInterval` seconds it gets one `interval` event with its occupancy
/// and the `join`/`leave`/`timeout` arrays gathered since, or `here_now_refresh: true` when more
/// than `presenceDeltaLimit` changes happened. UNVERIFIED: the service's defaults and the `u`
/// metadata of interval events are not recorded; state changes are still announced.
extension KeyspaceState {
    /// Whether a `join`/`leave`/`timeout` on `channel` is gathered instead of announced:
    /// interval mode is on and the occupancy before or after the change is above the maximum.
    func gathersPresence(_ action: String, channel: String, features: KeyFeatures) -> Bool {
        guard let maximum = features.presenceAnnounceMax, action != "state-change" else { return false }
        let after = occupants[channel]?.count ?? 0
        let before = action == "join" ? after - 1 : after + 1
        return max(before, after) > maximum
    }

    /// Records a gathered change and asks for the interval timer if none runs.
    mutating func gatherPresence(_ action: String, channel: String, uuid: String, features: KeyFeatures, outbox: inout Outbox) {
        intervalDeltas[channel, default: PresenceDeltas()].record(action, uuid: uuid)
        if !intervalTimerRunning {
            intervalTimerRunning = true
            outbox.intervalTimer = max(1, features.presenceInterval)
        }
    }

    /// The interval timer fired: one `interval` event per channel in interval mode (above the
    /// maximum, or with gathered changes); asks for the next tick while a channel stays above it.
    mutating func emitIntervals(env: ServiceEnvironment, outbox: inout Outbox) {
        let features = env.configuration.features(for: env.subscribeKey)
        let maximum = features.presenceAnnounceMax ?? Int.max
        let above = occupants.filter { $0.value.count > maximum }.map(\.key)
        let channels = Set(above).union(intervalDeltas.keys).sorted()
        let deltas = intervalDeltas
        intervalDeltas = [:]
        let nanoseconds = env.clock.unixNanoseconds()
        for channel in channels {
            let occupancy = occupants[channel]?.count ?? 0
            let event = PubNubBodies.intervalEvent(
                channel: channel, occupancy: occupancy, seconds: nanoseconds / 1_000_000_000,
                deltas: deltas[channel] ?? PresenceDeltas(), deltaLimit: features.presenceDeltaLimit)
            append(StoredMessage(
                timetoken: env.timetokens.next(), channel: channel + ChannelNames.presenceSuffix, kind: .presence,
                payload: event.payload, meta: event.meta, inHistory: false, live: true), env: env, outbox: &outbox)
        }
        intervalTimerRunning = !above.isEmpty
        if intervalTimerRunning { outbox.intervalTimer = max(1, features.presenceInterval) }
    }
}

extension PubNubBodies {
    /// An `interval` event: `{"action":"interval","timestamp":S,"occupancy":N[,"join":[…]][,"leave":[…]][,"timeout":[…]]}`
    /// (empty arrays left out), or `"here_now_refresh":true` instead of the arrays.
    static func intervalEvent(
        channel: String, occupancy: Int, seconds: Int64, deltas: PresenceDeltas, deltaLimit: Int
    ) -> (payload: String, meta: String) {
        var payload = "{\"action\":\"interval\",\"timestamp\":" + String(seconds) + ",\"occupancy\":" + String(occupancy)
        if deltas.count > deltaLimit {
            payload += ",\"here_now_refresh\":true"
        } else {
            for (name, list) in [("join", deltas.join), ("leave", deltas.leave), ("timeout", deltas.timeout)] where !list.isEmpty {
                payload += ",\"" + name + "\":" + PubNubJSON.stringArray(list, separator: ",")
            }
        }
        let meta = "{\"pn_action\":\"interval\",\"pn_channel\":" + PubNubJSON.quote(channel) + ",\"pn_ispresence\":1,\"pn_occupancy\":"
            + String(occupancy) + ",\"pn_timestamp\":" + String(seconds) + "}"
        return (payload + "}", meta)
    }
}
