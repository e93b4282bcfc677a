// SPDX-License-Identifier: MIT

/// A parsed request head's bytes in one buffer (one allocation): the request-target, then each
/// header field's name and value (trimmed, without the colon or the line end), then a table of
/// offsets. Strings are made only when asked for; lookups by name compare the bytes.
///
/// Layout of the storage's bytes (each offset a native-endian `UInt32`, read unaligned):
/// `[target][name₀ value₀ name₁ value₁ …][nameStart₀ valueStart₀ nameStart₁ …]`, and in the
/// storage's header `targetEnd pathEnd dataEnd count`. The target is `0..<targetEnd`; its path
/// ends at `pathEnd` (the `?`, or `targetEnd`); field `i`'s value ends where field `i + 1`
/// starts, the last one at `dataEnd`.
// @unchecked Sendable: the storage (a `ManagedBuffer`, never `Sendable`) is written only by
// `Builder.finish` before the head is handed out, and only read after.
@usableFromInline struct PackedRequestHead: @unchecked Sendable {
    @usableFromInline let storage: PackedHeadStorage

    @usableFromInline init(storage: PackedHeadStorage) {
        self.storage = storage
    }

    /// The positions read from the storage's header.
    @usableFromInline struct Layout {
        @usableFromInline var targetEnd: Int
        @usableFromInline var pathEnd: Int
        @usableFromInline var dataEnd: Int
        @usableFromInline var count: Int

        @usableFromInline init(targetEnd: Int, pathEnd: Int, dataEnd: Int, count: Int) {
            self.targetEnd = targetEnd
            self.pathEnd = pathEnd
            self.dataEnd = dataEnd
            self.count = count
        }
    }

    /// Calls `body` with the buffer (the data and the table) and its layout.
    @inlinable @inline(__always)
    func withLayout<R>(_ body: (UnsafeBufferPointer<UInt8>, Layout) throws -> R) rethrows -> R {
        try storage.withUnsafeMutablePointers { header, elements in
            let words = header.pointee
            let layout = Layout(
                targetEnd: Int(words.targetEnd), pathEnd: Int(words.pathEnd),
                dataEnd: Int(words.dataEnd), count: Int(words.count))
            return try body(UnsafeBufferPointer(start: elements, count: layout.dataEnd + 8 * layout.count), layout)
        }
    }

