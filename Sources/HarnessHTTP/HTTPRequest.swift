// SPDX-License-Identifier: MIT
import HarnessPrimitives

/// An HTTP/1.1 request as read from the wire, with its framing already undone.
///
/// The request keeps the raw request-target so that nothing is lost; `pathSegments` and
/// `queryItems` give the decoded views PubNub routing needs (split on `/` and `&` first, then
/// percent-decode each piece, so `%2F` inside a channel name never splits a segment).
public struct HTTPRequest: Sendable, Hashable {
    /// The method token, e.g. `GET`.
    public var method: String
    /// The HTTP version token, e.g. `HTTP/1.1`.
    public var version: String
    /// The header fields in arrival order.
    public var headers: HTTPHeaders
    /// The body with any chunked transfer-coding removed.
    public var body: [UInt8]
    /// The target and its path and query: a parsed head's bytes, or strings.
    @usableFromInline var line: TargetStorage

    /// Where the request-target and its parts live.
    @usableFromInline enum TargetStorage: Sendable {
        /// An origin-form target in a parsed head's buffer (shared with `headers`).
        case packed(PackedRequestHead)
        /// Strings, as built by code or for targets not in origin-form.
        case text(TargetText)
    }

    /// The request-target and its path and query as strings.
    @usableFromInline final class TargetText: Sendable {
        @usableFromInline let target: String
        @usableFromInline let rawPath: String
        @usableFromInline let rawQuery: String

        init(target: String, rawPath: String, rawQuery: String) {
            self.target = target
            self.rawPath = rawPath
            self.rawQuery = rawQuery
        }
    }

    /// The raw request-target exactly as sent, e.g. `/time/0?uuid=a`.
    public var target: String {
        get {
            switch line {
            case .text(let text): return text.target
            case .packed: return withTargetBytes { String(decoding: $0, as: UTF8.self) }
            }
        }
        set { line = .text(TargetText(target: newValue, rawPath: rawPath, rawQuery: rawQuery)) }
    }

    /// The raw (still percent-encoded) path part of the target.
    public var rawPath: String {
        get {
            switch line {
            case .text(let text): return text.rawPath
            case .packed: return withRawPathBytes { String(decoding: $0, as: UTF8.self) }
            }
        }
        set { line = .text(TargetText(target: target, rawPath: newValue, rawQuery: rawQuery)) }
    }

    /// The raw query string (after `?`, without the `?`), empty when absent.
    public var rawQuery: String {
        get {
            switch line {
            case .text(let text): return text.rawQuery
            case .packed: return withRawQueryBytes { String(decoding: $0, as: UTF8.self) }
            }
        }
        set { line = .text(TargetText(target: target, rawPath: rawPath, rawQuery: newValue)) }
    }

    public init(
        method: String, target: String, version: String = "HTTP/1.1",
        headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []
    ) {
        self.method = method
        self.version = version
        self.headers = headers
        self.body = body
        let (rawPath, rawQuery) = Self.split(target)
        line = .text(TargetText(target: target, rawPath: rawPath, rawQuery: rawQuery))
    }

    /// A parsed request: its target and header fields in `head` (a valid UTF-8 target).
    init(method: String, version: String, head: PackedRequestHead, body: [UInt8]) {
        self.method = method
        self.version = version
        headers = HTTPHeaders(packed: head)
        self.body = body
        let originForm = head.withLayout { buffer, layout in layout.targetEnd > 0 && buffer[0] == UInt8(ascii: "/") }
        if originForm {
            line = .packed(head)
        } else {
            let target = head.withLayout { buffer, layout in
                String(decoding: UnsafeBufferPointer(rebasing: buffer[..<layout.targetEnd]), as: UTF8.self)
            }
            let (rawPath, rawQuery) = Self.split(target)
            line = .text(TargetText(target: target, rawPath: rawPath, rawQuery: rawQuery))
        }
    }

    /// The raw path and query of `target`.
    private static func split(_ target: String) -> (rawPath: String, rawQuery: String) {
        // Absolute-form (`http://host:port/path?q`, RFC 9112 §3.2.2) routes like its origin-form.
        if target.utf8.first == UInt8(ascii: "/") {
            // Origin-form, the usual case: split on the bytes.
            var text = target
            return text.withUTF8 { bytes in
                guard let mark = bytes.firstIndex(of: UInt8(ascii: "?")) else { return (target, "") }
                return (String(decoding: UnsafeBufferPointer(rebasing: bytes[..<mark]), as: UTF8.self),
                        String(decoding: UnsafeBufferPointer(rebasing: bytes[(mark + 1)...]), as: UTF8.self))
            }
        }
        let originForm = Self.originForm(of: target)
        if let mark = originForm.utf8.firstIndex(of: UInt8(ascii: "?")) {
            return (String(originForm[..<mark]), String(originForm[originForm.index(after: mark)...]))
        }
        return (String(originForm), "")
    }

