// SPDX-License-Identifier: MIT
import CSodium

/// NaCl `crypto_secretbox` (XSalsa20-Poly1305), the cipher of Pusher encrypted channels (spec §4.3),
/// on libsodium. A box is the 16-byte Poly1305 tag followed by the ciphertext (NaCl's "easy" layout,
/// the one tweetnacl and PyNaCl use).
public enum PusherSecretBox {
    public static let keyLength = 32
    public static let nonceLength = 24
    public static let tagLength = 16

    /// libsodium's one-time setup (idempotent and thread-safe); its result is checked once.
    private static let ready: Bool = sodium_init() >= 0

    /// `message` sealed with `key` (32 bytes) and `nonce` (24 bytes); nil when a length is wrong.
    public static func seal(_ message: [UInt8], nonce: [UInt8], key: [UInt8]) -> [UInt8]? {
        guard ready, nonce.count == nonceLength, key.count == keyLength else { return nil }
        var box = [UInt8](repeating: 0, count: message.count + tagLength)
        // Arrays passed as pointers: valid even when empty (a zero-length message).
        let rc = crypto_secretbox_easy(&box, message, UInt64(message.count), nonce, key)
        return rc == 0 ? box : nil
    }

    /// The message inside `box`; nil when the tag does not verify (wrong key, changed bytes) or a
    /// length is wrong.
    public static func open(_ box: [UInt8], nonce: [UInt8], key: [UInt8]) -> [UInt8]? {
        guard ready, box.count >= tagLength, nonce.count == nonceLength, key.count == keyLength else { return nil }
        var message = [UInt8](repeating: 0, count: box.count - tagLength)
        let rc = crypto_secretbox_open_easy(&message, box, UInt64(box.count), nonce, key)
        return rc == 0 ? message : nil
    }

    /// 24 random bytes from libsodium's generator (a fresh nonce per message).
    public static func randomNonce() -> [UInt8] {
        precondition(ready, "libsodium could not be initialised")
        var nonce = [UInt8](repeating: 0, count: nonceLength)
        randombytes_buf(&nonce, nonceLength)
        return nonce
    }
}
