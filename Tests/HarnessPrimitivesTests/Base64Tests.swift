// SPDX-License-Identifier: MIT
import Foundation
import HarnessPrimitives
import Testing

@Suite("Base64", .timeLimit(.minutes(5)))
struct Base64Tests {
    /// RFC 4648 §10 test vectors.
    @Test(arguments: [
        ("", ""), ("f", "Zg=="), ("fo", "Zm8="), ("foo", "Zm9v"), ("foob", "Zm9vYg=="), ("fooba", "Zm9vYmE="),
        ("foobar", "Zm9vYmFy"),
    ])
    func rfc4648Vectors(_ plain: String, _ encoded: String) throws {
        #expect(ByteEncoding.base64(Array(plain.utf8)) == encoded)
        #expect(try ByteEncoding.bytes(fromBase64: encoded) == Array(plain.utf8))
    }

    @Test func matchesFoundationOnSeededRandomData() throws {
        var generator = SplitMix64(seed: 0xB64)
        for length in 0..<200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let expected = Data(bytes).base64EncodedString()
            #expect(ByteEncoding.base64(bytes) == expected)
            #expect(try ByteEncoding.bytes(fromBase64: expected) == bytes)
        }
    }

    @Test func unpaddedInputIsAccepted() throws {
        #expect(try ByteEncoding.bytes(fromBase64: "Zm9vYg") == Array("foob".utf8))
        #expect(try ByteEncoding.bytes(fromBase64: "Zm9vYmE") == Array("fooba".utf8))
    }

    @Test(arguments: ["Zg=", "Z", "Zm9v\n", "Zm 9v", "Zm9v-_==", "====", "Zg===", "=Zm9", "Zm=v", "Zm9vYmFy\u{0}"])
    func invalidInputIsATypedError(_ text: String) {
        #expect(throws: Base64Error.self) { try ByteEncoding.bytes(fromBase64: text) }
    }

    @Test func invalidCharacterInTheFirstQuadsIsDetected() {
        for position in 0..<16 {
            var characters = Array("QUJDREVGR0hJSktMTU5PUA==")
            characters[position] = "*"
            #expect(throws: Base64Error.self) { try ByteEncoding.bytes(fromBase64: String(characters)) }
        }
    }
}
