// SPDX-License-Identifier: MIT

/// An HTTP response head as a WebSocket client reads it before the first frame.
public struct WebSocketResponseHead: Hashable, Sendable {
    public var status: Int
    public var reason: String
    public var headers: [WebSocketHeaderField]

    public init(status: Int, reason: String, headers: [WebSocketHeaderField]) {
        self.status = status
        self.reason = reason
        self.headers = headers
    }

    /// Longest head accepted before giving up.
    public static let maxHeadLength = 16 * 1024

    /// Parses the head at the start of `bytes`. Returns nil while the blank line has not arrived;
    /// otherwise the head and how many bytes it used (frames may follow at once).
    public static func parse(_ bytes: [UInt8]) throws(WebSocketClientHandshakeError) -> (head: WebSocketResponseHead, consumed: Int)? {
        let limit = min(bytes.count, maxHeadLength)
        var end: Int?
        var index = 3
        while index < limit {
            if bytes[index - 3] == 13, bytes[index - 2] == 10, bytes[index - 1] == 13, bytes[index] == 10 {
                end = index + 1
                break
            }
            index += 1
        }
        guard let end else {
            if bytes.count >= maxHeadLength { throw .malformedResponseHead }
            return nil
        }
        let text = String(decoding: bytes[0..<(end - 4)], as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        guard !lines.isEmpty else { throw .malformedResponseHead }
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let status = Int(parts[1]) else {
            throw .malformedResponseHead
        }
        var headers: [WebSocketHeaderField] = []
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { throw .malformedResponseHead }
            headers.append(WebSocketHeaderField(String(line[..<colon]), line[line.index(after: colon)...].trimmingWhitespace()))
        }
        let reason = parts.count > 2 ? String(parts[2]) : ""
        return (WebSocketResponseHead(status: status, reason: reason, headers: headers), end)
    }
}
