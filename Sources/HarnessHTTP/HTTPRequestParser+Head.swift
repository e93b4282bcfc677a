// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

extension HTTPRequestParser {
    /// Scans for the end of the head; on success fills `head`, picks the body framing and returns true.
    mutating func parseHead() throws(HTTPParseError) -> Bool {
        if !inHead {
            // RFC 9112 §2.2: ignore empty lines received before the request line.
            while start < buffer.count && (buffer[start] == 0x0D || buffer[start] == 0x0A) { start += 1 }
            guard start < buffer.count else { return false }
            // A TLS record header (handshake 0x16, version 0x03 0x00-0x04): a TLS client on this
            // plain port. Decided on the first three bytes instead of waiting for a line feed.
            if buffer[start] == 0x16 {
                guard buffer.count - start >= 3 else { return false }
                if buffer[start + 1] == 0x03 && buffer[start + 2] <= 0x04 { throw .tlsOnPlainPort }
            }
            inHead = true
            scan = start
            lineStart = start
        }
        // One access to the buffer for the whole scan: the lines are read through its pointer.
        let complete = try buffer.withUnsafeBufferPointer { (bytes) throws(HTTPParseError) -> Bool in
            while scan < bytes.count {
                // The next line feed, or the end of what arrived; the limits apply to the line so far.
                let found = Self.firstIndex(of: 0x0A, in: bytes, from: scan)
                scan = found ?? bytes.count
                if requestLine == nil {
                    if scan - lineStart > limits.maxTargetBytes + 64 { throw .targetTooLong(limit: limits.maxTargetBytes) }
                } else if scan - lineStart > limits.maxHeaderBytes - headerBytes {
                    throw .headersTooLarge(limit: limits.maxHeaderBytes)
                }
                guard found != nil else { break }
                var end = scan
                if end > lineStart && bytes[end - 1] == 0x0D { end -= 1 }
                let line = lineStart..<end
                let consumed = scan + 1 - lineStart
                scan += 1
                lineStart = scan
                if requestLine == nil {
                    let parsed = try Self.parseRequestLine(UnsafeBufferPointer(rebasing: bytes[line]), limits: limits)
                    // Offsets from the head's first byte (`start`, while the head is read).
                    let target = (line.lowerBound + parsed.target.lowerBound)..<(line.lowerBound + parsed.target.upperBound)
                    headBuilder.start(target: UnsafeBufferPointer(rebasing: bytes[target]), at: target.lowerBound - start)
                    requestLine = (parsed.method, parsed.version)
                    targetIsASCII = parsed.ascii
                    continue
                }
                if line.isEmpty {
                    packedHead = headBuilder.finish(from: UnsafeRawPointer(bytes.baseAddress! + start))
                    start = scan
                    inHead = false
                    return true
                }
                headerBytes += consumed
                guard headerBytes <= limits.maxHeaderBytes else { throw .headersTooLarge(limit: limits.maxHeaderBytes) }
                let text = UnsafeBufferPointer(rebasing: bytes[line])
                let (name, value, kind) = try Self.parseHeaderLine(text)
                if let kind { framing.note(kind, value: UnsafeBufferPointer(rebasing: text[value])) }
                let offset = line.lowerBound - start
                headBuilder.add(nameAt: offset + name.lowerBound, count: name.count, valueAt: offset + value.lowerBound, count: value.count)
            }
            return false
        }
        if complete { try completeHead() }
        return complete
    }

