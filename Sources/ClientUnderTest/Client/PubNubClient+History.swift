// SPDX-License-Identifier: MIT

extension PubNubClient {
    typealias Call<T> = (request: PubNubRequest, parse: @Sendable (JSONValue) -> Result<T, PNStatus>)

    /// History v2 of one channel. `count` is clamped to 1…100; messages are decrypted when a cipher is set.
    public func history(channel: String, start: UInt64? = nil, end: UInt64? = nil, count: Int = 100, reverse: Bool = false,
                        includeTimetoken: Bool = false, includeMeta: Bool = false) async throws(PNStatus) -> PNHistoryResult
    {
        let call = try historyCall(channel, start, end, count, reverse, includeTimetoken, includeMeta)
        let result = try await perform(call.request, parse: call.parse).get()
        reportDecryptionFailures(result.messages, channel: channel, operation: .history)
        return result
    }

    public func history(channel: String, start: UInt64? = nil, end: UInt64? = nil, count: Int = 100, reverse: Bool = false,
                        includeTimetoken: Bool = false, includeMeta: Bool = false,
                        completion: @escaping @Sendable (Result<PNHistoryResult, PNStatus>) -> Void)
    {
        do {
            let call = try historyCall(channel, start, end, count, reverse, includeTimetoken, includeMeta)
            run(call.request, parse: call.parse) { [weak self] outcome in
                if case .success(let result) = outcome {
                    self?.reportDecryptionFailures(result.messages, channel: channel, operation: .history)
                }
                completion(outcome)
            }
        } catch { completion(.failure(error)) }
    }

    /// One `PNDecryptionErrorCategory` status to the listeners when stored messages could not be
    /// decrypted (they are returned as received, flagged `decryptionFailed`).
    func reportDecryptionFailures(_ messages: [PNHistoryMessage], channel: String, operation: PNOperationType) {
        let failed = messages.filter(\.decryptionFailed)
        guard !failed.isEmpty else { return }
        emit(.status(PNStatus(category: .decryptionError, operation: operation, statusCode: 200,
                              errorData: PNErrorData(information: "\(failed.count) stored message(s) on \(channel) could not be decrypted",
                                                     channels: [channel]))))
    }

    private func historyCall(_ channel: String, _ start: UInt64?, _ end: UInt64?, _ count: Int, _ reverse: Bool,
                             _ includeTimetoken: Bool, _ includeMeta: Bool) throws(PNStatus) -> Call<PNHistoryResult>
    {
        try NameValidation.check([channel], kind: "channel", operation: .history)
        let config = configuration
        let request = HistoryEndpoints.history(subscribeKey: config.subscribeKey, channel: channel, start: start, end: end,
                                               count: min(max(count, 1), 100), reverse: reverse,
                                               includeTimetoken: includeTimetoken, includeMeta: includeMeta)
        let parse = HistoryEndpoints.parseHistory(cipher: config.cipher, withTimetoken: includeTimetoken, withMeta: includeMeta)
        return (request, Self.shaped(request, parse))
    }

    /// Fetch messages v3 of several channels (`maximumPerChannel` default: 100 for one channel, 25 for
    /// several or with actions). `includeMessageActions` fetches one channel's messages with their
    /// actions (`/v3/history-with-actions/…`); with several channels it is refused (`PNBadRequestCategory`).
    public func fetchMessages(channels: [String], start: UInt64? = nil, end: UInt64? = nil, maximumPerChannel: Int? = nil,
                              includeMeta: Bool = false, includeUUID: Bool = false,
                              includeCustomMessageType: Bool = false,
                              includeMessageActions: Bool = false) async throws(PNStatus) -> PNFetchMessagesResult
    {
        let call = try fetchCall(channels, start, end, maximumPerChannel, includeMeta, includeUUID, includeCustomMessageType,
                                 includeMessageActions)
        let result = try await perform(call.request, parse: call.parse).get()
        for (channel, messages) in result.channels.sorted(by: { $0.key < $1.key }) {
            reportDecryptionFailures(messages, channel: channel, operation: .fetchMessages)
        }
        return result
    }

