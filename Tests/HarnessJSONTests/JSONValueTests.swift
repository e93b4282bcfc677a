// SPDX-License-Identifier: MIT
import HarnessJSON
import Testing

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct JSONValueTests {
    @Test func parsesExactTimetokens() throws {
        let value = try JSONValue.parse(#"[17000000000000001,"x",{"t":{"t":"17113796871100314","r":42}}]"#)
        #expect(value[0]?.timetokenValue == 17_000_000_000_000_001)
        #expect(value[0]?.jsonText == "17000000000000001")
        #expect(value[2]?["t"]?["t"]?.timetokenValue == 17_113_796_871_100_314)
        #expect(value[2]?["t"]?["r"]?.intValue == 42)
        #expect(value[0] != .int(17_000_000_000_000_000))
    }

    @Test func writesCompactTextInDocumentOrder() throws {
        let value: JSONValue = ["b": [1, "x\"y", nil, true], "a": 2.5]
        #expect(value.jsonText == #"{"b":[1,"x\"y",null,true],"a":2.5}"#)
        let text = #"{"a":"x\"\\\n\u0001é😀","b":[1,-2.5e3,true,false,null],"c":{}}"#
        let parsed = try JSONValue.parse(text)
        #expect(parsed["a"] == .string("x\"\\\n\u{01}é😀"))
        #expect(parsed.jsonText == #"{"a":"x\"\\\n\u0001é😀","b":[1,-2.5e3,true,false,null],"c":{}}"#)
    }

    @Test func equalityIsJSONs() throws {
        #expect(try JSONValue.parse(#"{"a":1,"b":[2.0]}"#) == JSONValue.parse(#"{"b":[2],"a":1.0}"#))
        #expect(try JSONValue.parse(#"{"a":1}"#) != JSONValue.parse(#"{"a":"1"}"#))
        #expect(Set<JSONValue>([1, 1.0, "1"]).count == 2)
    }

    @Test func rejectsInvalidTextWithByteOffsets() {
        #expect(throws: JSONSyntaxError(offset: 0, expected: "a value")) { try JSONValue.parse("<html>") }
        #expect(throws: JSONSyntaxError(offset: 3, expected: "a value")) { try JSONValue.parse("[1,]") }
        #expect(throws: JSONSyntaxError(offset: 8, expected: "end of input")) { try JSONValue.parse("{\"a\":1} x") }
        #expect(throws: JSONSyntaxError(offset: 1, expected: "a value")) { try JSONValue.parse("[") }
        #expect(throws: JSONSyntaxError(offset: 8, expected: "a low surrogate escape")) {
            try JSONValue.parse(#""a\ud83dx""#)
        }
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: JSONSyntaxError.self) { try JSONValue.parse(deep, maxDepth: 64) }
        #expect((try? JSONValue.parse(deep)) != nil)
    }

    @Test func decodesEscapes() throws {
        #expect(try JSONValue.parse(#""a\u00e9\ud83d\ude00\n\/""#) == .string("aé😀\n/"))
    }

    @Test func splitsObjectsIntoRawMemberSpans() throws {
        var scanner = JSONScanner(Array(#" {"k" : [1, 2] ,"n":{"m":1.50}} "#.utf8))
        let spans = try scanner.objectMemberSpans()
        #expect(spans.map(\.key) == ["k", "n"])
        #expect(spans.map { String(decoding: scanner.bytes[$0.value], as: UTF8.self) } == ["[1, 2]", #"{"m":1.50}"#])
        var array = JSONScanner(Array("[1]".utf8))
        #expect(throws: JSONSyntaxError(offset: 0, expected: "an object")) { try array.objectMemberSpans() }
    }

    @Test func codableKeepsIntegersExact() throws {
        struct Box: Codable { var value: JSONValue }
        var encoder = [UInt8]()
        JSONText.append(.int(UInt64.max), to: &encoder)
        #expect(String(decoding: encoder, as: UTF8.self) == "18446744073709551615")
        #expect(JSONValue.double(.nan) == .null)
        #expect(JSONValue.double(3) == .number("3"))
    }
}
