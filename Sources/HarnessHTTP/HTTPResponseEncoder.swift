// SPDX-License-Identifier: MIT

/// Serialises an `HTTPResponse` with the framing headers the transport owns (pure).
package enum HTTPResponseEncoder {
    /// The wire bytes of `response`: status line, its headers, `Content-Length`, `Connection`, blank line, body.
    ///
    /// Any `Content-Length` or `Connection` field the handler set is replaced. For a `HEAD` request
    /// the body is omitted but `Content-Length` still gives its size (RFC 9110 §9.3.2). `http10`
    /// answers an HTTP/1.0 request with an `HTTP/1.0` status line.
    package static func encode(_ response: HTTPResponse, keepAlive: Bool, headRequest: Bool = false, http10: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(160 + response.body.count)
        appendHead(of: response, keepAlive: keepAlive, http10: http10, to: &out)
        if !headRequest { out.append(contentsOf: response.body) }
        return out
    }

    /// The wire bytes of `response` up to and including the blank line; the body goes out as
    /// `response.body` itself (a transport writes both in one gather write, sharing the body).
    package static func encodeHead(_ response: HTTPResponse, keepAlive: Bool, http10: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(160)
        appendHead(of: response, keepAlive: keepAlive, http10: http10, to: &out)
        return out
    }

    private static func appendHead(of response: HTTPResponse, keepAlive: Bool, http10: Bool, to out: inout [UInt8]) {
        out.append(contentsOf: (http10 ? "HTTP/1.0 " : "HTTP/1.1 ").utf8)
        appendDecimal(response.status, to: &out)
        out.append(0x20)
        out.append(contentsOf: response.reasonPhrase.utf8)
        out.append(contentsOf: "\r\n".utf8)
        for field in response.headers
        where !field.name.caseInsensitiveEquals("Content-Length") && !field.name.caseInsensitiveEquals("Connection") {
            out.append(contentsOf: field.name.utf8)
            out.append(contentsOf: ": ".utf8)
            out.append(contentsOf: field.value.utf8)
            out.append(contentsOf: "\r\n".utf8)
        }
        out.append(contentsOf: "Content-Length: ".utf8)
        appendDecimal(response.body.count, to: &out)
        out.append(contentsOf: (keepAlive ? "\r\nConnection: keep-alive\r\n\r\n" : "\r\nConnection: close\r\n\r\n").utf8)
    }

    /// Appends the decimal digits of `value` (small numbers: no allocation).
    static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        out.append(contentsOf: String(value).utf8)
    }
}
