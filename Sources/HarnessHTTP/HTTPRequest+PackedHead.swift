// SPDX-License-Identifier: MIT

/// A parsed request head's bytes in one buffer (one allocation): the request-target, then each
/// header field's name and value (trimmed, without the colon or the line end), then a table of
/// offsets. Strings are made only when asked for; lookups by name compare the bytes.
///
/// Layout of `bytes` (each offset a native-endian `UInt32`, read unaligned):
/// `[target][name₀ value₀ name₁ value₁ …][nameStart₀ valueStart₀ nameStart₁ …][targetEnd pathEnd dataEnd count]`.
/// The target is `0..<targetEnd`; its path ends at `pathEnd` (the `?`, or `targetEnd`); field
/// `i`'s value ends where field `i + 1` starts, the last one at `dataEnd`.
@usableFromInline struct PackedRequestHead: Sendable {
    @usableFromInline let bytes: [UInt8]

    @usableFromInline init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    /// The positions read from the buffer's trailer.
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

    /// Calls `body` with the buffer and its layout.
    @inlinable @inline(__always)
    func withLayout<R>(_ body: (UnsafeBufferPointer<UInt8>, Layout) throws -> R) rethrows -> R {
        try bytes.withUnsafeBufferPointer { buffer in
            let trailer = buffer.count - 16
            let layout = Layout(
                targetEnd: Self.word(buffer, trailer), pathEnd: Self.word(buffer, trailer + 4),
                dataEnd: Self.word(buffer, trailer + 8), count: Self.word(buffer, trailer + 12))
            return try body(buffer, layout)
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

extension PackedRequestHead {
    /// Gathers a head as the parser reads it and packs it once complete. Its scratch space keeps
    /// its size from one request to the next and is written through pointers (no array appends).
    struct Builder: Sendable {
        /// Scratch bytes: `scratch[..<used]` is the head so far.
        private var scratch: [UInt8] = []
        private var used = 0
        /// Each field's name and value starts.
        private var table: [UInt32] = []
        private var targetEnd = 0
        private var pathEnd = 0

        init() {}

        /// Starts a head with its request-target's bytes.
        mutating func start(target: UnsafeBufferPointer<UInt8>) {
            used = 0
            table.removeAll(keepingCapacity: true)
            write(target)
            targetEnd = target.count
            pathEnd = HTTPRequestParser.firstIndex(of: UInt8(ascii: "?"), in: target, from: 0) ?? target.count
        }

        /// Adds a header field (its name's and its trimmed value's bytes).
        mutating func add(name: UnsafeBufferPointer<UInt8>, value: UnsafeBufferPointer<UInt8>) {
            if table.capacity == 0 { table.reserveCapacity(20) }
            table.append(UInt32(truncatingIfNeeded: used))
            table.append(UInt32(truncatingIfNeeded: used + name.count))
            // Name and value in one pass over the scratch space (one growth check, one access).
            let end = used + name.count + value.count
            if end > scratch.count { scratch.append(contentsOf: repeatElement(0, count: max(end, 2 * scratch.count, 256) - scratch.count)) }
            let at = used
            scratch.withUnsafeMutableBufferPointer { space in
                let base = space.baseAddress! + at
                if let source = name.baseAddress { base.update(from: source, count: name.count) }
                if let source = value.baseAddress { (base + name.count).update(from: source, count: value.count) }
            }
            used = end
        }

        /// Copies `bytes` to the end of the head so far.
        @inline(__always)
        private mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
            write(UnsafeRawBufferPointer(bytes))
        }

        /// Copies raw `bytes` (text, or the offset words) to the end of the head so far.
        private mutating func write(_ bytes: UnsafeRawBufferPointer) {
            Self.write(bytes, into: &scratch, used: &used)
        }

        /// Copies raw `bytes` to `scratch` at `used` (grown as needed) and moves `used` past them;
        /// static, so that the table can be read while the scratch space is written.
        private static func write(_ bytes: UnsafeRawBufferPointer, into scratch: inout [UInt8], used: inout Int) {
            guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
            let end = used + bytes.count
            if end > scratch.count { scratch.append(contentsOf: repeatElement(0, count: max(end, 2 * scratch.count, 256) - scratch.count)) }
            let at = used
            scratch.withUnsafeMutableBytes { space in
                (space.baseAddress! + at).copyMemory(from: source, byteCount: bytes.count)
            }
            used = end
        }

        /// The packed head: one array of exactly the data, the table and the trailer.
        ///
        /// Offsets are 32-bit: a head is bounded by the parser's limits, far below 4 GiB.
        mutating func finish() -> PackedRequestHead {
            let tableBytes = 4 * table.count
            let dataEnd = used
            let end = dataEnd + tableBytes + 16
            if end > scratch.count { scratch.append(contentsOf: repeatElement(0, count: max(end, 2 * scratch.count, 256) - scratch.count)) }
            let (targetEnd, pathEnd, count) = (targetEnd, pathEnd, table.count / 2)
            // The table and the trailer written behind the data through pointers, then the whole
            // copied once into an array of its exact size (the cheapest exact allocation).
            let bytes = table.withUnsafeBytes { words in
                scratch.withUnsafeMutableBytes { space -> [UInt8] in
                    let base = space.baseAddress!
                    if tableBytes > 0 { (base + dataEnd).copyMemory(from: words.baseAddress!, byteCount: tableBytes) }
                    let trailer = dataEnd + tableBytes
                    space.storeBytes(of: UInt32(truncatingIfNeeded: targetEnd), toByteOffset: trailer, as: UInt32.self)
                    space.storeBytes(of: UInt32(truncatingIfNeeded: pathEnd), toByteOffset: trailer + 4, as: UInt32.self)
                    space.storeBytes(of: UInt32(truncatingIfNeeded: dataEnd), toByteOffset: trailer + 8, as: UInt32.self)
                    space.storeBytes(of: UInt32(truncatingIfNeeded: count), toByteOffset: trailer + 12, as: UInt32.self)
                    return Array(UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: end))
                }
            }
            used = 0
            table.removeAll(keepingCapacity: true)
            return PackedRequestHead(bytes: bytes)
        }
    }
}
