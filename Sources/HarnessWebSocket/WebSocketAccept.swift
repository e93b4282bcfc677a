// SPDX-License-Identifier: MIT
internal import HarnessPrimitives

/// The `Sec-WebSocket-Accept` computation (RFC 6455 §4.2.2): base64(SHA-1(key + GUID)).
public enum WebSocketAccept {
    public static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The accept value for a `Sec-WebSocket-Key` exactly as sent (no trimming beyond the caller's).
    public static func value(forKey key: String) -> String {
        ByteEncoding.base64(Digest.sha1(Array((key + guid).utf8)))
    }
}