    /// The method, target (its range in the line) and version of a request line (its bytes), and
    /// whether the target is ASCII.
    /// (Static: called while the buffer is read, where a method would copy the parser.)
    private static func parseRequestLine(
        _ line: UnsafeBufferPointer<UInt8>, limits: Limits
    ) throws(HTTPParseError) -> (method: String, target: Range<Int>, version: String, ascii: Bool) {
        // method SP request-target SP HTTP-version, exactly two spaces (RFC 9112 §3).
        guard let firstSpace = line.firstIndex(of: 0x20) else { throw .invalidRequestLine }
        // The target runs to the second space; its bytes are checked on the way (one pass).
        let (found, badByte, ascii) = Self.scanTarget(line, from: firstSpace + 1)
        guard let secondSpace = found else { throw .invalidRequestLine }
        let method = UnsafeBufferPointer(rebasing: line[..<firstSpace])
        let rawTarget = UnsafeBufferPointer(rebasing: line[(firstSpace + 1)..<secondSpace])
        let version = UnsafeBufferPointer(rebasing: line[(secondSpace + 1)...])
        guard !method.isEmpty, method.allSatisfy(Self.isTokenByte), !version.contains(0x20) else {
            throw .invalidRequestLine
        }
        guard rawTarget.count <= limits.maxTargetBytes else { throw .targetTooLong(limit: limits.maxTargetBytes) }
        guard !badByte else { throw .invalidRequestLine }
        // ASCII needs no validation (the usual, percent-encoded target).
        guard !rawTarget.isEmpty, ascii || String(validating: rawTarget, as: UTF8.self) != nil else { throw .invalidRequestLine }
        // RFC 9112 §3.2: origin-form (`/…`), absolute-form (`http://…`) or, for OPTIONS, `*`.
        // Anything else (`time/0`, authority-form) is a 400, never routed.
        guard rawTarget[0] == UInt8(ascii: "/")
            || HTTPRequest.isAbsoluteForm(String(decoding: rawTarget, as: UTF8.self))
            || (rawTarget.count == 1 && rawTarget[0] == UInt8(ascii: "*") && method.elementsEqual("OPTIONS".utf8))
        else { throw .invalidRequestTarget }
        let valid = version.count == 8 && version[0] == UInt8(ascii: "H") && version[1] == UInt8(ascii: "T")
            && version[2] == UInt8(ascii: "T") && version[3] == UInt8(ascii: "P")
            && version[4] == UInt8(ascii: "/") && Self.isDigit(version[5])
            && version[6] == UInt8(ascii: ".") && Self.isDigit(version[7])
        guard valid else { throw .invalidRequestLine }
        guard version[5] == UInt8(ascii: "1"), version[7] <= UInt8(ascii: "1") else {
            throw .unsupportedVersion(String(decoding: version, as: UTF8.self))
        }
        let versionText = version[7] == UInt8(ascii: "1") ? "HTTP/1.1" : "HTTP/1.0"
        return (Self.methodName(method), (firstSpace + 1)..<secondSpace, versionText, ascii)
    }

    /// From `start` in a request line: the index of the next space (`nil` if none), whether a byte
    /// before it is a control character or DEL (not allowed in a request-target), and whether
    /// they are all ASCII. Eight visible ASCII bytes (0x21-0x7E) at a time while they come.
    private static func scanTarget(
        _ line: UnsafeBufferPointer<UInt8>, from start: Int
    ) -> (space: Int?, badByte: Bool, ascii: Bool) {
        var index = start
        if let base = line.baseAddress {
            let raw = UnsafeRawPointer(base)
            while index + 8 <= line.count {
                let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                // A byte below 0x21, and a byte above 0x7E (the classic SWAR tests).
                let below = (word &- 0x2121_2121_2121_2121) & ~word & 0x8080_8080_8080_8080
                let above = ((word &+ 0x0101_0101_0101_0101) | word) & 0x8080_8080_8080_8080
                if below | above != 0 { break }
                index += 8
            }
        }
        var badByte = false
        var ascii = true
        while index < line.count {
            let byte = line[index]
            if byte == 0x20 { return (index, badByte, ascii) }
            if byte < 0x20 || byte == 0x7F {
                badByte = true
            } else if byte >= 0x80 {
                ascii = false
            }
            index += 1
        }
        return (nil, badByte, ascii)
    }

