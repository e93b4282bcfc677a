// SPDX-License-Identifier: MIT
import COpenSSL
internal import PubNubCrypto

/// The `Sec-WebSocket-Accept` computation (RFC 6455 §4.2.2): base64(SHA-1(key + GUID)).
public enum WebSocketAccept {
    public static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"

    /// The accept value for a `Sec-WebSocket-Key` exactly as sent (no trimming beyond the caller's).
    public static func value(forKey key: String) -> String {
        let input = Array((key + guid).utf8)
        var digest = [UInt8](repeating: 0, count: Int(SHA_DIGEST_LENGTH))
        input.withUnsafeBufferPointer { source in
            digest.withUnsafeMutableBufferPointer { target in
                _ = SHA1(source.baseAddress, source.count, target.baseAddress)
            }
        }
        return ByteEncoding.base64(digest)
    }
}
