// SPDX-License-Identifier: MIT
import HarnessJSON

/// The channels and groups of the subscribe loop, in subscription order, with presence flags and state.
struct SubscriptionSet: Sendable, Equatable {
    private(set) var channels: [String] = []
    private(set) var groups: [String] = []
    private(set) var presenceChannels: [String] = []
    private(set) var presenceGroups: [String] = []
    /// Presence state per channel or group, sent with subscribe and heartbeat.
    var state: [String: JSONValue] = [:]

    var isEmpty: Bool { channels.isEmpty && groups.isEmpty && presenceChannels.isEmpty && presenceGroups.isEmpty }

    /// Channels in the subscribe path: data channels, then `-pnpres` channels.
    var pathChannels: [String] { channels + presenceChannels.map { $0 + "-pnpres" } }
    var queryGroups: [String] { groups + presenceGroups.map { $0 + "-pnpres" } }

    mutating func add(channels newChannels: [String], groups newGroups: [String], withPresence: Bool) {
        for c in newChannels where !channels.contains(c) { channels.append(c) }
        for g in newGroups where !groups.contains(g) { groups.append(g) }
        if withPresence {
            for c in newChannels where !presenceChannels.contains(c) { presenceChannels.append(c) }
            for g in newGroups where !presenceGroups.contains(g) { presenceGroups.append(g) }
        }
    }

    mutating func addPresence(channels newChannels: [String], groups newGroups: [String]) {
        for c in newChannels where !presenceChannels.contains(c) { presenceChannels.append(c) }
        for g in newGroups where !presenceGroups.contains(g) { presenceGroups.append(g) }
    }

    mutating func remove(channels old: [String], groups oldGroups: [String], presenceOnly: Bool) {
        presenceChannels.removeAll { old.contains($0) }
        presenceGroups.removeAll { oldGroups.contains($0) }
        if !presenceOnly {
            channels.removeAll { old.contains($0) }
            groups.removeAll { oldGroups.contains($0) }
            for name in old + oldGroups { state[name] = nil }
        }
    }

    mutating func removeAll() { self = SubscriptionSet() }

    /// State restricted to subscribed names, or nil when empty.
    var stateForRequest: JSONValue? {
        let relevant = state.filter { channels.contains($0.key) || groups.contains($0.key) }
        return relevant.isEmpty ? nil : .object(JSONObject(relevant))
    }
}
