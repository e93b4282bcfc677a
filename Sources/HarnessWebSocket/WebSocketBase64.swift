// SPDX-License-Identifier: MIT

/// Standard base64 (RFC 4648 §4, padded) for handshake keys and accept values.
enum WebSocketBase64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let b0 = bytes[index]
            let b1 = index + 1 < bytes.count ? bytes[index + 1] : 0
            let b2 = index + 2 < bytes.count ? bytes[index + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            out.append(index + 1 < bytes.count ? alphabet[Int((b1 & 0x0F) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            out.append(index + 2 < bytes.count ? alphabet[Int(b2 & 0x3F)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The decoded bytes, or nil unless `text` is canonical padded base64.
    static func decode(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        guard chars.count % 4 == 0 else { return nil }
        var out: [UInt8] = []
        var index = 0
        while index < chars.count {
            var values: [UInt8] = []
            var padding = 0
            for offset in 0..<4 {
                let char = chars[index + offset]
                if char == UInt8(ascii: "=") {
                    guard index + 4 == chars.count, offset >= 2 else { return nil }
                    padding += 1
                    values.append(0)
                } else {
                    guard padding == 0, let value = alphabet.firstIndex(of: char) else { return nil }
                    values.append(UInt8(value))
                }
            }
            out.append(values[0] << 2 | values[1] >> 4)
            if padding < 2 { out.append(values[1] << 4 | values[2] >> 2) }
            if padding < 1 { out.append(values[2] << 6 | values[3]) }
            index += 4
        }
        guard encode(out) == text else { return nil }
        return out
    }
}
