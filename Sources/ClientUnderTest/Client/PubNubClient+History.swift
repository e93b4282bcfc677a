// SPDX-License-Identifier: MIT

extension PubNubClient {
    /// History v2 of one channel. `count` is clamped to 1…100; messages are decrypted when a cipher is set.
    public func history(channel: String, start: UInt64? = nil, end: UInt64? = nil, count: Int = 100, reverse: Bool = false,
                        includeTimetoken: Bool = false, includeMeta: Bool = false) async throws(PNStatus) -> PNHistoryResult
    {
        try NameValidation.check([channel], kind: "channel", operation: .history)
        let config = configuration
        let request = HistoryEndpoints.history(subscribeKey: config.subscribeKey, channel: channel, start: start, end: end,
                                               count: min(max(count, 1), 100), reverse: reverse,
                                               includeTimetoken: includeTimetoken, includeMeta: includeMeta)
        let parse = HistoryEndpoints.parseHistory(cipher: config.cipher, withTimetoken: includeTimetoken, withMeta: includeMeta)
        return try await perform(request, parse: Self.shaped(request, parse)).get()
    }

    /// Fetch messages v3 of several channels (`maximumPerChannel` default: 100 for one channel, 25 for several).
    public func fetchMessages(channels: [String], start: UInt64? = nil, end: UInt64? = nil, maximumPerChannel: Int? = nil,
                              includeMeta: Bool = false, includeUUID: Bool = false) async throws(PNStatus) -> PNFetchMessagesResult
    {
        try NameValidation.check(channels, kind: "channel", operation: .fetchMessages)
        let config = configuration
        let max = maximumPerChannel ?? (channels.count == 1 ? 100 : 25)
        let request = HistoryEndpoints.fetch(subscribeKey: config.subscribeKey, channels: channels, start: start, end: end,
                                             max: max, includeMeta: includeMeta, includeUUID: includeUUID)
        return try await perform(request, parse: Self.shaped(request, HistoryEndpoints.parseFetch(cipher: config.cipher))).get()
    }

    /// Deletes messages of one channel between `start` and `end`.
    public func deleteMessages(channel: String, start: UInt64? = nil, end: UInt64? = nil) async -> PNStatus {
        do throws(PNStatus) {
            try NameValidation.check([channel], kind: "channel", operation: .deleteMessages)
        } catch { return error }
        return await acknowledge(HistoryEndpoints.delete(subscribeKey: configuration.subscribeKey, channel: channel, start: start, end: end))
    }

    /// Number of messages after a timetoken: one timetoken for all channels, or one per channel.
    public func messageCounts(channels: [String], timetokens: [UInt64]) async throws(PNStatus) -> PNMessageCountResult {
        try NameValidation.check(channels, kind: "channel", operation: .messageCounts)
        guard timetokens.count == 1 || timetokens.count == channels.count, !channels.isEmpty else {
            throw PNStatus(category: .badRequest, operation: .messageCounts,
                           errorData: PNErrorData(information: "give one timetoken, or one per channel"))
        }
        let request = HistoryEndpoints.messageCounts(subscribeKey: configuration.subscribeKey, channels: channels, timetokens: timetokens)
        return try await perform(request, parse: Self.shaped(request, HistoryEndpoints.parseMessageCounts)).get()
    }
}
