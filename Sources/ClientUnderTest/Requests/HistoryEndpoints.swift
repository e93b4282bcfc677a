// SPDX-License-Identifier: MIT
import HarnessJSON

/// History v2, fetch messages v3, delete, message counts: requests and parsers.
enum HistoryEndpoints {
    static func history(subscribeKey: String, channel: String, start: UInt64?, end: UInt64?, count: Int, reverse: Bool,
                        includeTimetoken: Bool, includeMeta: Bool) -> PubNubRequest
    {
        var query: [(String, String)] = [("count", String(count))]
        if reverse { query.append(("reverse", "true")) }
        if let start { query.append(("start", String(start))) }
        if let end { query.append(("end", String(end))) }
        if includeTimetoken { query.append(("include_token", "true")) }
        if includeMeta { query.append(("include_meta", "true")) }
        return PubNubRequest(operation: .history,
                             path: "/v2/history/sub-key/\(PercentEncoding.encode(subscribeKey))/channel/\(PercentEncoding.encode(channel))",
                             query: query, channels: [channel])
    }

    /// Fetch v3 (`/v3/history/…`), or with each message's actions (`/v3/history-with-actions/…`, one channel).
    static func fetch(subscribeKey: String, channels: [String], start: UInt64?, end: UInt64?, max: Int, includeMeta: Bool,
                      includeUUID: Bool, includeCustomMessageType: Bool = false, includeMessageActions: Bool = false) -> PubNubRequest
    {
        var query: [(String, String)] = [("max", String(max))]
        if let start { query.append(("start", String(start))) }
        if let end { query.append(("end", String(end))) }
        if includeMeta { query.append(("include_meta", "true")) }
        if includeUUID { query.append(("include_uuid", "true")) }
        if includeCustomMessageType { query.append(("include_custom_message_type", "true")) }
        let endpoint = includeMessageActions ? "history-with-actions" : "history"
        return PubNubRequest(operation: includeMessageActions ? .historyWithActions : .fetchMessages,
                             path: "/v3/\(endpoint)/sub-key/\(PercentEncoding.encode(subscribeKey))/channel/\(PercentEncoding.commaList(channels))",
                             query: query, channels: channels)
    }

    static func delete(subscribeKey: String, channel: String, start: UInt64?, end: UInt64?) -> PubNubRequest {
        var query: [(String, String)] = []
        if let start { query.append(("start", String(start))) }
        if let end { query.append(("end", String(end))) }
        return PubNubRequest(operation: .deleteMessages, method: "DELETE",
                             path: "/v3/history/sub-key/\(PercentEncoding.encode(subscribeKey))/channel/\(PercentEncoding.encode(channel))",
                             query: query, channels: [channel])
    }

    /// One timetoken for all channels (`timetoken=`), or one per channel (`channelsTimetoken=`).
    static func messageCounts(subscribeKey: String, channels: [String], timetokens: [UInt64]) -> PubNubRequest {
        let query: [(String, String)] = timetokens.count == 1
            ? [("timetoken", String(timetokens[0]))]
            : [("channelsTimetoken", timetokens.map(String.init).joined(separator: ","))]
        return PubNubRequest(operation: .messageCounts,
                             path: "/v3/history/sub-key/\(PercentEncoding.encode(subscribeKey))/message-counts/\(PercentEncoding.commaList(channels))",
                             query: query, channels: channels)
    }

    static func parseHistory(cipher: (any PubNubMessageCipher)?, withTimetoken: Bool, withMeta: Bool)
        -> @Sendable (JSONValue) -> PNHistoryResult?
    {
        { body in
            guard let items = body[0]?.arrayValue, let start = body[1]?.timetokenValue, let end = body[2]?.timetokenValue else {
                return nil
            }
            let messages = items.map { item -> PNHistoryMessage in
                let wrapped = (withTimetoken || withMeta) && item["message"] != nil
                let raw = wrapped ? item["message"]! : item
                let (message, failed) = MessageCrypto.decrypt(raw, cipher: cipher)
                let meta: JSONValue? = wrapped ? item["meta"] : nil
                return PNHistoryMessage(message: message, timetoken: wrapped ? item["timetoken"]?.timetokenValue : nil,
                                        meta: meta == .string("") ? nil : meta, publisher: nil, decryptionFailed: failed)
            }
            return PNHistoryResult(messages: messages, start: start, end: end)
        }
    }

    /// `withActions`: each entry's `actions` object becomes its ``PNHistoryMessage/messageActions``.
    static func parseFetch(cipher: (any PubNubMessageCipher)?, withActions: Bool = false) -> @Sendable (JSONValue) -> PNFetchMessagesResult? {
        { body in
            guard let map = body["channels"]?.objectValue else { return nil }
            var channels: [String: [PNHistoryMessage]] = [:]
            for (name, list) in map {
                guard let items = list.arrayValue else { return nil }
                var messages: [PNHistoryMessage] = []
                for item in items {
                    guard let raw = item["message"] else { return nil }
                    let (message, failed) = MessageCrypto.decrypt(raw, cipher: cipher)
                    let meta = item["meta"]
                    let timetoken = item["timetoken"]?.timetokenValue
                    var actions: [PNMessageAction]?
                    if withActions {
                        guard let parsed = MessageActionEndpoints.historyActions(item["actions"], messageTimetoken: timetoken ?? 0)
                        else { return nil }
                        actions = parsed
                    }
                    messages.append(PNHistoryMessage(message: message, timetoken: timetoken,
                                                     meta: meta == .string("") ? nil : meta, publisher: item["uuid"]?.stringValue,
                                                     decryptionFailed: failed,
                                                     customMessageType: item["custom_message_type"]?.stringValue,
                                                     messageActions: actions))
                }
                channels[name] = messages
            }
            return PNFetchMessagesResult(channels: channels)
        }
    }

    static func parseMessageCounts(_ body: JSONValue) -> PNMessageCountResult? {
        guard let map = body["channels"]?.objectValue else { return nil }
        var counts: [String: Int] = [:]
        for (name, value) in map {
            guard let count = value.int64Value else { return nil }
            counts[name] = Int(count)
        }
        return PNMessageCountResult(channels: counts)
    }
}