    /// The method token as a string; the common methods reuse a literal.
    private static func methodName(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        switch bytes.count {
        case 3 where bytes[0] == UInt8(ascii: "G") && bytes[1] == UInt8(ascii: "E") && bytes[2] == UInt8(ascii: "T"): "GET"
        case 4 where bytes[0] == UInt8(ascii: "P") && bytes[1] == UInt8(ascii: "O") && bytes[2] == UInt8(ascii: "S")
            && bytes[3] == UInt8(ascii: "T"): "POST"
        case 4 where bytes[0] == UInt8(ascii: "H") && bytes[1] == UInt8(ascii: "E") && bytes[2] == UInt8(ascii: "A")
            && bytes[3] == UInt8(ascii: "D"): "HEAD"
        default: String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Where the field's name and (trimmed) value lie in `line`, and which framing field it is, if
    /// one. One pass over the bytes: the name up to the colon must be token bytes, the value may
    /// hold no control byte but the tab (the spaces and tabs around it are trimmed).
    private static func parseHeaderLine(
        _ line: UnsafeBufferPointer<UInt8>
    ) throws(HTTPParseError) -> (name: Range<Int>, value: Range<Int>, kind: FramingFields.Kind?) {
        guard let base = line.baseAddress else { throw .invalidHeader }
        let count = line.count
        // The name runs over token bytes up to the colon, which is not one. RFC 9112 §5.2:
        // obsolete line folding (a leading space) is rejected with 400, as is any other byte
        // before the colon that is not a token's.
        var colon = 0
        while colon < count && isTokenByte(base[colon]) { colon += 1 }
        guard colon > 0, colon < count, base[colon] == UInt8(ascii: ":") else { throw .invalidHeader }
        var valueStart = colon + 1
        while valueStart < count && (base[valueStart] == 0x20 || base[valueStart] == 0x09) { valueStart += 1 }
        var index = valueStart
        // Eight bytes at a time while none is a control byte or DEL (the classic SWAR tests for
        // a byte below 0x20 and a zero byte of `word ^ 0x7F…`; a hit is decided byte by byte).
        let raw = UnsafeRawPointer(base)
        while index + 8 <= count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let below = (word &- 0x2020_2020_2020_2020) & ~word & 0x8080_8080_8080_8080
            let del = word ^ 0x7F7F_7F7F_7F7F_7F7F
            let isDel = (del &- 0x0101_0101_0101_0101) & ~del & 0x8080_8080_8080_8080
            if below | isDel != 0 { break }
            index += 8
        }
        while index < count {
            let byte = base[index]
            guard (byte >= 0x20 || byte == 0x09) && byte != 0x7F else { throw .invalidHeader }
            index += 1
        }
        var valueEnd = count
        while valueEnd > valueStart && (base[valueEnd - 1] == 0x20 || base[valueEnd - 1] == 0x09) { valueEnd -= 1 }
        return (0..<colon, valueStart..<valueEnd, FramingFields.kind(of: UnsafeBufferPointer(start: base, count: colon)))
    }

    private mutating func completeHead() throws(HTTPParseError) {
        // Moved out, not copied (a copy would retain what the parser then releases).
        let (method, version) = requestLine.take()!
        let packed = packedHead.take()!
        var framing = FramingFields()
        swap(&framing, &self.framing)
        headerBytes = 0
        let keepAlive = Self.keepAlive(version: version, framing: framing)
        body = []
        bodyLimit = packed.withLayout { buffer, layout in
            limits.maxBodyBytes(forTarget: UnsafeBufferPointer(rebasing: buffer[..<layout.targetEnd]), ascii: targetIsASCII)
        }
        let isHTTP11 = version == "HTTP/1.1"
        head = Head(method: method, version: version, packed: packed, keepAlive: keepAlive, hasUpgradeField: framing.upgrade)
        let transferEncodings = framing.transferEncoding
        let lengths = framing.contentLength
        if !transferEncodings.isEmpty {
            guard lengths.isEmpty else { throw .conflictingContentLengthAndTransferEncoding }
            let codings = transferEncodings.flatMap { $0.split(separator: ",") }
                .map { $0.trimmingSpaces.lowercased() }.filter { !$0.isEmpty }
            guard codings == ["chunked"] else { throw .unsupportedTransferEncoding(transferEncodings.joined(separator: ", ")) }
            phase = .chunkSize
        } else if !lengths.isEmpty {
            let values = Set(lengths.flatMap { $0.split(separator: ",") }.map { $0.trimmingSpaces })
            guard values.count == 1, let text = values.first, !text.isEmpty, text.count <= 18,
                text.utf8.allSatisfy(Self.isDigit), let length = Int(text)
            else { throw .invalidContentLength }
            guard length <= bodyLimit else { throw .bodyTooLarge(limit: bodyLimit) }
            remaining = length
            phase = .fixedBody
        } else {
            remaining = 0
            phase = .fixedBody
        }
        let expect = framing.expect?.lowercased() == "100-continue"
        // Never to an HTTP/1.0 client, which does not know interim responses (RFC 9110 §10.1.1).
        expectsContinue = expect && isHTTP11 && (phase != .fixedBody || remaining > 0)
    }

    /// Whether the connection stays open after this request: a `Connection` token decides
    /// (`close` over `keep-alive`), else the version (HTTP/1.1 persists).
    static func keepAlive(version: String, framing: FramingFields) -> Bool {
        if framing.connectionClose { return false }
        if framing.connectionKeepAlive { return true }
        return version == "HTTP/1.1"
    }

    /// Whether `bytes` spell `lowercase` (a lower-case ASCII literal) in any letter case, eight
    /// bytes at a time: a byte matches a letter of the literal when it equals it with the letter
    /// bit (0x20) set, any other byte must be equal.
    static func asciiCaseInsensitiveEquals(_ bytes: UnsafeBufferPointer<UInt8>, _ lowercase: StaticString) -> Bool {
        let count = lowercase.utf8CodeUnitCount
        guard bytes.count == count else { return false }
        guard count > 0 else { return true }
        let given = UnsafeRawPointer(bytes.baseAddress!), expected = UnsafeRawPointer(lowercase.utf8Start)
        var index = 0
        while index + 8 <= count {
            let word = given.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let literal = expected.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            // 0x20 in each byte of the (ASCII) literal from 0x61 to 0x7A: a lower-case letter.
            let atLeastA = literal &+ 0x1F1F_1F1F_1F1F_1F1F, aboveZ = literal &+ 0x0505_0505_0505_0505
            let letters = (atLeastA & ~aboveZ & 0x8080_8080_8080_8080) >> 2
            guard word | letters == literal else { return false }
            index += 8
        }
        while index < count {
            let byte = given.load(fromByteOffset: index, as: UInt8.self)
            let wanted = expected.load(fromByteOffset: index, as: UInt8.self)
            let folded = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
            guard folded == wanted else { return false }
            index += 1
        }
        return true
    }

    /// Calls `body` with each comma-separated token of `value`, without surrounding spaces and tabs.
    static func forEachToken(of bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: ",") { end += 1 }
            var low = start, high = end
            while low < high && (bytes[low] == 0x20 || bytes[low] == 0x09) { low += 1 }
            while high > low && (bytes[high - 1] == 0x20 || bytes[high - 1] == 0x09) { high -= 1 }
            body(UnsafeBufferPointer(rebasing: bytes[low..<high]))
            start = end + 1
        }
    }

    /// Whether `bytes` spell `lowercase` (a lower-case ASCII literal) in any letter case.
    static func asciiCaseInsensitiveEquals<Bytes: Collection<UInt8>>(_ bytes: Bytes, _ lowercase: StaticString) -> Bool {
        guard bytes.count == lowercase.utf8CodeUnitCount else { return false }
        return lowercase.withUTF8Buffer { expected in
            var index = 0
            for byte in bytes {
                let folded = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                guard folded == expected[index] else { return false }
                index += 1
            }
            return true
        }
    }

    /// The index of the first `byte` in `bytes` from `start`, if any (the C library's `memchr`,
    /// which compares a vector register's width at a time).
    @inline(__always)
    static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard let base = bytes.baseAddress, start < bytes.count else { return nil }
        guard let found = memchr(base + start, Int32(byte), bytes.count - start) else { return nil }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// RFC 9110 §5.6.2 tchar: digits, letters and ``!#$%&'*+-.^_`|~``, as two 64-bit masks
    /// (bytes 0-63 and 64-127; no byte from 128 up is a tchar).
    @inline(__always)
    static func isTokenByte(_ byte: UInt8) -> Bool {
        // 0x00-0x3F: ! # $ % & ' * + - . and 0-9; 0x40-0x7F: A-Z ^ _ ` a-z | ~.
        let low: UInt64 = 0x03FF_6CFA_0000_0000
        let high: UInt64 = 0x57FF_FFFF_C7FF_FFFE
        // Without branches: the mask of the byte's half, shifted by its place in it.
        let mask = byte & 0x40 == 0 ? low : high
        return byte < 0x80 && (mask >> UInt64(byte & 0x3F)) & 1 == 1
    }
}

