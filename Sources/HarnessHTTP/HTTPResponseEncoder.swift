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
        appendStatusAndFields(of: response, http10: http10, to: &out)
        appendFraming(bodyCount: response.body.count, keepAlive: keepAlive, to: &out)
    }

    /// The part of the head that depends on neither the body's length nor the connection's
    /// framing: the status line and the handler's fields (without `Content-Length` and
    /// `Connection`). A transport may keep these bytes and reuse them for every response with the
    /// same status, reason and fields, appending only `appendFraming`.
    package static func appendStatusAndFields(of response: HTTPResponse, http10: Bool, to out: inout [UInt8]) {
        appendLiteral(http10 ? "HTTP/1.0 " : "HTTP/1.1 ", to: &out)
        appendDecimal(response.status, to: &out)
        out.append(0x20)
        appendText(response.reasonPhrase, to: &out)
        appendLiteral("\r\n", to: &out)
        for field in response.headers
        where !field.name.caseInsensitiveEquals("Content-Length") && !field.name.caseInsensitiveEquals("Connection") {
            appendText(field.name, to: &out)
            appendLiteral(": ", to: &out)
            appendText(field.value, to: &out)
            appendLiteral("\r\n", to: &out)
        }
    }

    /// The end of the head: `Content-Length`, `Connection` and the blank line.
    package static func appendFraming(bodyCount: Int, keepAlive: Bool, to out: inout [UInt8]) {
        appendLiteral("Content-Length: ", to: &out)
        appendFramingValues(bodyCount: bodyCount, keepAlive: keepAlive, to: &out)
    }

    /// The length of `Content-Length: `, with which `appendFraming` starts.
    package static let framingLabelCount = 16

    /// The end of the head after `Content-Length: `: the length, `Connection` and the blank line.
    package static func appendFramingValues(bodyCount: Int, keepAlive: Bool, to out: inout [UInt8]) {
        appendDecimal(bodyCount, to: &out)
        appendLiteral(keepAlive ? "\r\nConnection: keep-alive\r\n\r\n" : "\r\nConnection: close\r\n\r\n", to: &out)
    }

    /// Appends the UTF-8 bytes of `text` in one copy (native strings are contiguous).
    static func appendText(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { out.append(contentsOf: $0) }
    }

    /// Appends the bytes of a literal in one copy.
    static func appendLiteral(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// Appends the decimal digits of `value` (no allocation): written backwards into a small
    /// buffer on the stack, then appended in one copy (one capacity check, not one per digit).
    package static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        guard value >= 0 else {
            out.append(contentsOf: String(value).utf8)
            return
        }
        // Int.max has 19 digits.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var index = digits.count
            var rest = UInt(bitPattern: value)
            repeat {
                index -= 1
                let (quotient, remainder) = rest.quotientAndRemainder(dividingBy: 10)
                digits.initializeElement(at: index, to: UInt8(truncatingIfNeeded: remainder) &+ UInt8(ascii: "0"))
                rest = quotient
            } while rest > 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[index...]))
        }
    }
}
