// SPDX-License-Identifier: MIT

/// The message actions API (`/v1/message-actions/…`): add, remove and list actions on stored
/// messages; each change is also announced to the channel's subscribers (envelope `e` = 3).
extension PubNubService {
    /// The longest action `type` the service takes (the SDKs refuse longer ones, 15 characters).
    static let maxActionTypeLength = 15

    /// Add: `POST …/message/{tt}` with `{"type": …, "value": …}`; answers the stored action (recorded 2024).
    func addMessageAction(_ route: PubNubRoute, request: HTTPRequest) -> HTTPResponse {
        let channel = route.channels.first ?? ""
        guard ChannelNames.isValid(channel) else { return PubNubErrors.reservedCharacter() }
        guard case .success(let messageTimetoken?) = Self.timetoken(route.messageTimetoken, parameter: "messageTimetoken")
        else { return PubNubErrors.messageActions(400, "Invalid message timetoken") }
        guard let uuid = route.uuid, !uuid.isEmpty else { return PubNubErrors.messageActions(400, "Missing uuid") }
        let text = String(validating: request.body, as: UTF8.self) ?? ""
        guard let members = PubNubJSON.objectMembers(text) else {
            return PubNubErrors.messageActions(400, "Invalid request body")
        }
        let fields = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        guard let type = fields["type"].flatMap(PubNubJSON.stringValue), !type.isEmpty else {
            return PubNubErrors.messageActions(400, "Missing field: type")
        }
        guard let value = fields["value"].flatMap(PubNubJSON.stringValue), !value.isEmpty else {
            return PubNubErrors.messageActions(400, "Missing field: value")
        }
        guard type.count <= Self.maxActionTypeLength else {
            return PubNubErrors.messageActions(400, "Action type exceeds the maximum length of 15")
        }
        return withState(route.subscribeKey ?? "") { state, outbox, env in
            if let denied = denial(.write, channels: [channel], groups: [], route: route, state: state, env: env) { return denied }
            let existing = state.actions[channel] ?? []
            if existing.contains(where: {
                $0.messageTimetoken == messageTimetoken && $0.type == type && $0.value == value && $0.uuid == uuid
            }) {
                return PubNubErrors.messageActions(409, "Action Already Added")
            }
            let action = MessageAction(
                type: type, value: value, uuid: uuid, messageTimetoken: messageTimetoken,
                actionTimetoken: env.timetokens.next())
            state.actions[channel, default: []].append(action)
            announce(action, "added", channel: channel, timetoken: action.actionTimetoken, state: &state, env: env, outbox: &outbox)
            return .pubNub(200, "{\"status\": 200, \"data\": " + action.json + "}")
        }
    }

    /// Remove: `DELETE …/message/{tt}/action/{actionTT}` answers `{"status": 200, "data": {}}`,
    /// also when no such action exists (UNVERIFIED: the live answer for an unknown action).
    func removeMessageAction(_ route: PubNubRoute) -> HTTPResponse {
        let channel = route.channels.first ?? ""
        guard ChannelNames.isValid(channel) else { return PubNubErrors.reservedCharacter() }
        guard case .success(let messageTimetoken?) = Self.timetoken(route.messageTimetoken, parameter: "messageTimetoken"),
            case .success(let actionTimetoken?) = Self.timetoken(route.actionTimetoken, parameter: "actionTimetoken")
        else { return PubNubErrors.messageActions(400, "Invalid timetoken") }
        return withState(route.subscribeKey ?? "") { state, outbox, env in
            if let denied = denial(.delete, channels: [channel], groups: [], route: route, state: state, env: env) { return denied }
            if let index = state.actions[channel]?.firstIndex(where: {
                $0.messageTimetoken == messageTimetoken && $0.actionTimetoken == actionTimetoken
            }), let removed = state.actions[channel]?.remove(at: index) {
                if state.actions[channel]?.isEmpty == true { state.actions[channel] = nil }
                announce(removed, "removed", channel: channel, timetoken: env.timetokens.next(), state: &state, env: env, outbox: &outbox)
            }
            return .pubNub(200, "{\"status\": 200, \"data\": {}}")
        }
    }

    /// Get: actions with `end ≤ actionTimetoken < start`, the newest `limit` (1…100, default 100)
    /// oldest first, and a `more` object naming the next older page when one exists
    /// (UNVERIFIED: the live `more` layout; the SDKs read `url`, `start`, `end`, `limit`).
    func getMessageActions(_ route: PubNubRoute) -> HTTPResponse {
        let channel = route.channels.first ?? ""
        guard ChannelNames.isValid(channel) else { return PubNubErrors.reservedCharacter() }
        guard case .success(let start) = Self.timetoken(route, "start"), case .success(let end) = Self.timetoken(route, "end")
        else { return PubNubErrors.messageActions(400, "Invalid timetoken") }
        var limit = 100
        if let text = route.query["limit"], !text.isEmpty {
            guard let value = Int(text), (1...100).contains(value) else {
                return PubNubErrors.messageActions(400, "Invalid limit")
            }
            limit = value
        }
        let subscribeKey = route.subscribeKey ?? ""
        return withState(subscribeKey) { state, _, env in
            if let denied = denial(.read, channels: [channel], groups: [], route: route, state: state, env: env) { return denied }
            let inRange = (state.actions[channel] ?? []).filter { action in
                (start.map { action.actionTimetoken < $0 } ?? true) && (end.map { action.actionTimetoken >= $0 } ?? true)
            }
            let page = inRange.suffix(limit)
            var body = "{\"status\": 200, \"data\": [" + page.map(\.json).joined(separator: ", ") + "]"
            if inRange.count > page.count, let first = page.first {
                var url = "/v1/message-actions/" + PercentDecoding.encode(subscribeKey) + "/channel/"
                    + PercentDecoding.encode(channel) + "?start=" + String(first.actionTimetoken)
                if let end { url += "&end=" + String(end) }
                url += "&limit=" + String(limit)
                body += ", \"more\": {\"url\": " + PubNubJSON.quote(url) + ", \"start\": \"" + String(first.actionTimetoken)
                    + "\", \"end\": \"" + String(end ?? inRange[0].actionTimetoken) + "\", \"limit\": " + String(limit) + "}"
            }
            return .pubNub(200, body + "}")
        }
    }

    /// Delivers an action event (e = 3, `i` = the acting uuid) to the channel's subscribers; not stored in history.
    private func announce(
        _ action: MessageAction, _ event: String, channel: String, timetoken: UInt64, state: inout KeyspaceState,
        env: ServiceEnvironment, outbox: inout Outbox
    ) {
        state.append(
            StoredMessage(
                timetoken: timetoken, channel: channel, kind: .messageAction, payload: action.eventPayload(event),
                publisher: action.uuid, inHistory: false, live: true),
            env: env, outbox: &outbox)
    }
}
