// SPDX-License-Identifier: MIT
import HarnessJSON
import PubNubCrypto
import Testing

@Suite("JSON text rule", .timeLimit(.minutes(TestTime.limitMinutes(5))))
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

    @Test(arguments: [
        "\"\"", "\"hello\"", "\"a\"b\"", "\"a\\\"\"", "\"\u{7F}\"", "\"é 🙃\"", "\"", "\"a\" ", " \"a\"",
        "\"tab\there\"", "\"a\\nb\"", "\"\"\"",
    ])
    func aStringLiteralIsJudgedAsTheScannerJudgesIt(_ text: String) {
        var scanner = JSONScanner(Array(text.utf8))
        #expect(JSONText.isValid(text) == ((try? scanner.scanDocument()) != nil))
    }

    @Test(arguments: ["", "hello", "a\"b\\c", "\n\r\t\u{8}\u{C}\u{1}\u{1F}", "/é 🙃", "x\u{0}y", "\"\""])
    func aStringLiteralWrittenInPlaceIsTheAppendedOne(_ text: String) {
        var appended: [UInt8] = []
        JSONText.appendStringLiteral(text, to: &appended)
        #expect(JSONText.stringLiteralCount(text) == appended.count)
        let written = [UInt8](unsafeUninitializedCapacity: appended.count) { buffer, count in
            count = JSONText.writeStringLiteral(text, to: buffer.baseAddress!)
        }
        #expect(written == appended)
    }

    @Test func messageTextWrapsNonJSON() {
        #expect(MessageText.jsonText(for: "hello") == "\"hello\"")
        #expect(MessageText.jsonText(for: "yay!") == "\"yay!\"")
        #expect(MessageText.jsonText(for: "") == "\"\"")
        #expect(MessageText.jsonText(for: "42") == "42")
        #expect(MessageText.jsonText(for: "\"x\"") == "\"x\"")
    }
}
