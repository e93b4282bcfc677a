// SPDX-License-Identifier: MIT

extension PubNubService {
    /// Heartbeat (spec §6.1): refreshes presence, applies `state`.
    func heartbeat(_ route: PubNubRoute) -> HTTPResponse {
        guard case .success = subscribeNames(route) else { return PubNubErrors.reservedCharacter() }
        let timeout = presenceTimeout(route)
        return withState(route.subscribeKey ?? "") { state, outbox, env in
            if let denied = denial(.read, channels: route.channels, groups: route.channelGroups, route: route, state: state, env: env) {
                return denied
            }
            if let uuid = route.uuid {
                let channels = presenceChannels(route, state: state)
                let given = applyStateParameter(route, uuid: uuid, channels: channels, state: &state, env: env, outbox: &outbox)
                state.heartbeat(uuid: uuid, channels: channels, timeout: timeout, stateGiven: given, env: env, outbox: &outbox)
            }
            return .pubNub(200, PubNubBodies.heartbeat)
        }
    }

    /// Leave (spec §6.2): `leave` events on the channels and group members the uuid was on.
    func leave(_ route: PubNubRoute) -> HTTPResponse {
        withState(route.subscribeKey ?? "") { state, outbox, env in
            if let denied = denial(.read, channels: route.channels, groups: route.channelGroups, route: route, state: state, env: env) {
                return denied
            }
            if let uuid = route.uuid {
                state.leave(uuid: uuid, channels: presenceChannels(route, state: state), env: env, outbox: &outbox)
            }
            return .pubNub(200, PubNubBodies.leave)
        }
    }

    /// Here now for channels and groups (spec §6.3): flat for one channel, `payload` form otherwise.
    func hereNow(_ route: PubNubRoute) -> HTTPResponse {
        withState(route.subscribeKey ?? "") { state, _, env in
            if let denied = denial(.read, channels: route.channels, groups: route.channelGroups, route: route, state: state, env: env) {
                return denied
            }
            let page = HereNowPage(route)
            let withUUIDs = !Self.flag(route, "disable_uuids") && page.listsOccupants
            let includeState = Self.flag(route, "state")
            if route.channels.count == 1 && route.channelGroups.isEmpty {
                let channel = route.channels[0]
                let uuids = state.occupantList(channel)
                let occupants = withUUIDs ? page.occupants(uuids).map { occupantJSON($0, channel, state, includeState) } : nil
                return .pubNub(200, PubNubBodies.hereNowSingle(occupants: occupants, occupancy: uuids.count))
            }
            var names = route.channels
            for group in route.channelGroups { names += (state.groups[group] ?? []).filter { !names.contains($0) } }
            return .pubNub(200, hereNowMulti(names, state: state, page: withUUIDs ? page : nil, includeState: includeState))
        }
    }

    /// Global here now (spec §6.4): every occupied channel of the key, by name.
    func globalHereNow(_ route: PubNubRoute) -> HTTPResponse {
        withState(route.subscribeKey ?? "") { state, _, env in
            if let denied = subkeyDenial(.read, route: route, state: state, env: env) { return denied }
            let page = HereNowPage(route)
            return .pubNub(200, hereNowMulti(
                state.occupants.keys.sorted(), state: state,
                page: !Self.flag(route, "disable_uuids") && page.listsOccupants ? page : nil, includeState: Self.flag(route, "state")))
        }
    }

    /// Where now (spec §6.5). It names no channel, so on an Access Manager keyset it needs the
    /// subkey-level read grant (like global here now): every endpoint of such a keyset is checked.
    func whereNow(_ route: PubNubRoute) -> HTTPResponse {
        withState(route.subscribeKey ?? "") { state, _, env in
            if let denied = subkeyDenial(.read, route: route, state: state, env: env) { return denied }
            let channels = state.members[route.targetUUID ?? ""]?.channels.keys.sorted() ?? []
            return .pubNub(200, PubNubBodies.whereNow(channels: channels))
        }
    }

    /// Set state (spec §6.6): stores the object per channel (and group member), `state-change` where present.
    func setState(_ route: PubNubRoute) -> HTTPResponse {
        guard let text = route.query["state"], !text.isEmpty else {
            return PubNubErrors.presence("No state specified.")
        }
        guard PubNubJSON.objectMembers(text) != nil else { return PubNubErrors.presence("Invalid JSON specified.") }
        return withState(route.subscribeKey ?? "") { state, outbox, env in
            if let denied = denial(.read, channels: route.channels, groups: route.channelGroups, route: route, state: state, env: env) {
                return denied
            }
            var channels = route.channels.filter { !ChannelNames.isPresence($0) }
            for group in route.channelGroups { channels += (state.groups[group] ?? []).filter { !channels.contains($0) } }
            state.setState(uuid: route.targetUUID ?? "", channels: channels, state: text, env: env, outbox: &outbox)
            return .pubNub(200, PubNubBodies.setState(text))
        }
    }

    /// Get state (spec §6.7): single-channel form, or `payload.channels` for several / groups.
    func getState(_ route: PubNubRoute) -> HTTPResponse {
        withState(route.subscribeKey ?? "") { state, _, env in
            if let denied = denial(.read, channels: route.channels, groups: route.channelGroups, route: route, state: state, env: env) {
                return denied
            }
            let uuid = route.targetUUID ?? ""
            let stored = state.states[uuid] ?? [:]
            if route.channels.count == 1 && route.channelGroups.isEmpty {
                let channel = route.channels[0]
                return .pubNub(200, PubNubBodies.getStateSingle(uuid: uuid, channel: channel, state: stored[channel] ?? "{}"))
            }
            var names = route.channels
            for group in route.channelGroups { names += (state.groups[group] ?? []).filter { !names.contains($0) } }
            let states = names.compactMap { name in stored[name].map { (channel: name, state: $0) } }
            return .pubNub(200, PubNubBodies.getStateMulti(uuid: uuid, states: states))
        }
    }

    private func occupantJSON(_ uuid: String, _ channel: String, _ state: KeyspaceState, _ includeState: Bool) -> String {
        PubNubBodies.occupant(uuid, state: state.states[uuid]?[channel], withState: includeState)
    }

    /// The `payload` form; channels without occupants are left out (decision, as global here now does).
    /// `page`: the page of each channel's occupants listed, `nil` for none (`disable_uuids=1`, `limit=0`).
    private func hereNowMulti(_ names: [String], state: KeyspaceState, page: HereNowPage?, includeState: Bool) -> String {
        let entries = names.compactMap { name -> (name: String, occupants: [String]?, occupancy: Int)? in
            let uuids = state.occupantList(name)
            guard !uuids.isEmpty else { return nil }
            return (name, page.map { $0.occupants(uuids).map { occupantJSON($0, name, state, includeState) } }, uuids.count)
        }
        return PubNubBodies.hereNowMulti(channels: entries)
    }
}
