// SPDX-License-Identifier: MIT

/// A uuid present on some channels: each channel remembers the generation of its last refresh;
/// the deadline of generation `g` (the keyspace's `PresenceDeadlines`) expires the channels last
/// refreshed at or before `g`. The map holds one or a few entries per uuid, so it is a `SmallMap`.
struct PresenceMember {
    var channels: SmallMap<String, UInt64> = [:]
    var timeout: Int
}

// Interval ("announce max") mode, when a key enables it, is in Presence/PresenceInterval.swift.
extension KeyspaceState {
    /// Refreshes `uuid` on `channels` (subscribe or heartbeat): joins where new, then asks for a
    /// deadline `timeout` seconds ahead.
    mutating func heartbeat(
        uuid: String, channels: [String], timeout: Int, stateGiven: Set<String> = [], env: ServiceEnvironment,
        outbox: inout Outbox
    ) {
        guard !channels.isEmpty else { return }
        presenceGeneration += 1
        let generation = presenceGeneration
        var member = members.removeValue(forKey: uuid) ?? PresenceMember(timeout: timeout)
        member.timeout = timeout
        var joined: [String] = []
        for channel in channels where member.channels[channel] == nil {
            joined.append(channel)
            occupants[channel, default: []].insert(uuid)
        }
        for channel in channels { member.channels[channel] = generation }
        members[uuid] = member
        // A join carries no `data` for state set before it (recorded 2020); state given with the
        // joining request itself (`state` on subscribe / heartbeat) rides on the join (UNVERIFIED).
        for channel in joined {
            let data = stateGiven.contains(channel) ? states[uuid]?[channel] : nil
            emitPresence("join", channel: channel, uuid: uuid, data: data, env: env, outbox: &outbox)
        }
        outbox.presenceTimers.append((uuid, generation, timeout))
    }

    /// Adds the presence deadline of a heartbeat (`generation`), at `deadline` on the scheduler's
    /// clock. A deadline is worth keeping while some channel of its uuid was last refreshed at its
    /// generation: the others can no longer expire anything, so a uuid that heartbeats one of
    /// several channels cannot pile them up (they are dropped when the heap is compacted).
    mutating func addPresenceDeadline(uuid: String, generation: UInt64, deadline: UInt64) {
        let members = self.members
        presenceDeadlines.add(.init(deadline: deadline, generation: generation, uuid: uuid)) { entry in
            members[entry.uuid]?.channels.contains { $0.value == entry.generation } ?? false
        }
    }

    /// Removes `uuid` from `channels` with a `leave` event each (spec §6.2).
    mutating func leave(uuid: String, channels: [String], env: ServiceEnvironment, outbox: inout Outbox) {
        for channel in channels where members[uuid]?.channels[channel] != nil {
            remove(uuid: uuid, channel: channel, action: "leave", env: env, outbox: &outbox)
        }
        forgetIfAbsent(uuid, outbox: &outbox)
    }

    /// The presence deadline of `generation` passed: `timeout` for every channel not refreshed since.
    mutating func expire(uuid: String, generation: UInt64, env: ServiceEnvironment, outbox: inout Outbox) {
        guard members[uuid] != nil else { return }
        let stale = (members[uuid]?.channels ?? [:]).filter { $0.value <= generation }.map(\.key).sorted()
        for channel in stale {
            remove(uuid: uuid, channel: channel, action: "timeout", env: env, outbox: &outbox)
        }
        forgetIfAbsent(uuid, outbox: &outbox)
    }

    /// Stores state for `uuid` on `channels` (`{}` clears it); a `state-change` event where present.
    mutating func setState(
        uuid: String, channels: [String], state: String, env: ServiceEnvironment, outbox: inout Outbox
    ) {
        let empty = PubNubJSON.objectMembers(state)?.isEmpty ?? false
        for channel in channels {
            let previous = states[uuid]?[channel]
            if empty {
                states[uuid]?[channel] = nil
                if states[uuid]?.isEmpty == true { states[uuid] = nil }
            } else {
                states[uuid, default: [:]][channel] = state
            }
            if members[uuid]?.channels[channel] != nil && previous != (empty ? nil : state) {
                emitPresence("state-change", channel: channel, uuid: uuid, data: state, env: env, outbox: &outbox)
            }
        }
    }

    /// The uuids on `channel`, sorted.
    func occupantList(_ channel: String) -> [String] {
        (occupants[channel] ?? []).sorted()
    }

    private mutating func remove(
        uuid: String, channel: String, action: String, env: ServiceEnvironment, outbox: inout Outbox
    ) {
        members[uuid]?.channels.removeValue(forKey: channel)
        occupants[channel]?.remove(uuid)
        if occupants[channel]?.isEmpty == true { occupants.removeValue(forKey: channel) }
        let data = states[uuid]?.removeValue(forKey: channel)
        if states[uuid]?.isEmpty == true { states.removeValue(forKey: uuid) }
        emitPresence(action, channel: channel, uuid: uuid, data: data, env: env, outbox: &outbox)
    }

    private mutating func forgetIfAbsent(_ uuid: String, outbox: inout Outbox) {
        guard let member = members[uuid], member.channels.isEmpty else { return }
        members.removeValue(forKey: uuid)
        // No uuid is present: every deadline left is stale, and so is the sweep.
        if members.isEmpty, let sweep = presenceDeadlines.removeAll() { outbox.cancels.append(sweep) }
    }

    private mutating func emitPresence(
        _ action: String, channel: String, uuid: String, data: String?, env: ServiceEnvironment, outbox: inout Outbox
    ) {
        if env.configuration.presenceIntervalMode {
            let features = env.configuration.features(for: env.subscribeKey)
            if gathersPresence(action, channel: channel, features: features) {
                gatherPresence(action, channel: channel, uuid: uuid, features: features, outbox: &outbox)
                return
            }
        }
        let nanoseconds = env.clock.unixNanoseconds()
        let event = PubNubBodies.presenceEvent(
            action: action, channel: channel, uuid: uuid, occupancy: occupants[channel]?.count ?? 0,
            seconds: nanoseconds / 1_000_000_000, milliseconds: nanoseconds / 1_000_000, data: data)
        let message = StoredMessage(
            timetoken: env.timetokens.next(), channel: channel + ChannelNames.presenceSuffix, kind: .presence,
            payload: event.payload, meta: event.meta, inHistory: false, live: true)
        append(message, env: env, outbox: &outbox)
    }
}
