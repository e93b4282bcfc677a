// SPDX-License-Identifier: MIT
import Foundation
import PubNubCrypto
import Testing

@Suite("Base64")
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
        var generator = SeededGenerator(seed: 0xB64)
        for length in 0..<200 {
            let bytes = generator.bytes(length)
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
        #expect(thrownKind { () throws(CryptoError) in try ByteEncoding.bytes(fromBase64: text) } == .invalidBase64)
    }

    @Test func invalidCharacterInTheFirstQuadsIsDetected() {
        for position in 0..<16 {
            var characters = Array("QUJDREVGR0hJSktMTU5PUA==")
            characters[position] = "*"
            #expect(thrownKind { () throws(CryptoError) in try ByteEncoding.bytes(fromBase64: String(characters)) } == .invalidBase64)
        }
    }
}

@Suite("JSON text rule")
struct JSONTextTests {
    @Test(arguments: [
        "{}", "[]", "\"a\"", "0", "-0.5e+10", "1E3", "true", "false", "null", " {\"a\":[1,{\"b\":null}]}\n",
        "\"\\u00e9\\n\\/\"", "\"漢語 🙃\"", "[1,2.5,-3e2]", "{\"k\":\"v\",\"n\":{\"m\":[]}}",
    ])
    func validJSONTexts(_ text: String) {
        #expect(JSONText.isValid(text))
        #expect(MessageText.jsonText(for: text) == text)
    }

    @Test(arguments: [
        "", " ", "hello", "{", "{\"a\"}", "[1,]", "01", "1.", ".5", "-", "\"\\x\"", "\"tab\there\"", "{} {}", "NaN",
        "'a'", "[1 2]", "{\"a\":1,}", "tru", "\"unterminated", "+1", "\"\\u12g4\"",
    ])
    func invalidJSONTexts(_ text: String) {
        #expect(!JSONText.isValid(text))
    }

    @Test func deepNestingIsInvalidInsteadOfOverflowing() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(!JSONText.isValid(deep))
        let allowed = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(JSONText.isValid(allowed))
    }

    @Test func stringLiteralEscapesOnlyWhatJSONRequires() {
        #expect(JSONText.stringLiteral("hello") == "\"hello\"")
        #expect(JSONText.stringLiteral("a\"b\\c") == "\"a\\\"b\\\\c\"")
        #expect(JSONText.stringLiteral("\n\r\t\u{8}\u{C}\u{1}\u{1F}") == "\"\\n\\r\\t\\b\\f\\u0001\\u001f\"")
        #expect(JSONText.stringLiteral("/é 🙃") == "\"/é 🙃\"")
    }

    @Test func messageTextWrapsNonJSON() {
        #expect(MessageText.jsonText(for: "hello") == "\"hello\"")
        #expect(MessageText.jsonText(for: "yay!") == "\"yay!\"")
        #expect(MessageText.jsonText(for: "") == "\"\"")
        #expect(MessageText.jsonText(for: "42") == "42")
        #expect(MessageText.jsonText(for: "\"x\"") == "\"x\"")
    }
}
