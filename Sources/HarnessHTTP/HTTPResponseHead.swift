// SPDX-License-Identifier: MIT

/// An HTTP/1.x response head: status line and header fields. The one response-head reader of the
/// package: the HTTP client, the WebSocket client handshake and the tests parse heads with it.
public struct HTTPResponseHead: Sendable, Hashable {
    /// `HTTP/1.1` or `HTTP/1.0`.
    public var version: String
    public var status: Int
    public var reason: String
    /// The fields as sent (names keep their case; lookups are case-insensitive).
    public var headers: HTTPHeaders

    public init(version: String = "HTTP/1.1", status: Int, reason: String, headers: HTTPHeaders) {
        self.version = version
        self.status = status
        self.reason = reason
        self.headers = headers
    }

    /// The default longest head accepted before giving up.
    public static let defaultMaxLength = 16 * 1024

    /// Parses the head at the start of `bytes` (lines end in CRLF; a bare LF is accepted too). Returns
    /// nil while the blank line has not arrived; otherwise the head and how many bytes it used (a body
    /// or WebSocket frames may follow at once).
    /// - Throws: ``HTTPResponseHeadError`` for a malformed head, or when `maxLength` bytes hold no blank line.
    public static func parse(_ bytes: [UInt8], maxLength: Int = defaultMaxLength) throws(HTTPResponseHeadError) -> (head: HTTPResponseHead, consumed: Int)? {
        guard let (headEnd, consumed) = headEnd(bytes, limit: maxLength) else {
            if bytes.count >= maxLength { throw .tooLong(limit: maxLength) }
            return nil
        }
        var lines = bytes[..<headEnd].split(separator: 0x0A, omittingEmptySubsequences: false).map { line in
            String(decoding: line.last == 0x0D ? line.dropLast() : line, as: UTF8.self)
        }
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].utf8.count == 3,
            parts[1].utf8.allSatisfy({ (0x30...0x39).contains($0) }), let status = Int(parts[1]), status >= 100
        else { throw .badStatusLine(String(statusLine.prefix(80))) }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw .badHeaderLine }
            headers.add(String(line[..<colon]), line[line.index(after: colon)...].trimmingHTTPWhitespace())
        }
        let reason = parts.count > 2 ? String(parts[2]) : ""
        return (HTTPResponseHead(version: String(parts[0]), status: status, reason: reason, headers: headers), consumed)
    }

    /// Where the head's last line ends (before the blank line) and where the bytes after the blank line start.
    private static func headEnd(_ bytes: [UInt8], limit: Int) -> (Int, Int)? {
        let end = min(bytes.count, limit)
        var index = 0
        while index < end {
            if bytes[index] == 0x0A {
                // A line feed followed by an empty line (LF, or CR LF) ends the head.
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { return (index, index + 2) }
                if index + 2 < bytes.count, bytes[index + 1] == 0x0D, bytes[index + 2] == 0x0A { return (index, index + 3) }
            }
            index += 1
        }
        return nil
    }
}

/// Why a response head cannot be read.
public enum HTTPResponseHeadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The first line is not `HTTP/1.x NNN [reason]`.
    case badStatusLine(String)
    /// A header line without a colon.
    case badHeaderLine
    /// No blank line within the first `limit` bytes.
    case tooLong(limit: Int)

    public var description: String {
        switch self {
        case .badStatusLine(let line): "bad status line \"\(line)\""
        case .badHeaderLine: "bad header line"
        case .tooLong(let limit): "response head longer than \(limit) bytes"
        }
    }
}
