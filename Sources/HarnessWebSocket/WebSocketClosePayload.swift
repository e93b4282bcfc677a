// SPDX-License-Identifier: MIT

/// The body of a close frame (RFC 6455 §5.5.1): a status code and a UTF-8 reason.
public struct WebSocketClosePayload: Hashable, Sendable {
    public var code: WebSocketCloseCode
    public var reason: String

    public init(code: WebSocketCloseCode, reason: String = "") {
        self.code = code
        self.reason = reason
    }

    /// Parses a received close payload. Empty → nil (no status); one byte → 1002; a code that may not
    /// be sent (1005, 1006, 1015, < 1000, ...) → 1002; a reason that is not UTF-8 → 1007.
    public static func parse(_ payload: [UInt8]) throws(WebSocketProtocolError) -> WebSocketClosePayload? {
        if payload.isEmpty { return nil }
        guard payload.count >= 2 else { throw .closePayloadTooShort }
        let code = WebSocketCloseCode(UInt16(payload[0]) << 8 | UInt16(payload[1]))
        guard code.isValidOnWire else { throw .invalidCloseCode(code.rawValue) }
        guard let reason = WebSocketUTF8.decode(payload[2...]) else { throw .invalidUTF8CloseReason }
        return WebSocketClosePayload(code: code, reason: reason)
    }

    /// The wire bytes: code big-endian, then the reason cut at a character boundary to fit 123 bytes.
    public var bytes: [UInt8] {
        var result = [UInt8(truncatingIfNeeded: code.rawValue >> 8), UInt8(truncatingIfNeeded: code.rawValue)]
        var reasonBytes = 0
        for character in reason {
            let utf8 = Array(character.utf8)
            if reasonBytes + utf8.count > 123 { break }
            result.append(contentsOf: utf8)
            reasonBytes += utf8.count
        }
        return result
    }
}
