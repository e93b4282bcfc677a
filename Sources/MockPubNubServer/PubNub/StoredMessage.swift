// SPDX-License-Identifier: MIT
internal import PubNubCrypto

/// One message of a channel's log: a publish, a signal or a presence event, with its payload kept
/// as the exact JSON text it arrived as.
struct StoredMessage: Sendable {
    /// The kinds of message, by envelope `e` value.
    enum Kind: Int, Sendable {
        case message = 0
        case signal = 1
        case objects = 2
        case messageAction = 3
        /// A publish-file message (`e`=4, history `message_type` 4).
        case file = 4
        case presence = 99
    }

    var timetoken: UInt64
    var channel: String
    var kind: Kind
    /// The payload's JSON text, verbatim.
    var payload: String
    /// The publisher's `meta` JSON text, verbatim.
    var meta: String?
    var publisher: String?
    var sequence: Int?
    var customMessageType: String?
    var originTimetoken: String?
    /// Whether history returns it (publishes without `store=0`).
    var inHistory: Bool
    /// Whether subscribers receive it (false for fired messages).
    var live: Bool
    /// Service-clock second after which history no longer returns it (publish `ttl`).
    var expiresAt: Int64?
    /// The envelope up to and including `"d":…`, rendered once at publish time.
    var envelopeHead: String = ""
    /// What follows `b` in the envelope (`,"cmt":…`), rendered once at publish time.
    var envelopeTail: String = ""

    /// Renders `envelopeHead` and `envelopeTail` (spec §5.3-§5.6 key order: a f e i s p o k c u d b cmt).
    mutating func renderEnvelope(subscribeKey: String, region: Int, shard: String) {
        var head: [UInt8] = []
        head.reserveCapacity(96 + shard.utf8.count + (publisher?.utf8.count ?? 0) + subscribeKey.utf8.count
            + channel.utf8.count + (meta?.utf8.count ?? 0) + payload.utf8.count)
        head.append(contentsOf: "{\"a\":".utf8)
        JSONText.appendStringLiteral(shard, to: &head)
        head.append(contentsOf: ",\"f\":0".utf8)
        if kind == .signal { head.append(contentsOf: ",\"e\":1".utf8) }
        if kind == .messageAction { head.append(contentsOf: ",\"e\":3".utf8) }
        if kind == .objects { head.append(contentsOf: ",\"e\":2".utf8) }
        if kind == .file { head.append(contentsOf: ",\"e\":4".utf8) }
        if kind != .presence, let publisher {
            head.append(contentsOf: ",\"i\":".utf8)
            JSONText.appendStringLiteral(publisher, to: &head)
        }
        if kind == .message {
            head.append(contentsOf: ",\"s\":".utf8)
            head.append(contentsOf: String(sequence ?? 1).utf8)
        } else if kind == .signal, let sequence {
            head.append(contentsOf: ",\"s\":".utf8)
            head.append(contentsOf: String(sequence).utf8)
        }
        head.append(contentsOf: ",\"p\":{\"t\":\"".utf8)
        head.append(contentsOf: String(timetoken).utf8)
        head.append(contentsOf: "\",\"r\":".utf8)
        head.append(contentsOf: String(region).utf8)
        head.append(UInt8(ascii: "}"))
        if let originTimetoken {
            head.append(contentsOf: ",\"o\":{\"t\":".utf8)
            JSONText.appendStringLiteral(originTimetoken, to: &head)
            head.append(UInt8(ascii: "}"))
        }
        head.append(contentsOf: ",\"k\":".utf8)
        JSONText.appendStringLiteral(subscribeKey, to: &head)
        head.append(contentsOf: ",\"c\":".utf8)
        JSONText.appendStringLiteral(channel, to: &head)
        if let meta {
            head.append(contentsOf: ",\"u\":".utf8)
            head.append(contentsOf: meta.utf8)
        }
        head.append(contentsOf: ",\"d\":".utf8)
        head.append(contentsOf: payload.utf8)
        envelopeHead = String(decoding: head, as: UTF8.self)
        envelopeTail = customMessageType.map { ",\"cmt\":" + PubNubJSON.quote($0) + "}" } ?? "}"
    }

    /// The envelope as delivered through `match` (`b`): omitted when it equals the channel,
    /// except for presence channels, which always carry it (as recorded).
    func envelope(match: String?) -> String {
        let via = match ?? (kind == .presence ? channel : nil)
        guard let via else { return envelopeHead + envelopeTail }
        return envelopeHead + ",\"b\":" + PubNubJSON.quote(via) + envelopeTail
    }

    /// Whether history returns the message at service second `now`.
    func visibleInHistory(now: Int64) -> Bool {
        inHistory && (expiresAt.map { now < $0 } ?? true)
    }
}

/// The bounded log of one channel, oldest first, timetokens strictly increasing.
///
/// Trimming advances `head` and compacts the storage only once `head` reaches the limit, so an
/// append stays amortised O(1) when the log is full.
struct ChannelLog: Sendable {
    private var storage: [StoredMessage] = []
    private var head = 0

    /// The retained messages; indices are those of the underlying storage.
    var messages: ArraySlice<StoredMessage> { storage[head...] }

    mutating func append(_ message: StoredMessage, limit: Int) {
        let limit = max(1, limit)
        storage.append(message)
        if storage.count - head > limit { head = storage.count - limit }
        if head >= max(limit, 64) {
            storage.removeFirst(head)
            head = 0
        }
    }

    /// Removes the retained messages matching `predicate`.
    mutating func removeAll(where predicate: (StoredMessage) -> Bool) {
        storage.removeFirst(head)
        head = 0
        storage.removeAll(where: predicate)
    }

    /// The index of the first message with a timetoken greater than `timetoken` (binary search).
    func firstIndex(after timetoken: UInt64) -> Int {
        var low = head, high = storage.count
        while low < high {
            let mid = (low + high) / 2
            if storage[mid].timetoken <= timetoken { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
