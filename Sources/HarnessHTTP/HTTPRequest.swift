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
    /// The raw request-target exactly as sent, e.g. `/time/0?uuid=a`.
    public var target: String
    /// The raw (still percent-encoded) path part of the target.
    public var rawPath: String
    /// The raw query string (after `?`, without the `?`), empty when absent.
    public var rawQuery: String
    /// The HTTP version token, e.g. `HTTP/1.1`.
    public var version: String
    /// The header fields in arrival order.
    public var headers: HTTPHeaders
    /// The body with any chunked transfer-coding removed.
    public var body: [UInt8]

    public init(
        method: String, target: String, version: String = "HTTP/1.1",
        headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
        // Absolute-form (`http://host:port/path?q`, RFC 9112 §3.2.2) routes like its origin-form.
        if target.utf8.first == UInt8(ascii: "/") {
            // Origin-form, the usual case: split on the bytes.
            var text = target
            (rawPath, rawQuery) = text.withUTF8 { bytes in
                guard let mark = bytes.firstIndex(of: UInt8(ascii: "?")) else { return (target, "") }
                return (String(decoding: UnsafeBufferPointer(rebasing: bytes[..<mark]), as: UTF8.self),
                        String(decoding: UnsafeBufferPointer(rebasing: bytes[(mark + 1)...]), as: UTF8.self))
            }
            return
        }
        let originForm = Self.originForm(of: target)
        if let mark = originForm.utf8.firstIndex(of: UInt8(ascii: "?")) {
            rawPath = String(originForm[..<mark])
            rawQuery = String(originForm[originForm.index(after: mark)...])
        } else {
            rawPath = String(originForm)
            rawQuery = ""
        }
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
        var path = rawPath
        return path.withUTF8 { bytes -> [String]? in
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
        guard !rawQuery.isEmpty else { return [] }
        var query = rawQuery
        return query.withUTF8 { bytes -> [QueryItem]? in
            var items: [QueryItem] = []
            items.reserveCapacity(Self.count(of: UInt8(ascii: "&"), in: bytes) + 1)
            let complete = Self.forEachPiece(of: bytes, separator: UInt8(ascii: "&")) { pair, _ in
                if pair.isEmpty { return true }
                let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.count
                guard let name = Self.decode(UnsafeBufferPointer(rebasing: pair[..<equals]), plusAsSpace: true),
                    let value = Self.decode(UnsafeBufferPointer(rebasing: pair[min(equals + 1, pair.count)...]), plusAsSpace: true)
                else { return false }
                items.append(QueryItem(name: name, value: value))
                return true
            }
            return complete ? items : nil
        }
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