/// The header fields that frame a request (`Connection`, `Content-Length`, `Transfer-Encoding`,
/// `Expect`, and whether there is an `Upgrade`), gathered as the head is read so that completing
/// it needs no search by name.
struct FramingFields: Sendable {
    /// Whether a `Connection` field carried the token `close` / `keep-alive` (any case), read
    /// token by token on the bytes as the field arrives: no strings are kept for it.
    var connectionClose = false
    var connectionKeepAlive = false
    /// Whether an `Upgrade` field was seen (its value is not kept).
    var upgrade = false
    var contentLength: [String] = []
    var transferEncoding: [String] = []
    /// The first `Expect` value.
    var expect: String?

    /// The framing fields.
    enum Kind { case expect, connection, contentLength, transferEncoding, upgrade }

    /// Which framing field `name` (the field name's bytes, any case) is, if one.
    static func kind(of name: UnsafeBufferPointer<UInt8>) -> Kind? {
        switch name.count {
        case 6 where HTTPRequestParser.asciiCaseInsensitiveEquals(name, "expect"): .expect
        case 7 where HTTPRequestParser.asciiCaseInsensitiveEquals(name, "upgrade"): .upgrade
        case 10 where HTTPRequestParser.asciiCaseInsensitiveEquals(name, "connection"): .connection
        case 14 where HTTPRequestParser.asciiCaseInsensitiveEquals(name, "content-length"): .contentLength
        case 17 where HTTPRequestParser.asciiCaseInsensitiveEquals(name, "transfer-encoding"): .transferEncoding
        default: nil
        }
    }

