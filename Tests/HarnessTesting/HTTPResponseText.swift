// SPDX-License-Identifier: MIT

/// The one HTTP response reader of the tests: frames a response out of received bytes by its
/// `Content-Length`, and splits a response into status line, header fields and body.
package struct HTTPResponseText: Sendable {
    /// The status line and header fields, without the blank line.
    package let head: String
    package let body: [UInt8]
    package let statusLine: String

    /// Splits `bytes` at the first blank line; without one, everything is head.
    package init(_ bytes: [UInt8]) {
        let split = Self.headEnd(bytes) ?? bytes.count
        head = String(decoding: bytes[..<split], as: UTF8.self)
        body = split + 4 <= bytes.count ? Array(bytes[(split + 4)...]) : []
        statusLine = head.split(separator: "\r\n", maxSplits: 1).first.map(String.init) ?? ""
    }

    /// ``init(_:)`` of the UTF-8 text.
    package init(_ text: String) { self.init(Array(text.utf8)) }

    /// The status code, or 0 when the head is no HTTP/1.x status line.
    package var status: Int {
        guard statusLine.hasPrefix("HTTP/1."), statusLine.count >= 12 else { return 0 }
        return Int(statusLine.dropFirst(9).prefix(3)) ?? 0
    }

    package var bodyText: String { String(decoding: body, as: UTF8.self) }

    /// The value of the first header named `name` (case-insensitive).
    package func header(_ name: String) -> String? {
        for line in head.split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].lowercased() == name.lowercased() {
                return String(line[line.index(after: colon)...].drop { $0 == " " })
            }
        }
        return nil
    }

    /// Removes one complete response (head plus `Content-Length` bytes of body) from the front of
    /// `buffer` and returns it; `nil` while it is incomplete.
    package static func frame(_ buffer: inout [UInt8]) -> [UInt8]? {
        guard let headEnd = headEnd(buffer) else { return nil }
        let length = Int(HTTPResponseText(Array(buffer[..<headEnd])).header("content-length") ?? "0") ?? 0
        let total = headEnd + 4 + length
        guard buffer.count >= total else { return nil }
        defer { buffer.removeSubrange(..<total) }
        return Array(buffer[..<total])
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        return (0...(bytes.count - 4)).first {
            bytes[$0] == 13 && bytes[$0 + 1] == 10 && bytes[$0 + 2] == 13 && bytes[$0 + 3] == 10
        }
    }
}
