// SPDX-License-Identifier: MIT

extension PubNubService {
    /// History v2 (spec §7.1): `[messages, first, last]`, `start` exclusive, `end` inclusive,
    /// newest `count` (≤ 100) unless `reverse=true` takes the oldest.
    func history(_ route: PubNubRoute) -> HTTPResponse {
        guard case .success(let start) = Self.timetoken(route, "start"),
            case .success(let end) = Self.timetoken(route, "end")
        else { return PubNubErrors.couldNotParse() }
        let channel = route.channels.first ?? ""
        let count = route.query["count"].flatMap { Int($0) }.flatMap { (1...100).contains($0) ? $0 : nil } ?? 100
        let reverse = Self.flag(route, "reverse")
        let withToken = Self.flag(route, "include_token")
        let withMeta = Self.flag(route, "include_meta")
        let stringTokens = Self.flag(route, "string_message_token")
        func token(_ value: UInt64) -> String { stringTokens ? "\"\(value)\"" : String(value) }
        return withState(route.subscribeKey ?? "") { state, _, env in
            if let denied = denial(.read, channels: [channel], groups: [], route: route, state: state, env: env) { return denied }
            let range = historyMessages(state, channel: channel, start: start, end: end, now: env.clock.unixSeconds)
            let selected = reverse ? Array(range.prefix(count)) : Array(range.suffix(count))
            // UNVERIFIED: the empty-channel body `[[],0,0]` (spec §7.1).
            guard let first = selected.first, let last = selected.last else { return .pubNub(200, "[[],0,0]") }
            let items = selected.map { message -> String in
                guard withToken || withMeta else { return message.payload }
                var item = "{\"message\":" + message.payload
                if withToken { item += ",\"timetoken\":" + token(message.timetoken) }
                if withMeta { item += ",\"meta\":" + (message.meta ?? "\"\"") }
                return item + "}"
            }
            return .pubNub(200, "[[" + items.joined(separator: ",") + "]," + token(first.timetoken) + ","
                + token(last.timetoken) + "]")
        }
    }

    /// Fetch messages v3 and with actions (spec §7.2): one channel up to 100, several (or with
    /// actions) up to 25 each; channels without messages are left out.
    func fetchMessages(_ route: PubNubRoute) -> HTTPResponse {
        guard case .success(let start) = Self.timetoken(route, "start"),
            case .success(let end) = Self.timetoken(route, "end")
        else { return PubNubErrors.invalidHistoryArguments() }
        guard route.channels.allSatisfy(ChannelNames.isValid) else { return PubNubErrors.reservedCharacter() }
        let withActions = route.endpoint == .fetchMessagesWithActions
        let cap = route.channels.count == 1 && !withActions ? 100 : 25
        let max = route.query["max"].flatMap { Int($0) }.flatMap { (1...cap).contains($0) ? $0 : nil } ?? cap
        let withMeta = Self.flag(route, "include_meta")
        let withUUID = Self.flag(route, "include_uuid")
        let withType = Self.flag(route, "include_message_type")
        let withCustomType = Self.flag(route, "include_custom_message_type")
        return withState(route.subscribeKey ?? "") { state, _, env in
            if let denied = denial(.read, channels: route.channels, groups: [], route: route, state: state, env: env) { return denied }
            var entries: [String] = []
            for channel in route.channels {
                let range = historyMessages(state, channel: channel, start: start, end: end, now: env.clock.unixSeconds)
                guard !range.isEmpty else { continue }
                let items = range.suffix(max).map { message -> String in
                    var item = "{\"message\": " + message.payload + ", \"timetoken\": \"" + String(message.timetoken) + "\""
                    if withMeta { item += ", \"meta\": " + (message.meta ?? "\"\"") }
                    if withUUID, let publisher = message.publisher { item += ", \"uuid\": " + PubNubJSON.quote(publisher) }
                    if withType { item += ", \"message_type\": " + (message.kind == .message ? "null" : String(message.kind.rawValue)) }
                    if withCustomType, let type = message.customMessageType {
                        item += ", \"custom_message_type\": " + PubNubJSON.quote(type)
                    }
                    if withActions { item += ", \"actions\": {}" }
                    return item + "}"
                }
                entries.append(PubNubJSON.quote(channel) + ":[" + items.joined(separator: ", ") + "]")
            }
            return .pubNub(200, "{\"status\": 200, \"error\": false, \"error_message\": \"\", \"channels\": {"
                + entries.joined(separator: ", ") + "}}")
        }
    }

    /// Delete messages (spec §7.3): removes stored messages with `min(start,end) ≤ tt < max(start,end)`,
    /// which matches both the history convention and "start = tt, end = tt + 1" for one message.
    func deleteMessages(_ route: PubNubRoute) -> HTTPResponse {
        guard case .success(let start) = Self.timetoken(route, "start"),
            case .success(let end) = Self.timetoken(route, "end")
        else { return PubNubErrors.invalidHistoryArguments() }
        // Only `start`: everything older; only `end`: everything from it on (history convention).
        var low = end, high = start
        if let start, let end { (low, high) = (min(start, end), max(start, end)) }
        return withState(route.subscribeKey ?? "") { state, _, env in
            if let denied = denial(.delete, channels: route.channels, groups: [], route: route, state: state, env: env) { return denied }
            for channel in route.channels {
                state.logs[channel]?.removeAll { message in
                    message.inHistory && message.timetoken >= (low ?? 0) && message.timetoken < (high ?? .max)
                }
            }
            return .pubNub(200, PubNubBodies.deleteOK)
        }
    }

    /// Message counts (spec §7.4): stored messages newer than `timetoken`, or per channel with
    /// `channelsTimetoken` (one value applies to every channel).
    func messageCounts(_ route: PubNubRoute) -> HTTPResponse {
        var tokens: [UInt64] = []
        if let list = route.query["channelsTimetoken"] {
            for text in PubNubRoute.splitList(list) {
                guard case .success(let value?) = Self.timetoken(text, parameter: "channelsTimetoken") else { return PubNubErrors.invalidHistoryArguments() }
                tokens.append(value)
            }
        } else if case .success(let value?) = Self.timetoken(route, "timetoken") {
            tokens = [value]
        }
        guard !route.channels.isEmpty, tokens.count == 1 || tokens.count == route.channels.count else {
            return PubNubErrors.invalidHistoryArguments()
        }
        return withState(route.subscribeKey ?? "") { state, _, env in
            if let denied = denial(.read, channels: route.channels, groups: [], route: route, state: state, env: env) { return denied }
            let counts = route.channels.enumerated().map { index, channel in
                let after = tokens.count == 1 ? tokens[0] : tokens[index]
                let count = historyMessages(state, channel: channel, start: nil, end: nil, now: env.clock.unixSeconds)
                    .filter { $0.timetoken > after }.count
                return (channel: channel, count: count)
            }
            return .pubNub(200, PubNubBodies.messageCounts(counts))
        }
    }

    /// Stored, unexpired messages of `channel` with `end ≤ tt < start`, oldest first.
    func historyMessages(
        _ state: KeyspaceState, channel: String, start: UInt64?, end: UInt64?, now: Int64
    ) -> [StoredMessage] {
        (state.logs[channel]?.messages ?? []).filter { message in
            message.visibleInHistory(now: now) && (start.map { message.timetoken < $0 } ?? true)
                && (end.map { message.timetoken >= $0 } ?? true)
        }
    }
}
