// SPDX-License-Identifier: MIT

/// One message of a channel's log: a publish, a signal or a presence event, with its payload kept
/// as the exact JSON text it arrived as.
struct StoredMessage: Sendable {
    /// The kinds of message, by envelope `e` value.
    enum Kind: Int, Sendable {
        case message = 0
        case signal = 1
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
        var head = "{\"a\":" + JSONText.quote(shard) + ",\"f\":0"
        if kind == .signal { head += ",\"e\":1" }
        if kind != .presence, let publisher { head += ",\"i\":" + JSONText.quote(publisher) }
        if kind == .message {
            head += ",\"s\":" + String(sequence ?? 1)
        } else if kind == .signal, let sequence {
            head += ",\"s\":" + String(sequence)
        }
        head += ",\"p\":{\"t\":\"" + String(timetoken) + "\",\"r\":" + String(region) + "}"
        if let originTimetoken { head += ",\"o\":{\"t\":" + JSONText.quote(originTimetoken) + "}" }
        head += ",\"k\":" + JSONText.quote(subscribeKey) + ",\"c\":" + JSONText.quote(channel)
        if let meta { head += ",\"u\":" + meta }
        head += ",\"d\":" + payload
        envelopeHead = head
        envelopeTail = customMessageType.map { ",\"cmt\":" + JSONText.quote($0) + "}" } ?? "}"
    }

    /// The envelope as delivered through `match` (`b`): omitted when it equals the channel,
    /// except for presence channels, which always carry it (as recorded).
    func envelope(match: String?) -> String {
        let via = match ?? (kind == .presence ? channel : nil)
        guard let via else { return envelopeHead + envelopeTail }
        return envelopeHead + ",\"b\":" + JSONText.quote(via) + envelopeTail
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
