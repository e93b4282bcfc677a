// SPDX-License-Identifier: MIT
import HarnessJSON
import HarnessPrimitives
import PusherCrypto
import Testing

/// The vectors were made with pusher-http-python 3.3.3's `pusher.crypto.encrypt` (PyNaCl), channel
/// `private-encrypted-foo`, master key 32×0x01, nonce bytes 0…23, independently of this code.
@Suite("Pusher encrypted payloads", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherEncryptedPayloadTests {
    /// base64(SHA256("private-encrypted-foo" ‖ 32×0x01)), spec §4.3.
    let secret = try! ByteEncoding.bytes(fromBase64: "8ziYucAATGLnsfmVQnRpKw1VkUgQbrB5CfEQheHpD0w=")
    let nonce = [UInt8](0..<24)
    let helloCiphertext = "z/iQx0jDwUAc68iPxMZA32BZSsnhekLXHuzW5uaiQ3IIFpc4vwopu6I="

    @Test func encryptionMatchesThePythonLibrary() throws {
        let payload = try #require(PusherEncryptedPayload.encrypt(#"{"message":"hello world"}"#, sharedSecret: secret, nonce: nonce))
        #expect(payload == #"{"nonce":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYX","ciphertext":"\#(helloCiphertext)"}"#)
        let empty = try #require(PusherEncryptedPayload.encrypt("", sharedSecret: secret, nonce: nonce))
        #expect(empty == #"{"nonce":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYX","ciphertext":"Bk1HOuDMAx6aa2p0Cp8KCw=="}"#)
    }

    @Test func decryptsThePythonLibrarysPayloadGivenAsStringOrObject() throws {
        let text = #"{"nonce": "AAECAwQFBgcICQoLDA0ODxAREhMUFRYX", "ciphertext": "\#(helloCiphertext)"}"#
        let fromString = try PusherEncryptedPayload.decrypt(.string(text), sharedSecret: secret).get()
        expectSameText(String(decoding: fromString, as: UTF8.self), #"{"message":"hello world"}"#)
        let fromObject = try PusherEncryptedPayload.decrypt(try JSONValue.parse(text), sharedSecret: secret).get()
        expectSameElements(fromObject, fromString)
    }

    @Test func aFreshNonceEachTimeAndARoundTrip() throws {
        let first = try #require(PusherEncryptedPayload.encrypt("same", sharedSecret: secret))
        let second = try #require(PusherEncryptedPayload.encrypt("same", sharedSecret: secret))
        #expect(first != second)
        let plain = try PusherEncryptedPayload.decrypt(.string(first), sharedSecret: secret).get()
        #expect(String(decoding: plain, as: UTF8.self) == "same")
    }

    @Test func anotherKeyOrAChangedByteDoesNotOpen() throws {
        var other = secret
        other[0] ^= 0xFF
        let text = #"{"nonce":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYX","ciphertext":"\#(helloCiphertext)"}"#
        #expect(PusherEncryptedPayload.decrypt(.string(text), sharedSecret: other) == .failure(.wrongKeyOrTampered))
        var box = try ByteEncoding.bytes(fromBase64: helloCiphertext)
        box[box.count - 1] ^= 0x01
        let tampered = #"{"nonce":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYX","ciphertext":"\#(ByteEncoding.base64(box))"}"#
        #expect(PusherEncryptedPayload.decrypt(.string(tampered), sharedSecret: secret) == .failure(.wrongKeyOrTampered))
    }

    @Test(arguments: [#"not json"#, #"{"nonce":"AAEC"}"#, #"{"nonce":"AAEC","ciphertext":"AAAAAAAAAAAAAAAAAAAAAA=="}"#,
                      #"{"nonce":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYX","ciphertext":"AAAA"}"#])
    func malformedPayloadsAreNamedAsSuch(_ text: String) {
        guard case .failure(.malformed) = PusherEncryptedPayload.decrypt(.string(text), sharedSecret: secret) else {
            Issue.record("\(text) was not refused as malformed")
            return
        }
    }

    @Test func wrongKeyOrNonceLengthsAreRefused() {
        #expect(PusherSecretBox.seal([1], nonce: [0], key: secret) == nil)
        #expect(PusherSecretBox.seal([1], nonce: nonce, key: [1, 2]) == nil)
        #expect(PusherSecretBox.open([UInt8](repeating: 0, count: 15), nonce: nonce, key: secret) == nil)
    }
}
