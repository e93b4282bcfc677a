// SPDX-License-Identifier: MIT
import Testing
@testable import ClientUnderTest

@Suite struct JSONValueTests {
    @Test func parsesExactTimetokens() throws {
        let value = try JSONValue.parse(#"[17000000000000001,"x",{"t":{"t":"17113796871100314","r":42}}]"#)
        #expect(value[0]?.timetokenValue == 17_000_000_000_000_001)
        #expect(value[2]?["t"]?["t"]?.timetokenValue == 17_113_796_871_100_314)
        #expect(value[2]?["t"]?["r"]?.intValue == 42)
    }

    @Test func writesCompactSortedText() {
        let value: JSONValue = ["b": [1, "x\"y", nil, true], "a": 2.5]
        #expect(value.jsonText == #"{"a":2.5,"b":[1,"x\"y",null,true]}"#)
    }

    @Test func rejectsInvalidText() {
        #expect(throws: JSONParseError.self) { try JSONValue.parse("<html>") }
        #expect(throws: JSONParseError.self) { try JSONValue.parse("[1,]") }
        #expect(throws: JSONParseError.self) { try JSONValue.parse("{\"a\":1} x") }
    }

    @Test func decodesEscapes() throws {
        #expect(try JSONValue.parse(#""a\u00e9\ud83d\ude00\n""#) == .string("aé😀\n"))
    }
}
