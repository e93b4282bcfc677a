// SPDX-License-Identifier: MIT
import HarnessJSON
import HarnessPrimitives

/// The `data` of an event on a `private-encrypted-` channel: the JSON text
/// `{"nonce":"<base64 of 24 bytes>","ciphertext":"<base64 of the secretbox>"}` an app server's HTTP
/// library makes of the event's data (spec §4.3). The server relays it; only clients decrypt.
public enum PusherEncryptedPayload {
    /// Why a payload could not be decrypted.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// Not an object with `nonce` and `ciphertext` strings in base64 of the right lengths.
        case malformed(String)
        /// The tag does not verify with this key (another key, or changed bytes).
        case wrongKeyOrTampered

        public var description: String {
            switch self {
            case .malformed(let why): "not an encrypted payload: \(why)"
            case .wrongKeyOrTampered: "the secretbox does not open with this channel's shared secret"
            }
        }
    }

    /// `data` (UTF-8) sealed with the channel's shared secret; `nonce` is fresh unless given (tests).
    /// Compact JSON, as pusher-http-node's `JSON.stringify` writes it. Nil when the secret is not 32 bytes.
    public static func encrypt(_ data: String, sharedSecret: [UInt8], nonce: [UInt8]? = nil) -> String? {
        let nonce = nonce ?? PusherSecretBox.randomNonce()
        guard let box = PusherSecretBox.seal(Array(data.utf8), nonce: nonce, key: sharedSecret) else { return nil }
        return JSONValue.object([("nonce", .string(ByteEncoding.base64(nonce))), ("ciphertext", .string(ByteEncoding.base64(box)))]).jsonText
    }

    /// The plaintext bytes of `data`: a JSON object (or a string holding one) with `nonce` and `ciphertext`.
    public static func decrypt(_ data: JSONValue, sharedSecret: [UInt8]) -> Result<[UInt8], Failure> {
        var value = data
        if case .string(let text) = data {
            guard let parsed = try? JSONValue.parse(Array(text.utf8)) else { return .failure(.malformed("data is not JSON")) }
            value = parsed
        }
        guard let nonceText = value["nonce"]?.stringValue, let cipherText = value["ciphertext"]?.stringValue else {
            return .failure(.malformed("no \"nonce\" and \"ciphertext\" strings"))
        }
        guard let nonce = try? ByteEncoding.bytes(fromBase64: nonceText), nonce.count == PusherSecretBox.nonceLength else {
            return .failure(.malformed("the nonce is not base64 of \(PusherSecretBox.nonceLength) bytes"))
        }
        guard let box = try? ByteEncoding.bytes(fromBase64: cipherText), box.count >= PusherSecretBox.tagLength else {
            return .failure(.malformed("the ciphertext is not base64 of at least \(PusherSecretBox.tagLength) bytes"))
        }
        guard let plain = PusherSecretBox.open(box, nonce: nonce, key: sharedSecret) else { return .failure(.wrongKeyOrTampered) }
        return .success(plain)
    }
}
