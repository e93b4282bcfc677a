// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An incremental HTTP/1.1 request parser (RFC 9112): feed bytes as they arrive, take requests out.
///
/// Pure and synchronous: no I/O, no clock. Handles keep-alive and pipelining (several requests in one
/// buffer), `Content-Length` and chunked bodies, and enforces size limits. After an error the parser
/// stays failed; the connection answers with the error's status and closes.
package struct HTTPRequestParser: Sendable {
    /// Size limits; exceeding one yields 414, 431 or 413.
    package struct Limits: Sendable, Hashable {
        /// Bytes of header fields (request line excluded), and separately of chunked trailers.
        package var maxHeaderBytes: Int
        /// Bytes of the request-target.
        package var maxTargetBytes: Int
        /// Bytes of the decoded body.
        package var maxBodyBytes: Int
        /// Other body limits for requests whose path starts with a given prefix (file uploads).
        package var bodyLimitOverrides: [BodyLimitOverride] = []

        /// Creates limits; the defaults are 16 KiB of headers, 32 KiB of target and 1 MiB of body.
        package init(maxHeaderBytes: Int = 16 * 1024, maxTargetBytes: Int = 32 * 1024, maxBodyBytes: Int = 1 << 20) {
            self.maxHeaderBytes = maxHeaderBytes
            self.maxTargetBytes = maxTargetBytes
            self.maxBodyBytes = maxBodyBytes
        }

        /// The body limit of a request to `target`: the first matching override's, else `maxBodyBytes`.
        package func maxBodyBytes(forTarget target: String) -> Int {
            maxBodyBytes(forTarget: target, ascii: nil)
        }

        /// `maxBodyBytes(forTarget:)` of a target's bytes (valid UTF-8) whose ASCII-ness the parser
        /// learnt reading the request line, so that the target is not scanned again.
        func maxBodyBytes(forTarget target: UnsafeBufferPointer<UInt8>, ascii: Bool) -> Int {
            guard !bodyLimitOverrides.isEmpty else { return maxBodyBytes }
            if ascii, target.first == UInt8(ascii: "/") {
                // The prefixes' bytes kept with them: no string is read per request.
                for index in bodyLimitOverrides.indices where Self.hasPrefix(target, bodyLimitOverrides[index].prefixBytes) {
                    return bodyLimitOverrides[index].maxBodyBytes
                }
                return maxBodyBytes
            }
            return maxBodyBytes(forTarget: String(decoding: target, as: UTF8.self), ascii: nil)
        }

        /// `maxBodyBytes(forTarget:)` where whether `target` is ASCII may be known already.
        func maxBodyBytes(forTarget target: String, ascii: Bool?) -> Int {
            guard !bodyLimitOverrides.isEmpty else { return maxBodyBytes }
            if ascii != false, target.utf8.first == UInt8(ascii: "/") {
                // Origin-form, the usual case: a byte-wise prefix test of the target itself, decided
                // when it is ASCII (then bytes and characters agree).
                var path = target
                let decided = path.withUTF8 { bytes -> Int? in
                    guard ascii == true || HTTPRequest.isASCII(bytes) else { return nil }
                    for override in bodyLimitOverrides where Self.hasPrefix(bytes, override.pathPrefix) { return override.maxBodyBytes }
                    return maxBodyBytes
                }
                if let decided { return decided }
            }
            let path = HTTPRequest.originForm(of: target)
            return bodyLimitOverrides.first { path.hasPrefix($0.pathPrefix) }?.maxBodyBytes ?? maxBodyBytes
        }

        /// Whether `bytes` start with `prefix`.
        private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: [UInt8]) -> Bool {
            prefix.withUnsafeBufferPointer { prefix in
                guard prefix.count <= bytes.count else { return false }
                guard let wanted = prefix.baseAddress, let given = bytes.baseAddress else { return true }
                return memcmp(given, wanted, prefix.count) == 0
            }
        }

        /// Whether `bytes` start with the bytes of `prefix`.
        private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: String) -> Bool {
            var prefix = prefix
            return prefix.withUTF8 { prefixBytes in
                guard prefixBytes.count <= bytes.count else { return false }
                for index in prefixBytes.indices where bytes[index] != prefixBytes[index] { return false }
                return true
            }
        }
    }

    /// One framed request and how the connection should continue after its response.
    package struct Parsed: Sendable, Hashable {
        /// The request, body decoded.
        package var request: HTTPRequest
        /// Whether the connection stays open after the response (HTTP/1.1 default, `Connection` header).
        package var keepAlive: Bool
        /// Whether the head holds an `Upgrade` field: only such a request can ask to switch
        /// protocols, so a transport looks no further into the others' fields.
        package var hasUpgradeField = false
    }

    @usableFromInline enum Phase: Sendable { case head, fixedBody, chunkSize, chunkData, chunkDataEnd, trailers, failed }

    struct Head: Sendable {
        var method: String
        var version: String
        /// The target and header fields.
        var packed: PackedRequestHead
        var keepAlive: Bool
        var hasUpgradeField: Bool
    }

    package let limits: Limits
    // Read by the inlinable `hasBufferedBytes` and `bufferedByteCount`, so that a caller in
    // another module reads them in place instead of copying the parser.
    @usableFromInline var buffer: [UInt8] = []
    @usableFromInline var start = 0
    @usableFromInline var phase = Phase.head
    @usableFromInline var inHead = false
    var scan = 0
    var lineStart = 0
    var headerBytes = 0
    var requestLine: (method: String, version: String)?
    /// Whether the request-target of `requestLine` is ASCII.
    var targetIsASCII = true
    /// The target and header fields of the head being read.
    var headBuilder = PackedRequestHead.Builder()
    /// The head just completed, packed (until `completeHead` takes it).
    var packedHead: PackedRequestHead?
    /// The framing fields among the header fields.
    var framing = FramingFields()
    var head: Head?
    var body: [UInt8] = []
    var remaining = 0
    /// The body limit of the request being read (`limits.maxBodyBytes` or an override for its path).
    var bodyLimit = 0
    var trailerBytes = 0
    var error: HTTPParseError?
    /// True once the head of a request with `Expect: 100-continue` is parsed and its body has not fully arrived.
    package internal(set) var expectsContinue = false

    /// Creates a parser enforcing `limits`.
    package init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// Adds received bytes.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
    }

    /// Adds received bytes.
    package mutating func append(_ bytes: [UInt8]) {
        buffer.append(contentsOf: bytes)
    }

    /// Whether unconsumed bytes are buffered (a partial or further pipelined request).
    @inlinable package var hasBufferedBytes: Bool { start < buffer.count || phase != .head || inHead }

    /// Number of buffered, unconsumed bytes.
    @inlinable package var bufferedByteCount: Int { buffer.count - start }

    /// `hasBufferedBytes` of the parser at `parser`, read field by field in place (a getter not
    /// inlined takes the parser by value: a copy of the whole struct).
    @inlinable package static func hasBufferedBytes(at parser: UnsafeMutablePointer<HTTPRequestParser>) -> Bool {
        parser.pointee.start < parser.pointee.buffer.count || parser.pointee.phase != .head || parser.pointee.inHead
    }

    /// `bufferedByteCount` of the parser at `parser`, read in place.
    @inlinable package static func bufferedByteCount(at parser: UnsafeMutablePointer<HTTPRequestParser>) -> Int {
        parser.pointee.buffer.count - parser.pointee.start
    }

    /// Frees the receive buffer while nothing is buffered (a connection waiting for an answer or
    /// idle between requests); the next `append` allocates it again.
    package mutating func releaseIdleBuffer() {
        guard !hasBufferedBytes, buffer.capacity > 0 else { return }
        buffer = []
        start = 0
    }

    /// Returns the next complete request, `nil` if more bytes are needed, or throws the framing error.
    package mutating func next() throws(HTTPParseError) -> Parsed? {
        if let error { throw error }
        do {
            let parsed = try step()
            compact()
            return parsed
        } catch {
            self.error = error
            phase = .failed
            throw error
        }
    }

    private mutating func compact() {
        // Nothing consumed (an empty buffer after the last request's compaction): nothing to do.
        guard start > 0, start == buffer.count || (start > 4096 && start * 2 > buffer.count) else { return }
        let shift = start
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 4096)
        } else {
            buffer.removeSubrange(0..<start)
        }
        start = 0
        if inHead {
            scan -= shift
            lineStart -= shift
        }
    }

    private mutating func step() throws(HTTPParseError) -> Parsed? {
        while true {
            switch phase {
            case .head:
                guard try parseHead() else { return nil }
            case .fixedBody:
                let take = min(remaining, buffer.count - start)
                // Most requests have no body: nothing to append (an empty append still costs a call).
                if take > 0 { body.append(contentsOf: buffer[start..<(start + take)]) }
                start += take
                remaining -= take
                if remaining > 0 { return nil }
                return finish()
            case .chunkSize:
                guard let line = try takeLine(limit: 1024, error: .invalidChunkedBody) else { return nil }
                let size = try chunkSize(line)
                if size == 0 {
                    phase = .trailers
                    trailerBytes = 0
                } else {
                    guard size <= bodyLimit - body.count else { throw .bodyTooLarge(limit: bodyLimit) }
                    remaining = size
                    phase = .chunkData
                }
            case .chunkData:
                let take = min(remaining, buffer.count - start)
                body.append(contentsOf: buffer[start..<(start + take)])
                start += take
                remaining -= take
                if remaining > 0 { return nil }
                phase = .chunkDataEnd
            case .chunkDataEnd:
                guard let line = try takeLine(limit: 2, error: .invalidChunkedBody) else { return nil }
                guard line.isEmpty else { throw .invalidChunkedBody }
                phase = .chunkSize
            case .trailers:
                guard let line = try takeLine(limit: limits.maxHeaderBytes, error: .headersTooLarge(limit: limits.maxHeaderBytes))
                else { return nil }
                if line.isEmpty { return finish() }
                trailerBytes += line.count + 2
                guard trailerBytes <= limits.maxHeaderBytes else { throw .headersTooLarge(limit: limits.maxHeaderBytes) }
                guard line.contains(UInt8(ascii: ":")) else { throw .invalidChunkedBody }
            case .failed:
                throw error ?? .invalidRequestLine
            }
        }
    }

    /// Takes one line (without CRLF or bare LF) from the buffer, or `nil` when incomplete.
    private mutating func takeLine(limit: Int, error: HTTPParseError) throws(HTTPParseError) -> ArraySlice<UInt8>? {
        let from = start
        guard let lf = buffer[from...].firstIndex(of: 0x0A) else {
            if buffer.count - from > limit + 2 { throw error }
            return nil
        }
        var end = lf
        if end > from && buffer[end - 1] == 0x0D { end -= 1 }
        guard end - from <= limit else { throw error }
        start = lf + 1
        return buffer[from..<end]
    }

    private func chunkSize(_ line: ArraySlice<UInt8>) throws(HTTPParseError) -> Int {
        var size = 0
        var digits = 0
        for byte in line {
            guard let value = hexDigit(byte) else {
                // A chunk extension (`;name=value`) or whitespace before it ends the size (RFC 9112 §7.1.1).
                if byte == UInt8(ascii: ";") || byte == 0x20 || byte == 0x09 { break }
                throw .invalidChunkedBody
            }
            digits += 1
            guard digits <= 15 else { throw .bodyTooLarge(limit: bodyLimit) }
            size = size << 4 | Int(value)
        }
        guard digits > 0 else { throw .invalidChunkedBody }
        return size
    }

    private func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }

    private mutating func finish() -> Parsed {
        let head = self.head.take()!
        let request = HTTPRequest(method: head.method, version: head.version, head: head.packed, body: body)
        body = []
        remaining = 0
        phase = .head
        expectsContinue = false
        return Parsed(request: request, keepAlive: head.keepAlive, hasUpgradeField: head.hasUpgradeField)
    }
}

/// A body limit for the requests whose path starts with `pathPrefix` (in place of the general one).
package struct BodyLimitOverride: Sendable, Hashable {
    /// The raw path prefix, e.g. `/file-storage/`.
    package var pathPrefix: String { didSet { prefixBytes = Array(pathPrefix.utf8) } }
    /// Bytes of body accepted on those paths.
    package var maxBodyBytes: Int
    /// The UTF-8 bytes of `pathPrefix` (compared with a target's bytes).
    private(set) var prefixBytes: [UInt8]

    package init(pathPrefix: String, maxBodyBytes: Int) {
        self.pathPrefix = pathPrefix
        self.maxBodyBytes = maxBodyBytes
        prefixBytes = Array(pathPrefix.utf8)
    }
}
