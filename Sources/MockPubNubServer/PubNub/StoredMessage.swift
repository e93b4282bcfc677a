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
    /// The envelope up to and including `"d":…` without the timetoken's digits, which belong at
    /// UTF-8 offset `timetokenOffset` (after `…,"p":{"t":"`); rendered once at publish time, as
    /// bytes (delivery copies them into each envelope; no `String` is built for them).
    var envelopeHead: [UInt8] = []
    var timetokenOffset = 0
    /// What follows `b` in the envelope (`,"cmt":…`), rendered once at publish time.
    var envelopeTail: String = ""

    /// Whether `renderEnvelope` ran.
    var isRendered: Bool { !envelopeHead.isEmpty }

    /// Renders `envelopeHead` and `envelopeTail` (spec §5.3-§5.6 key order: a f e i s p o k c u d
    /// b cmt). The timetoken is not part of them, so a publish renders its message before taking
    /// the keyspace lock that assigns the timetoken.
    mutating func renderEnvelope(subscribeKey: String, region: Int, shard: String) {
        // Written in one pass into scratch memory with room for the worst case (every byte of
        // the short strings escaped as `\u00XX`), then copied once into an array of its size
        // (`Array(_:)` of the buffer: allocated at its size and filled with one copy).
        let shortStrings = shard.utf8.count + (publisher?.utf8.count ?? 0) + (originTimetoken?.utf8.count ?? 0)
            + subscribeKey.utf8.count + channel.utf8.count
        let room = 160 + 6 * shortStrings + (meta?.utf8.count ?? 0) + payload.utf8.count
        (envelopeHead, timetokenOffset) = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: room) { scratch in
            var writer = EnvelopeByteWriter(base: scratch.baseAddress!)
            let offset = writeEnvelopeHead(to: &writer, subscribeKey: subscribeKey, region: region, shard: shard)
            precondition(writer.count <= room, "the envelope outgrew its scratch memory")
            return (Array(UnsafeBufferPointer(rebasing: scratch[..<writer.count])), offset)
        }
        envelopeTail = customMessageType.map { ",\"cmt\":" + PubNubJSON.quote($0) + "}" } ?? "}"
    }

    /// Writes the envelope head (see `renderEnvelope`); returns the timetoken's offset.
    private func writeEnvelopeHead(
        to head: inout EnvelopeByteWriter, subscribeKey: String, region: Int, shard: String
    ) -> Int {
        head.literal("{\"a\":")
        head.stringLiteral(shard)
        head.literal(",\"f\":0")
        if kind == .signal { head.literal(",\"e\":1") }
        if kind == .messageAction { head.literal(",\"e\":3") }
        if kind == .objects { head.literal(",\"e\":2") }
        if kind == .file { head.literal(",\"e\":4") }
        if kind != .presence, let publisher {
            head.literal(",\"i\":")
            head.stringLiteral(publisher)
        }
        if kind == .message {
            head.literal(",\"s\":")
            head.decimal(sequence ?? 1)
        } else if kind == .signal, let sequence {
            head.literal(",\"s\":")
            head.decimal(sequence)
        }
        head.literal(",\"p\":{\"t\":\"")
        let timetokenOffset = head.count
        head.literal("\",\"r\":")
        head.decimal(region)
        head.byte(UInt8(ascii: "}"))
        if let originTimetoken {
            head.literal(",\"o\":{\"t\":")
            head.stringLiteral(originTimetoken)
            head.byte(UInt8(ascii: "}"))
        }
        head.literal(",\"k\":")
        head.stringLiteral(subscribeKey)
        head.literal(",\"c\":")
        head.stringLiteral(channel)
        if let meta {
            head.literal(",\"u\":")
            head.text(meta)
        }
        head.literal(",\"d\":")
        head.text(payload)
        return timetokenOffset
    }

    /// The envelope as delivered through `match` (`b`): omitted when it equals the channel,
    /// except for presence channels, which always carry it (as recorded).
    func envelope(match: String?) -> String {
        let via = match ?? (kind == .presence ? channel : nil)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(envelopeHead.count + 20 + envelopeTail.utf8.count + (via.map { $0.utf8.count + 8 } ?? 0))
        envelopeHead.withUnsafeBufferPointer { head in
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: head[..<timetokenOffset]))
            bytes.appendDecimal(timetoken)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: head[timetokenOffset...]))
        }
        if let via {
            bytes.appendLiteral(",\"b\":")
            JSONText.appendStringLiteral(via, to: &bytes)
        }
        bytes.appendText(envelopeTail)
        return String(decoding: bytes, as: UTF8.self)
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

    mutating func append(_ message: consuming StoredMessage, limit: Int) {
        let limit = max(1, limit)
        storage.append(consume message)
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

/// Writes an envelope's bytes into scratch memory with room for them.
private struct EnvelopeByteWriter {
    let base: UnsafeMutablePointer<UInt8>
    var count = 0

    init(base: UnsafeMutablePointer<UInt8>) {
        self.base = base
    }

    mutating func literal(_ text: StaticString) {
        (base + count).update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        count += text.utf8CodeUnitCount
    }

    mutating func byte(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    /// `text` as a JSON string literal (`JSONText.appendStringLiteral`); a literal of one character is a scalar, hence `byte`.
    /// Reads the string's bytes in place (no copy of the string, so no reference count) and copies
    /// them while checking them, eight at a time (`plainWord`); the first byte that needs an escape
    /// hands the whole literal to `JSONText.writeStringLiteral`, which writes over the copy.
    mutating func stringLiteral(_ text: String) {
        let out = base + count
        let written = text.utf8.withContiguousStorageIfAvailable { bytes -> Int in
            out[0] = UInt8(ascii: "\"")
            guard let source = bytes.baseAddress else {
                out[1] = UInt8(ascii: "\"")
                return 2
            }
            let length = bytes.count
            var index = 0
            while index + 8 <= length {
                let word = UnsafeRawPointer(source + index).loadUnaligned(as: UInt64.self)
                guard Self.plainWord(word) else { return JSONText.writeStringLiteral(text, to: out) }
                UnsafeMutableRawPointer(out + 1 + index).storeBytes(of: word, as: UInt64.self)
                index += 8
            }
            while index < length {
                let byte = source[index]
                guard !Self.needsEscape(byte) else { return JSONText.writeStringLiteral(text, to: out) }
                out[1 + index] = byte
                index += 1
            }
            out[1 + length] = UInt8(ascii: "\"")
            return length + 2
        }
        count += written ?? JSONText.writeStringLiteral(text, to: out)
    }

    /// Whether none of the eight bytes of `word` needs an escape (`needsEscape`): no byte below
    /// 0x20 (its top three bits zero), no `"` and no `\\`. Each test is the exact per-byte zero test
    /// (`zeroBytes`), so a byte never borrows from its neighbour.
    static func plainWord(_ word: UInt64) -> Bool {
        let control = word & 0xE0E0_E0E0_E0E0_E0E0
        let quote = word ^ 0x2222_2222_2222_2222
        let backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
        return (zeroBytes(control) | zeroBytes(quote) | zeroBytes(backslash)) == 0
    }

    /// The top bit of each byte of `word` that is zero, and nothing else.
    static func zeroBytes(_ word: UInt64) -> UInt64 {
        ~(((word & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7F7F_7F7F_7F7F_7F7F) | word | 0x7F7F_7F7F_7F7F_7F7F)
    }

    /// Whether a JSON string literal escapes `byte` (`JSONText.appendStringLiteral`).
    static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    mutating func text(_ text: String) {
        let written = text.utf8.withContiguousStorageIfAvailable { bytes in
            if let source = bytes.baseAddress { (base + count).update(from: source, count: bytes.count) }
            return bytes.count
        }
        if let written {
            count += written
        } else {
            for byte in text.utf8 {
                base[count] = byte
                count += 1
            }
        }
    }

    mutating func decimal(_ value: Int) {
        let digits = Self.decimalCount(value)
        var rest = value.magnitude
        var index = count + digits
        repeat {
            index -= 1
            base[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        } while rest > 0
        if value < 0 { base[count] = UInt8(ascii: "-") }
        count += digits
    }

    /// The length of `String(value)`.
    static func decimalCount(_ value: Int) -> Int {
        var digits = value < 0 ? 2 : 1
        var rest = value.magnitude
        while rest >= 10 {
            rest /= 10
            digits += 1
        }
        return digits
    }
}

extension [UInt8] {
    /// Appends the bytes of a literal in one copy.
    fileprivate mutating func appendLiteral(_ text: StaticString) {
        text.withUTF8Buffer { append(contentsOf: $0) }
    }

    /// Appends the UTF-8 bytes of `text` in one copy.
    fileprivate mutating func appendText(_ text: String) {
        var text = text
        text.withUTF8 { append(contentsOf: $0) }
    }

    /// Appends the decimal digits of `value`, as `String(value)` spells them.
    fileprivate mutating func appendDecimal(_ value: UInt64) {
        PubNubBodies.appendDecimal(value, to: &self)
    }
}