    /// Keeps `value`, the value (its bytes) of a framing field of `kind`.
    mutating func note(_ kind: Kind, value: UnsafeBufferPointer<UInt8>) {
        switch kind {
        case .expect:
            if expect == nil { expect = String(decoding: value, as: UTF8.self) }
        case .connection:
            // The usual values, a single token, decided without splitting.
            if HTTPRequestParser.asciiCaseInsensitiveEquals(value, "keep-alive") {
                connectionKeepAlive = true
                return
            }
            if HTTPRequestParser.asciiCaseInsensitiveEquals(value, "close") {
                connectionClose = true
                return
            }
            HTTPRequestParser.forEachToken(of: value) { token in
                if HTTPRequestParser.asciiCaseInsensitiveEquals(token, "close") { connectionClose = true }
                if HTTPRequestParser.asciiCaseInsensitiveEquals(token, "keep-alive") { connectionKeepAlive = true }
            }
        case .contentLength:
            contentLength.append(String(decoding: value, as: UTF8.self))
        case .transferEncoding:
            transferEncoding.append(String(decoding: value, as: UTF8.self))
        case .upgrade:
            upgrade = true
        }
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    package var trimmingSpaces: String {
        var slice = self[...]
        while let first = slice.first, first == " " || first == "\t" { slice = slice.dropFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice = slice.dropLast() }
        return String(slice)
    }
}
