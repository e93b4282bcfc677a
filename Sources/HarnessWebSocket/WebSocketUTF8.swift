// SPDX-License-Identifier: MIT

/// Strict UTF-8 decoding for text messages and close reasons (RFC 6455 §8.1).
public enum WebSocketUTF8 {
    /// The string, or nil if `bytes` is not well-formed UTF-8 (overlongs, surrogates and values
    /// above U+10FFFF are rejected by the standard library's validating decoder).
    public static func decode<Bytes: Collection>(_ bytes: Bytes) -> String? where Bytes.Element == UInt8 {
        String(validating: bytes, as: UTF8.self)
    }
}
