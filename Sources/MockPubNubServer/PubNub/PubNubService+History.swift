// SPDX-License-Identifier: MIT

extension PubNubService {
    /// History v2 (spec §7.1): `[messages, first, last]` within `HistoryBounds` (`start`
    /// exclusive, `end` inclusive), newest `count` (≤ 100) unless `reverse=true` takes the oldest.
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
        // `stringtoken=true` (sent by the 3.x clients) answers the start and end as strings.
        let stringBounds = stringTokens || Self.flag(route, "stringtoken")
        func bound(_ value: UInt64) -> String { stringBounds ? "\"\(value)\"" : String(value) }
        return withState(route.subscribeKey ?? "") { state, _, env in
            if let denied = denial(.read, channels: [channel], groups: [], route: route, state: state, env: env) { return denied }
            let bounds = HistoryBounds(start: start, end: end, reverse: reverse)
            let range = storedMessages(state, channel: channel, within: bounds, now: env.clock.unixSeconds)
            let selected = reverse ? Array(range.prefix(count)) : Array(range.suffix(count))
            // UNVERIFIED: the empty-channel body `[[],0,0]` (spec §7.1).
            guard let first = selected.first, let last = selected.last else {
                return .pubNub(200, Self.flag(route, "stringtoken") ? "[[],\"0\",\"0\"]" : "[[],0,0]")
            }
            let items = selected.map { message -> String in
                guard withToken || withMeta else { return message.payload }
                var item = "{\"message\":" + message.payload
                if withToken { item += ",\"timetoken\":" + token(message.timetoken) }
                if withMeta { item += ",\"meta\":" + (message.meta ?? "\"\"") }
                return item + "}"
            }
            return .pubNub(200, "[[" + items.joined(separator: ",") + "]," + bound(first.timetoken) + ","
                + bound(last.timetoken) + "]")
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
            var more: String?
            for channel in route.channels {
                let range = historyMessages(state, channel: channel, start: start, end: end, now: env.clock.unixSeconds)
                guard !range.isEmpty else { continue }
                let items = range.suffix(max).map { message -> String in
                    let type = message.kind == .message ? "null" : String(message.kind.rawValue)
                    let uuid = withUUID ? message.publisher.map(PubNubJSON.quote) : nil
                    let customType = withCustomType ? message.customMessageType.map(PubNubJSON.quote) : nil
                    let meta = message.meta ?? "\"\""
                    guard withActions else {
                        // Fetch v3, compact items (recorded 2024-2025).
                        var item = "{\"message\":" + message.payload + ",\"timetoken\":\"" + String(message.timetoken) + "\""
                        if withMeta { item += ",\"meta\":" + meta }
                        if withType { item += ",\"message_type\":" + type }
                        if let uuid { item += ",\"uuid\":" + uuid }
                        if let customType { item += ",\"custom_message_type\":" + customType }
                        return item + "}"
                    }
                    // With actions, spaced items in the recorded order (2024); messages without
                    // actions carry no `actions` key (recorded 2022).
                    var item = "{\"timetoken\": \"" + String(message.timetoken) + "\""
                    if let uuid { item += ", \"uuid\": " + uuid }
                    item += ", \"message\": " + message.payload
                    if withMeta { item += ", \"meta\": " + meta }
                    if withType { item += ", \"message_type\": " + type }
                    if let actions = MessageAction.historyJSON(
                        (state.actions[channel] ?? []).filter { $0.messageTimetoken == message.timetoken }) {
                        item += ", \"actions\": " + actions
                    }
                    if let customType { item += ", \"custom_message_type\": " + customType }
                    return item + "}"
                }
                entries.append(PubNubJSON.quote(channel) + (withActions ? ": [" + items.joined(separator: ", ") + "]"
                    : ":[" + items.joined(separator: ",") + "]"))
                if withActions, range.count > max, let oldest = range.suffix(max).first {
                    more = historyWithActionsMore(route, channel: channel, oldest: oldest.timetoken, max: max)
                }
            }
            let channels = "\"channels\": {" + entries.joined(separator: withActions ? ", " : ",") + "}"
            // The recorded key orders: fetch first `status, error, error_message, channels`;
            // with actions `status, channels, error_message, error` (2022-2024).
            if withActions {
                return .pubNub(200, "{\"status\": 200, " + channels + (more.map { ", " + $0 } ?? "")
                    + ", \"error_message\": \"\", \"error\": false}")
            }
            return .pubNub(200, "{\"status\": 200, \"error\": false, \"error_message\": \"\", " + channels + "}")
        }
    }

    /// The `more` object of a truncated history-with-actions page: the next (older) page starts at
    /// the oldest message returned (layout from an SDK test fixture, spec §7.2; UNVERIFIED live).
    private func historyWithActionsMore(_ route: PubNubRoute, channel: String, oldest: UInt64, max: Int) -> String {
        var url = "/v3/history-with-actions/sub-key/" + PercentDecoding.encode(route.subscribeKey ?? "") + "/channel/"
            + PercentDecoding.encode(channel) + "?start=" + String(oldest) + "&max=" + String(max)
        if let end = route.query["end"], !end.isEmpty { url += "&end=" + end }
        return "\"more\": {\"url\": " + PubNubJSON.quote(url) + ", \"start\": \"" + String(oldest) + "\", \"max\": " + String(max) + "}"
    }

    /// Delete messages (spec §7.3): removes stored messages within `HistoryBounds` (`start`
    /// exclusive, `end` inclusive; recorded: both → `start < tt <= end`, only `start` → older than
    /// it, only `end` → from it on), so "start = tt - 1, end = tt" deletes one message as PubNub documents.
    func deleteMessages(_ route: PubNubRoute) -> HTTPResponse {
        guard case .success(let start) = Self.timetoken(route, "start"),
            case .success(let end) = Self.timetoken(route, "end")
        else { return PubNubErrors.invalidHistoryArguments() }
        let bounds = HistoryBounds(start: start, end: end, reverse: false)
        return withState(route.subscribeKey ?? "") { state, _, env in
            if let denied = denial(.delete, channels: route.channels, groups: [], route: route, state: state, env: env) { return denied }
            for channel in route.channels {
                state.logs.removeAll(in: channel) { message in message.inHistory && bounds.contains(message.timetoken) }
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
                let stored = historyMessages(state, channel: channel, start: nil, end: nil, now: env.clock.unixSeconds)
                let count = stored.filter { $0.timetoken > after }.count
                // `more.url` names the channel's newest message (recorded 2020); without one, the
                // requested timetoken (UNVERIFIED). Counts are never paged, so `is_more` is false.
                return (channel: channel, count: count, newest: stored.last?.timetoken ?? after)
            }
            return .pubNub(200, PubNubBodies.messageCounts(counts, subscribeKey: route.subscribeKey ?? ""))
        }
    }

    /// Stored, unexpired messages of `channel` with `end ≤ tt < start`, oldest first (fetch v3, counts).
    func historyMessages(
        _ state: KeyspaceState, channel: String, start: UInt64?, end: UInt64?, now: Int64
    ) -> [StoredMessage] {
        (state.logs[channel]?.messages ?? []).filter { message in
            message.visibleInHistory(now: now) && (start.map { message.timetoken < $0 } ?? true)
                && (end.map { message.timetoken >= $0 } ?? true)
        }
    }

    /// Stored, unexpired messages of `channel` within `bounds`, oldest first (history v2).
    func storedMessages(_ state: KeyspaceState, channel: String, within bounds: HistoryBounds, now: Int64) -> [StoredMessage] {
        (state.logs[channel]?.messages ?? []).filter { $0.visibleInHistory(now: now) && bounds.contains($0.timetoken) }
    }
}

/// The timetokens a history v2 read or a delete covers: `start` is always exclusive and `end`
/// inclusive (recorded). With both, they bound the range in either order; alone, `start` reads
/// away from it in the direction of travel (older, or newer with `reverse`) and `end` stops the
/// travel (from it on, or up to it with `reverse`).
struct HistoryBounds: Sendable, Hashable {
    var start: UInt64?
    var end: UInt64?
    var reverse: Bool

    func contains(_ timetoken: UInt64) -> Bool {
        switch (start, end) {
        case let (start?, end?):
            return start < end ? (start < timetoken && timetoken <= end) : (end <= timetoken && timetoken < start)
        case let (start?, nil):
            return reverse ? timetoken > start : timetoken < start
        case let (nil, end?):
            return reverse ? timetoken <= end : timetoken >= end
        case (nil, nil):
            return true
        }
    }
}