    /// Calls `body` with the request-target's UTF-8 bytes. (Inlinable, as the two below: a
    /// caller in another module gets it specialized instead of a generic call per closure layer.)
    @inlinable package func withTargetBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        switch line {
        case .text(let text):
            var target = text.target
            return try target.withUTF8(body)
        case .packed(let head):
            return try head.withLayout { buffer, layout in try body(UnsafeBufferPointer(rebasing: buffer[..<layout.targetEnd])) }
        }
    }

    /// Calls `body` with the raw path's UTF-8 bytes (as `rawPath`, without making it a string).
    @inlinable package func withRawPathBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        switch line {
        case .text(let text):
            var path = text.rawPath
            return try path.withUTF8(body)
        case .packed(let head):
            return try head.withLayout { buffer, layout in try body(UnsafeBufferPointer(rebasing: buffer[..<layout.pathEnd])) }
        }
    }

    /// Calls `body` with the raw query's UTF-8 bytes (as `rawQuery`, without making it a string).
    @inlinable package func withRawQueryBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        switch line {
        case .text(let text):
            var query = text.rawQuery
            return try query.withUTF8(body)
        case .packed(let head):
            return try head.withLayout { buffer, layout in
                try body(UnsafeBufferPointer(rebasing: buffer[min(layout.pathEnd + 1, layout.targetEnd)..<layout.targetEnd]))
            }
        }
    }

    public static func == (lhs: HTTPRequest, rhs: HTTPRequest) -> Bool {
        guard lhs.method == rhs.method, lhs.version == rhs.version, lhs.body == rhs.body, lhs.headers == rhs.headers else {
            return false
        }
        // Two parsed origin-form targets with the same bytes have the same parts.
        if case .packed = lhs.line, case .packed = rhs.line,
            lhs.withTargetBytes({ mine in rhs.withTargetBytes { mine.elementsEqual($0) } })
        {
            return true
        }
        return lhs.target == rhs.target && lhs.rawPath == rhs.rawPath && lhs.rawQuery == rhs.rawQuery
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(target)
        hasher.combine(rawPath)
        hasher.combine(rawQuery)
        hasher.combine(version)
        hasher.combine(headers)
        hasher.combine(body)
    }

    /// The origin-form part of a request-target: the target itself, or for an absolute-form
    /// target (`http://` or `https://`, any case) what follows the authority, `/` when nothing does.
    static func originForm(of target: String) -> Substring {
        let utf8 = target.utf8
        guard let first = utf8.first, first | 0x20 == UInt8(ascii: "h") else { return target[...] }
        let schemeEnd: String.Index
        if utf8.count >= 7, target.utf8.prefix(7).map({ $0 | 0x20 }).elementsEqual("http://".utf8.map { $0 | 0x20 }) {
            schemeEnd = utf8.index(utf8.startIndex, offsetBy: 7)
        } else if utf8.count >= 8,
            target.utf8.prefix(8).map({ $0 | 0x20 }).elementsEqual("https://".utf8.map { $0 | 0x20 }) {
            schemeEnd = utf8.index(utf8.startIndex, offsetBy: 8)
        } else {
            return target[...]
        }
        let rest = target[schemeEnd...]
        guard let pathStart = rest.utf8.firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") }) else {
            return "/"
        }
        if rest.utf8[pathStart] == UInt8(ascii: "?") { return ("/" + rest[pathStart...])[...] }
        return rest[pathStart...]
    }

    /// Whether `target` is absolute-form with the `http` or `https` scheme.
    static func isAbsoluteForm(_ target: String) -> Bool {
        let lower = target.prefix(8).lowercased()
        return lower.hasPrefix("http://") || lower.hasPrefix("https://")
    }

    /// The path split on `/` (the leading empty segment dropped), each segment percent-decoded.
    ///
    /// Returns `nil` when a segment holds invalid percent-encoding or is not UTF-8.
    public var pathSegments: [String]? {
        withRawPathBytes { bytes -> [String]? in
            var decoded: [String] = []
            decoded.reserveCapacity(Self.count(of: UInt8(ascii: "/"), in: bytes) + 1)
            let complete = Self.forEachPiece(of: bytes, separator: UInt8(ascii: "/")) { piece, isFirst in
                // "" and "/x" both start with an empty piece, which is dropped.
                if isFirst && piece.isEmpty { return true }
                guard let value = Self.decode(piece, plusAsSpace: false) else { return false }
                decoded.append(value)
                return true
            }
            return complete ? decoded : nil
        }
    }

    /// The query split on `&` and `=`, each name and value percent-decoded, in order.
    ///
    /// Returns `nil` when a name or value holds invalid percent-encoding or is not UTF-8.
    public var queryItems: [QueryItem]? {
        withRawQueryBytes { bytes -> [QueryItem]? in
            guard !bytes.isEmpty else { return [] }
            var items: [QueryItem] = []
            items.reserveCapacity(Self.count(of: UInt8(ascii: "&"), in: bytes) + 1)
            let complete = Self.forEachQueryPair(in: bytes) { name, value in
                guard let name = Self.decode(name, plusAsSpace: true), let value = Self.decode(value, plusAsSpace: true)
                else { return false }
                items.append(QueryItem(name: name, value: value))
                return true
            }
            return complete ? items : nil
        }
    }

    /// Calls `body` with the raw (undecoded) name and value of every item of a raw query, in
    /// order: the pieces between `&`s, empty ones skipped, each split at its first `=` (the value
    /// is empty when there is none). Stops and returns false as soon as `body` does. The one
    /// splitter of a query, for ``queryItems`` and for readers that decode the pieces their own way.
    @inlinable @inline(__always)
    package static func forEachQueryPair(
        in bytes: UnsafeBufferPointer<UInt8>,
        _ body: (_ name: UnsafeBufferPointer<UInt8>, _ value: UnsafeBufferPointer<UInt8>) -> Bool
    ) -> Bool {
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "&") { end += 1 }
            if end > start {
                var equals = start
                while equals < end, bytes[equals] != UInt8(ascii: "=") { equals += 1 }
                let name = UnsafeBufferPointer(rebasing: bytes[start..<equals])
                let value = UnsafeBufferPointer(rebasing: bytes[min(equals + 1, end)..<end])
                guard body(name, value) else { return false }
            }
            start = end + 1
        }
        return true
    }

    /// Whether every byte of `bytes` is ASCII (below 0x80), tested eight bytes at a time.
    @inlinable
    package static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var index = 0
        while index + 8 <= bytes.count {
            if raw.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            index += 8
        }
        while index < bytes.count {
            if base[index] >= 0x80 { return false }
            index += 1
        }
        return true
    }

    /// How many times `byte` occurs in `bytes`.
    private static func count(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var count = 0
        for candidate in bytes where candidate == byte { count += 1 }
        return count
    }

    /// Calls `body` with every piece of `bytes` between `separator`s (empty ones included), in
    /// order, and whether it is the first; stops and returns false as soon as `body` does.
    private static func forEachPiece(
        of bytes: UnsafeBufferPointer<UInt8>, separator: UInt8,
        _ body: (_ piece: UnsafeBufferPointer<UInt8>, _ isFirst: Bool) -> Bool
    ) -> Bool {
        var start = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == separator {
            defer { start = index + 1 }
            guard body(UnsafeBufferPointer(rebasing: bytes[start..<index]), start == 0) else { return false }
        }
        return true
    }

    /// Decodes one piece of the (valid UTF-8) target; pieces without `%` (or `+`) need no decoding.
    package static func decode(_ piece: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> String? {
        let needsDecoding = piece.contains { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }
        return needsDecoding ? PercentDecoding.decode(bytes: piece, plusAsSpace: plusAsSpace) : String(decoding: piece, as: UTF8.self)
    }

    /// Whether `bytes` are exactly the bytes of `literal`.
    @inlinable
    package static func bytes(_ bytes: UnsafeBufferPointer<UInt8>, spell literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count == count else { return false }
        let expected = literal.utf8Start
        for index in 0..<count where bytes[index] != expected[index] { return false }
        return true
    }
}

/// One decoded `name=value` pair of a query string.
public struct QueryItem: Sendable, Hashable, Codable {
    public var name: String
    public var value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }
}

extension Array where Element == QueryItem {
    /// The value of the first item named `name`, if any.
    public subscript(_ name: String) -> String? {
        first(where: { $0.name == name })?.value
    }
}

/// The server's name for ``PercentCoding`` (query and path decoding), kept for its call sites.
package typealias PercentDecoding = PercentCoding
