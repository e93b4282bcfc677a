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
        let tail: StaticString = keepAlive ? "\r\nConnection: keep-alive\r\n\r\n" : "\r\nConnection: close\r\n\r\n"
        // The digits and the rest written on the stack, then appended in one copy.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20 + 32) { space in
            let base = space.baseAddress!
            let digits = writeDecimal(UInt64(max(bodyCount, 0)), to: base)
            (base + digits).update(from: tail.utf8Start, count: tail.utf8CodeUnitCount)
            out.append(contentsOf: UnsafeBufferPointer(start: base, count: digits + tail.utf8CodeUnitCount))
        }
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

    /// Appends the decimal digits of `value` (no allocation): written into a small buffer on the
    /// stack two digits at a time, then appended in one copy (one capacity check, not one per digit).
    package static func appendDecimal(_ value: Int, to out: inout [UInt8]) {
        guard value >= 0 else {
            out.append(contentsOf: String(value).utf8)
            return
        }
        // Int.max has 19 digits.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            let base = digits.baseAddress!
            let count = writeDecimal(UInt64(value), to: base)
            out.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
        }
    }

    /// Number of decimal digits of `value`.
    @inlinable
    package static func decimalDigitCount(_ value: UInt64) -> Int {
        var count = 1
        var rest = value
        while rest >= 10_000 { rest /= 10_000; count += 4 }
        if rest >= 100 { rest /= 100; count += 2 }
        if rest >= 10 { count += 1 }
        return count
    }

    /// Writes the decimal digits of `value` at `out` (room for 20 bytes, or for
    /// `decimalDigitCount(value)`) and returns how many: two digits per division, from the end.
    @inlinable
    package static func writeDecimal(_ value: UInt64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        let count = decimalDigitCount(value)
        var index = count
        var rest = value
        digitPairs.withUTF8Buffer { pairs in
            let table = pairs.baseAddress!
            while rest >= 100 {
                let (quotient, remainder) = rest.quotientAndRemainder(dividingBy: 100)
                index -= 2
                out[index] = table[Int(remainder) &* 2]
                out[index + 1] = table[Int(remainder) &* 2 + 1]
                rest = quotient
            }
            if rest >= 10 {
                index -= 2
                out[index] = table[Int(rest) &* 2]
                out[index + 1] = table[Int(rest) &* 2 + 1]
            } else {
                index -= 1
                out[index] = UInt8(truncatingIfNeeded: rest) &+ UInt8(ascii: "0")
            }
        }
        return count
    }

    /// The two digits of every number from 00 to 99, in order (a literal: no lazy global).
    @inlinable static var digitPairs: StaticString {
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"
    }
}
