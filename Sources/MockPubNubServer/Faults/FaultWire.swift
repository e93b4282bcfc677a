// SPDX-License-Identifier: MIT

/// Writes response bytes by hand for the faults that break framing (`ResponseAction.raw`/`.drip`).
enum FaultWire {
    /// The status line and header block of `response`, declaring `contentLength`, ending with the blank line.
    ///
    /// `Content-Length`, `Transfer-Encoding` and `Connection` fields of `response` are replaced: the
    /// head declares `contentLength` (omitted when `nil`) and `Connection: close` when `closing`.
    static func head(_ response: HTTPResponse, contentLength: Int?, closing: Bool, chunked: Bool = false) -> [UInt8] {
        var text = "HTTP/1.1 \(response.status) \(response.reasonPhrase)\r\n"
        for field in response.headers {
            let name = field.name.lowercased()
            if name == "content-length" || name == "transfer-encoding" || name == "connection" { continue }
            text += "\(field.name): \(field.value)\r\n"
        }
        if chunked { text += "Transfer-Encoding: chunked\r\n" }
        if let contentLength { text += "Content-Length: \(contentLength)\r\n" }
        if closing { text += "Connection: close\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// The complete, well-framed response (what the transport would write for `.respond`).
    static func complete(_ response: HTTPResponse, closing: Bool) -> [UInt8] {
        head(response, contentLength: response.body.count, closing: closing) + response.body
    }

    /// `count` bytes to keep of a body of `total` bytes: `requested` clamped below `total`, or half.
    ///
    /// At least one byte is always cut from a non-empty body, so the result is really truncated.
    static func keptCount(requested: Int?, total: Int) -> Int {
        guard total > 0 else { return 0 }
        let wanted = requested ?? total / 2
        return max(0, min(wanted, total - 1))
    }

    /// 17-digit timetoken (Unix time × 10⁷) of a wall-clock time in Unix seconds.
    static func timetoken(unixSeconds: Double) -> UInt64 {
        guard unixSeconds > 0, unixSeconds < 1e11 else { return 0 }
        let whole = unixSeconds.rounded(.down)
        return UInt64(whole) * 10_000_000 + UInt64(((unixSeconds - whole) * 10_000_000).rounded(.down))
    }
}
