// SPDX-License-Identifier: MIT

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
        while scan < buffer.count {
            // The next line feed, or the end of what arrived; the limits apply to the line so far.
            let found = buffer.withUnsafeBufferPointer { bytes in
                UnsafeBufferPointer(rebasing: bytes[scan...]).firstIndex(of: 0x0A).map { $0 + scan }
            }
            scan = found ?? buffer.count
            if requestLine == nil {
                if scan - lineStart > limits.maxTargetBytes + 64 { throw .targetTooLong(limit: limits.maxTargetBytes) }
            } else if scan - lineStart > limits.maxHeaderBytes - headerBytes {
                throw .headersTooLarge(limit: limits.maxHeaderBytes)
            }
            guard found != nil else { break }
            var end = scan
            if end > lineStart && buffer[end - 1] == 0x0D { end -= 1 }
            let line = buffer[lineStart..<end]
            let consumed = scan + 1 - lineStart
            scan += 1
            lineStart = scan
            if requestLine == nil {
                requestLine = try parseRequestLine(line)
                continue
            }
            if line.isEmpty {
                start = scan
                inHead = false
                try completeHead()
                return true
            }
            headerBytes += consumed
            guard headerBytes <= limits.maxHeaderBytes else { throw .headersTooLarge(limit: limits.maxHeaderBytes) }
            let (name, value, nameBytes) = try parseHeaderLine(line)
            if headers.count == 0 { headers.reserveCapacity(8) }
            framing.note(name: nameBytes, value: value)
            headers.add(name, value)
        }
        return false
    }

    private func parseRequestLine(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> (String, String, String) {
        // method SP request-target SP HTTP-version, exactly two spaces (RFC 9112 §3).
        guard let firstSpace = line.firstIndex(of: 0x20) else { throw .invalidRequestLine }
        let rest = line[(firstSpace + 1)...]
        guard let secondSpace = rest.firstIndex(of: 0x20) else { throw .invalidRequestLine }
        let method = line[..<firstSpace]
        let rawTarget = line[(firstSpace + 1)..<secondSpace]
        let version = line[(secondSpace + 1)...]
        guard !method.isEmpty, method.allSatisfy(Self.isTokenByte), !version.contains(0x20) else {
            throw .invalidRequestLine
        }
        guard rawTarget.count <= limits.maxTargetBytes else { throw .targetTooLong(limit: limits.maxTargetBytes) }
        var ascii = true
        for byte in rawTarget {
            guard byte > 0x20 && byte != 0x7F else { throw .invalidRequestLine }
            if byte >= 0x80 { ascii = false }
        }
        // ASCII needs no validation (the usual, percent-encoded target).
        guard !rawTarget.isEmpty,
            let target = ascii ? String(decoding: rawTarget, as: UTF8.self) : String(validating: rawTarget, as: UTF8.self)
        else { throw .invalidRequestLine }
        // RFC 9112 §3.2: origin-form (`/…`), absolute-form (`http://…`) or, for OPTIONS, `*`.
        // Anything else (`time/0`, authority-form) is a 400, never routed.
        guard rawTarget.first == UInt8(ascii: "/") || HTTPRequest.isAbsoluteForm(target)
            || (target == "*" && method.elementsEqual("OPTIONS".utf8))
        else { throw .invalidRequestTarget }
        let start = version.startIndex
        let valid = version.count == 8 && version[start] == UInt8(ascii: "H") && version[start + 1] == UInt8(ascii: "T")
            && version[start + 2] == UInt8(ascii: "T") && version[start + 3] == UInt8(ascii: "P")
            && version[start + 4] == UInt8(ascii: "/") && Self.isDigit(version[start + 5])
            && version[start + 6] == UInt8(ascii: ".") && Self.isDigit(version[start + 7])
        guard valid else { throw .invalidRequestLine }
        guard version[start + 5] == UInt8(ascii: "1"), version[start + 7] <= UInt8(ascii: "1") else {
            throw .unsupportedVersion(String(decoding: version, as: UTF8.self))
        }
        let versionText = version[start + 7] == UInt8(ascii: "1") ? "HTTP/1.1" : "HTTP/1.0"
        return (Self.methodName(method), target, versionText)
    }

    /// The method token as a string; the common methods reuse a literal.
    private static func methodName(_ bytes: ArraySlice<UInt8>) -> String {
        switch bytes.count {
        case 3 where bytes.elementsEqual("GET".utf8): "GET"
        case 4 where bytes.elementsEqual("POST".utf8): "POST"
        case 4 where bytes.elementsEqual("HEAD".utf8): "HEAD"
        default: String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The field's name and value, and the name's bytes.
    private func parseHeaderLine(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> (String, String, ArraySlice<UInt8>) {
        // RFC 9112 §5.2: obsolete line folding is rejected with 400.
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")), colon > line.startIndex,
            line[line.startIndex..<colon].allSatisfy(Self.isTokenByte)
        else { throw .invalidHeader }
        var valueStart = colon + 1
        var valueEnd = line.endIndex
        while valueStart < valueEnd && (line[valueStart] == 0x20 || line[valueStart] == 0x09) { valueStart += 1 }
        while valueEnd > valueStart && (line[valueEnd - 1] == 0x20 || line[valueEnd - 1] == 0x09) { valueEnd -= 1 }
        let value = line[valueStart..<valueEnd]
        guard !value.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else { throw .invalidHeader }
        let name = line[line.startIndex..<colon]
        return (String(decoding: name, as: UTF8.self), String(decoding: value, as: UTF8.self), name)
    }

    private mutating func completeHead() throws(HTTPParseError) {
        let (method, target, version) = requestLine!
        let fields = headers
        let framing = self.framing
        requestLine = nil
        headers = HTTPHeaders()
        self.framing = FramingFields()
        headerBytes = 0
        let keepAlive = Self.keepAlive(version: version, framing: framing)
        head = Head(method: method, target: target, version: version, headers: fields, keepAlive: keepAlive)
        body = []
        bodyLimit = limits.maxBodyBytes(forTarget: target)
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
        expectsContinue = expect && version == "HTTP/1.1" && (phase != .fixedBody || remaining > 0)
    }

    /// Whether the connection stays open after this request: a `Connection` token decides
    /// (`close` over `keep-alive`), else the version (HTTP/1.1 persists).
    static func keepAlive(version: String, framing: FramingFields) -> Bool {
        if framing.connectionClose { return false }
        if framing.connectionKeepAlive { return true }
        return version == "HTTP/1.1"
    }

    /// Calls `body` with each comma-separated token of `value`, without surrounding spaces and tabs.
    static func forEachToken(of value: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var value = value
        value.withUTF8 { bytes in
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

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    /// RFC 9110 §5.6.2 tchar.
    static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
        case UInt8(ascii: "!"), UInt8(ascii: "#"), UInt8(ascii: "$"), UInt8(ascii: "%"), UInt8(ascii: "&"),
            UInt8(ascii: "'"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "^"), UInt8(ascii: "_"), UInt8(ascii: "`"), UInt8(ascii: "|"), UInt8(ascii: "~"):
            true
        default: false
        }
    }
}

/// The header fields that frame a request (`Connection`, `Content-Length`, `Transfer-Encoding`,
/// `Expect`), gathered as the head is read so that completing it needs no search by name.
struct FramingFields: Sendable {
    /// Whether a `Connection` field carried the token `close` / `keep-alive` (any case), read
    /// token by token on the bytes as the field arrives: no strings are kept for it.
    var connectionClose = false
    var connectionKeepAlive = false
    var contentLength: [String] = []
    var transferEncoding: [String] = []
    /// The first `Expect` value.
    var expect: String?

    /// Keeps `value` when `name` (the field name's bytes, any case) is one of the framing fields.
    mutating func note(name: ArraySlice<UInt8>, value: String) {
        switch name.count {
        case 6 where HTTPRequestParser.asciiCaseInsensitiveEquals(name, "expect"):
            if expect == nil { expect = value }
        case 10 where HTTPRequestParser.asciiCaseInsensitiveEquals(name, "connection"):
            HTTPRequestParser.forEachToken(of: value) { token in
                if HTTPRequestParser.asciiCaseInsensitiveEquals(token, "close") { connectionClose = true }
                if HTTPRequestParser.asciiCaseInsensitiveEquals(token, "keep-alive") { connectionKeepAlive = true }
            }
        case 14 where HTTPRequestParser.asciiCaseInsensitiveEquals(name, "content-length"):
            contentLength.append(value)
        case 17 where HTTPRequestParser.asciiCaseInsensitiveEquals(name, "transfer-encoding"):
            transferEncoding.append(value)
        default:
            break
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