    public func fetchMessages(channels: [String], start: UInt64? = nil, end: UInt64? = nil, maximumPerChannel: Int? = nil,
                              includeMeta: Bool = false, includeUUID: Bool = false,
                              completion: @escaping @Sendable (Result<PNFetchMessagesResult, PNStatus>) -> Void)
    {
        do {
            let call = try fetchCall(channels, start, end, maximumPerChannel, includeMeta, includeUUID, false)
            run(call.request, parse: call.parse) { [weak self] outcome in
                if case .success(let result) = outcome {
                    for (channel, messages) in result.channels.sorted(by: { $0.key < $1.key }) {
                        self?.reportDecryptionFailures(messages, channel: channel, operation: .fetchMessages)
                    }
                }
                completion(outcome)
            }
        } catch { completion(.failure(error)) }
    }

    private func fetchCall(_ channels: [String], _ start: UInt64?, _ end: UInt64?, _ maximum: Int?, _ includeMeta: Bool,
                           _ includeUUID: Bool, _ includeCustomMessageType: Bool,
                           _ includeMessageActions: Bool = false) throws(PNStatus) -> Call<PNFetchMessagesResult>
    {
        let operation: PNOperationType = includeMessageActions ? .historyWithActions : .fetchMessages
        try NameValidation.check(channels, kind: "channel", operation: operation)
        if includeMessageActions && channels.count != 1 {
            throw PNStatus(category: .badRequest, operation: operation,
                           errorData: PNErrorData(information: "messages with actions are fetched for one channel at a time"))
        }
        let config = configuration
        let max = maximum ?? (channels.count == 1 && !includeMessageActions ? 100 : 25)
        let request = HistoryEndpoints.fetch(subscribeKey: config.subscribeKey, channels: channels, start: start, end: end,
                                             max: max, includeMeta: includeMeta, includeUUID: includeUUID,
                                             includeCustomMessageType: includeCustomMessageType,
                                             includeMessageActions: includeMessageActions)
        return (request, Self.shaped(request, HistoryEndpoints.parseFetch(cipher: config.cipher, withActions: includeMessageActions)))
    }

    /// Deletes messages of one channel between `start` and `end`.
    public func deleteMessages(channel: String, start: UInt64? = nil, end: UInt64? = nil) async -> PNStatus {
        switch deleteRequest(channel, start, end) {
        case .success(let request): await acknowledge(request)
        case .failure(let status): status
        }
    }

    public func deleteMessages(channel: String, start: UInt64? = nil, end: UInt64? = nil,
                               completion: @escaping @Sendable (PNStatus) -> Void)
    {
        switch deleteRequest(channel, start, end) {
        case .success(let request): acknowledge(request, completion: completion)
        case .failure(let status): completion(status)
        }
    }

    private func deleteRequest(_ channel: String, _ start: UInt64?, _ end: UInt64?) -> Result<PubNubRequest, PNStatus> {
        do throws(PNStatus) {
            try NameValidation.check([channel], kind: "channel", operation: .deleteMessages)
        } catch { return .failure(error) }
        return .success(HistoryEndpoints.delete(subscribeKey: configuration.subscribeKey, channel: channel, start: start, end: end))
    }

    /// Number of messages after a timetoken: one timetoken for all channels, or one per channel.
    public func messageCounts(channels: [String], timetokens: [UInt64]) async throws(PNStatus) -> PNMessageCountResult {
        let call = try countsCall(channels, timetokens)
        return try await perform(call.request, parse: call.parse).get()
    }

    public func messageCounts(channels: [String], timetokens: [UInt64],
                              completion: @escaping @Sendable (Result<PNMessageCountResult, PNStatus>) -> Void)
    {
        do {
            let call = try countsCall(channels, timetokens)
            run(call.request, parse: call.parse, deliver: completion)
        } catch { completion(.failure(error)) }
    }

    private func countsCall(_ channels: [String], _ timetokens: [UInt64]) throws(PNStatus) -> Call<PNMessageCountResult> {
        try NameValidation.check(channels, kind: "channel", operation: .messageCounts)
        guard timetokens.count == 1 || timetokens.count == channels.count, !channels.isEmpty else {
            throw PNStatus(category: .badRequest, operation: .messageCounts,
                           errorData: PNErrorData(information: "give one timetoken, or one per channel"))
        }
        let request = HistoryEndpoints.messageCounts(subscribeKey: configuration.subscribeKey, channels: channels, timetokens: timetokens)
        return (request, Self.shaped(request, HistoryEndpoints.parseMessageCounts))
    }
}