    /// The offset stored at byte `offset` of `buffer`.
    @inlinable @inline(__always)
    static func word(_ buffer: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Int {
        Int(UnsafeRawPointer(buffer.baseAddress!).loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The name and value ranges of field `index`.
    @inline(__always)
    static func field(_ index: Int, in buffer: UnsafeBufferPointer<UInt8>, _ layout: Layout) -> (name: Range<Int>, value: Range<Int>) {
        let table = layout.dataEnd + 8 * index
        let nameStart = word(buffer, table)
        let valueStart = word(buffer, table + 4)
        let valueEnd = index + 1 < layout.count ? word(buffer, table + 8) : layout.dataEnd
        return (nameStart..<valueStart, valueStart..<valueEnd)
    }

    /// Whether `self` and `other` are the very same storage.
    func isSameStorage(as other: PackedRequestHead) -> Bool { storage === other.storage }

    /// Number of header fields.
    var fieldCount: Int { withLayout { _, layout in layout.count } }

    /// Field `index` as strings (common names reuse a literal).
    func field(at index: Int) -> (name: String, value: String) {
        withLayout { buffer, layout in
            let (name, value) = Self.field(index, in: buffer, layout)
            return (Self.fieldName(UnsafeBufferPointer(rebasing: buffer[name])),
                    String(decoding: UnsafeBufferPointer(rebasing: buffer[value]), as: UTF8.self))
        }
    }

    /// Calls `body` with the value of each field named `name` (ASCII case-insensitive, on the
    /// bytes), in order, until it returns false.
    func forEachValue(named name: String, _ body: (UnsafeBufferPointer<UInt8>) -> Bool) {
        var name = name
        name.withUTF8 { wanted in
            withLayout { buffer, layout in
                for index in 0..<layout.count {
                    let field = Self.field(index, in: buffer, layout)
                    guard Self.caseInsensitiveEquals(UnsafeBufferPointer(rebasing: buffer[field.name]), wanted) else { continue }
                    guard body(UnsafeBufferPointer(rebasing: buffer[field.value])) else { return }
                }
            }
        }
    }

    /// Whether the fields of `self` and `other` are byte for byte the same (names and values, in order).
    func fieldsHaveSameBytes(as other: PackedRequestHead) -> Bool {
        withLayout { mine, myLayout in
            other.withLayout { theirs, theirLayout in
                guard myLayout.count == theirLayout.count else { return false }
                for index in 0..<myLayout.count {
                    let a = Self.field(index, in: mine, myLayout), b = Self.field(index, in: theirs, theirLayout)
                    guard mine[a.name].elementsEqual(theirs[b.name]), mine[a.value].elementsEqual(theirs[b.value]) else {
                        return false
                    }
                }
                return true
            }
        }
    }

    /// The field name as a string; common names spelled as usual reuse a literal.
    static func fieldName(_ name: UnsafeBufferPointer<UInt8>) -> String {
        switch name.count {
        case 4 where spells(name, "Host"): "Host"
        case 6 where spells(name, "Accept"): "Accept"
        case 10 where spells(name, "Connection"): "Connection"
        case 10 where spells(name, "User-Agent"): "User-Agent"
        case 12 where spells(name, "Content-Type"): "Content-Type"
        case 14 where spells(name, "Content-Length"): "Content-Length"
        case 15 where spells(name, "Accept-Encoding"): "Accept-Encoding"
        default: String(decoding: name, as: UTF8.self)
        }
    }

    /// Whether `bytes` are exactly the bytes of `literal`.
    @inline(__always)
    static func spells(_ bytes: UnsafeBufferPointer<UInt8>, _ literal: StaticString) -> Bool {
        HTTPRequest.bytes(bytes, spell: literal)
    }

    /// ASCII case-insensitive comparison of two field names' bytes (as `String.caseInsensitiveEquals`).
    @inline(__always)
    static func caseInsensitiveEquals(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        for index in 0..<a.count {
            let x = a[index], y = b[index]
            guard x == y || (x ^ 0x20 == y && ((x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A)) else { return false }
        }
        return true
    }
}

/// The header of a packed head's storage: where its parts end (32-bit offsets: a head is
/// bounded by the parser's limits, far below 4 GiB).
@usableFromInline struct PackedHeadWords: Sendable {
    @usableFromInline var targetEnd: UInt32
    @usableFromInline var pathEnd: UInt32
    @usableFromInline var dataEnd: UInt32
    @usableFromInline var count: UInt32
}

/// The one allocation of a packed head: its offsets in the header, its bytes (data and table)
/// behind it, allocated at their exact size (shared across threads only inside a `PackedRequestHead`).
@usableFromInline final class PackedHeadStorage: ManagedBuffer<PackedHeadWords, UInt8> {}

extension PackedRequestHead {
    /// Gathers a head as the parser reads it and packs it once complete: while the head arrives
    /// only where its pieces lie in the receive buffer is noted (offsets from the head's first
    /// byte, which stay valid when the parser compacts its buffer), and completing it copies each
    /// piece once, straight into the head's own storage of its exact size.
    struct Builder: Sendable {
        /// The target's start and length, then each field's name start and length, value start
        /// and length (offsets from the head's first byte): `spans[..<used]`. The array keeps its
        /// size from one head to the next (written in place: no appends, no emptying).
        private var spans: [UInt32] = []
        private var used = 0
        /// Where the target's path ends, from the target's start.
        private var pathEnd = 0
        /// Bytes of the target, the names and the values so far.
        private var dataBytes = 0

        init() {}

        /// Starts a head with its request-target: `target` lies `offset` bytes after the head's first byte.
        mutating func start(target: UnsafeBufferPointer<UInt8>, at offset: Int) {
            if spans.count < 42 { spans = Array(repeating: 0, count: 42) }
            spans[0] = UInt32(truncatingIfNeeded: offset)
            spans[1] = UInt32(truncatingIfNeeded: target.count)
            used = 2
            dataBytes = target.count
            pathEnd = HTTPRequestParser.firstIndex(of: UInt8(ascii: "?"), in: target, from: 0) ?? target.count
        }

        /// Adds a header field: its name's bytes and its trimmed value's, at these offsets from
        /// the head's first byte.
        mutating func add(nameAt name: Int, count nameCount: Int, valueAt value: Int, count valueCount: Int) {
            if used + 4 > spans.count { spans.append(contentsOf: repeatElement(0, count: spans.count)) }
            let at = used
            spans.withUnsafeMutableBufferPointer { spans in
                spans[at] = UInt32(truncatingIfNeeded: name)
                spans[at + 1] = UInt32(truncatingIfNeeded: nameCount)
                spans[at + 2] = UInt32(truncatingIfNeeded: value)
                spans[at + 3] = UInt32(truncatingIfNeeded: valueCount)
            }
            used = at + 4
            dataBytes += nameCount + valueCount
        }

        /// The packed head, its pieces copied from `head` (the receive buffer from the head's
        /// first byte): one allocation of exactly the data and the table.
        mutating func finish(from head: UnsafeRawPointer) -> PackedRequestHead {
            let count = (used - 2) / 4
            let dataEnd = dataBytes
            let words = PackedHeadWords(
                targetEnd: UInt32(truncatingIfNeeded: Int(spans[1])), pathEnd: UInt32(truncatingIfNeeded: pathEnd),
                dataEnd: UInt32(truncatingIfNeeded: dataEnd), count: UInt32(truncatingIfNeeded: count))
            // The subclass's own `create` makes an instance of the subclass.
            let storage = unsafeDowncast(
                PackedHeadStorage.create(minimumCapacity: dataEnd + 8 * count) { _ in words }, to: PackedHeadStorage.self)
            storage.withUnsafeMutablePointerToElements { elements in
                let bytes = UnsafeMutableRawPointer(elements)
                let used = used
                spans.withUnsafeBufferPointer { spans in
                    bytes.copyMemory(from: head + Int(spans[0]), byteCount: Int(spans[1]))
                    var at = Int(spans[1])
                    var table = dataEnd
                    var index = 2
                    while index < used {
                        let nameCount = Int(spans[index + 1]), valueCount = Int(spans[index + 3])
                        bytes.storeBytes(of: UInt32(truncatingIfNeeded: at), toByteOffset: table, as: UInt32.self)
                        bytes.storeBytes(of: UInt32(truncatingIfNeeded: at + nameCount), toByteOffset: table + 4, as: UInt32.self)
                        if nameCount > 0 { (bytes + at).copyMemory(from: head + Int(spans[index]), byteCount: nameCount) }
                        at += nameCount
                        if valueCount > 0 { (bytes + at).copyMemory(from: head + Int(spans[index + 2]), byteCount: valueCount) }
                        at += valueCount
                        table += 8
                        index += 4
                    }
                }
            }
            used = 0
            return PackedRequestHead(storage: storage)
        }
    }
}
