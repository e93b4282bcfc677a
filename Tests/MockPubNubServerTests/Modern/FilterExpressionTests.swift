// SPDX-License-Identifier: MIT
import HarnessJSON
import Testing
@testable import MockPubNubServer

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct FilterExpressionTests {
    private func admits(_ expression: String, meta: String? = nil, data: String = "{}", uuid: String? = "pub",
                        sourceLocation: SourceLocation = #_sourceLocation) -> Bool? {
        do {
            let parsed = try FilterParser.parse(expression)
            return parsed.admits(FilterSubject(
                meta: meta.flatMap { try? JSONValue.parse($0) }, data: try? JSONValue.parse(data), publisher: uuid))
        } catch {
            Issue.record("\(expression): \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    @Test func comparisonsOnMetaDataAndUUID() {
        let meta = "{\"region\":\"us-west\",\"level\":5,\"price\":\"12.5\",\"tags\":[\"a\",\"b\"],\"user\":{\"role\":\"admin\"}}"
        #expect(admits("meta.region == 'us-west'", meta: meta) == true)
        #expect(admits("region == \"us-west\"", meta: meta) == true)
        #expect(admits("meta.region != 'us-west'", meta: meta) == false)
        #expect(admits("meta.level > 4", meta: meta) == true)
        #expect(admits("meta.level >= 5 && meta.level <= 5", meta: meta) == true)
        #expect(admits("meta.level < 5", meta: meta) == false)
        #expect(admits("meta.price > 12", meta: meta) == true)
        #expect(admits("meta.level == '5'", meta: meta) == true)
        #expect(admits("meta.region > 3", meta: meta) == false)
        #expect(admits("meta.user[\"role\"] == 'admin'", meta: meta) == true)
        #expect(admits("meta.user.role == 'admin'", meta: meta) == true)
        #expect(admits("meta.tags[1] == 'b'", meta: meta) == true)
        #expect(admits("meta.tags CONTAINS 'a'", meta: meta) == true)
        #expect(admits("meta.region contains 'west'", meta: meta) == true)
        #expect(admits("meta.region LIKE 'us-*'", meta: meta) == true)
        #expect(admits("meta.region LIKE '*-west'", meta: meta) == true)
        #expect(admits("meta.region LIKE '*s-w*'", meta: meta) == true)
        #expect(admits("meta.region LIKE 'US-*'", meta: meta) == false)
        #expect(admits("meta.region LIKE 'us'", meta: meta) == false)
        #expect(admits("uuid == 'pub'", meta: meta) == true)
        #expect(admits("uuid != 'pub'", meta: meta) == false)
        #expect(admits("data.score >= 10", meta: meta, data: "{\"score\":10}") == true)
        #expect(admits("meta.level % 2 == 1", meta: meta) == true)
    }

    @Test func logicAndPrecedence() {
        let meta = "{\"a\":1,\"b\":2}"
        #expect(admits("meta.a == 1 || meta.b == 3 && meta.a == 2", meta: meta) == true)
        #expect(admits("(meta.a == 1 || meta.b == 3) && meta.a == 2", meta: meta) == false)
        #expect(admits("!(meta.a == 2)", meta: meta) == true)
        #expect(admits("!meta.a == 1", meta: meta) == false)
        #expect(admits("!!(meta.b == 2)", meta: meta) == true)
    }

    @Test func missingFieldsAndMissingMeta() {
        #expect(admits("meta.x == 'y'", meta: nil) == false)
        #expect(admits("meta.x != 'y'", meta: nil) == true)
        #expect(admits("meta.x > 1", meta: "{}") == false)
        #expect(admits("uuid == 'pub'", meta: nil, uuid: nil) == false)
    }

    @Test func parseErrorsNameTheProblemAndOffset() {
        func error(_ text: String) -> FilterParseError? {
            do { _ = try FilterParser.parse(text); return nil } catch { return error }
        }
        #expect(error("meta.a ==") == FilterParseError(message: "unexpected end of expression", offset: 9))
        #expect(error("meta.a = 1")?.message == "expected '=='")
        #expect(error("meta.a == 'x")?.message == "unterminated string literal")
        #expect(error("(meta.a == 1")?.message == "expected ')'")
        #expect(error("meta.a")?.message == "expected a comparison operator")
        #expect(error("meta == 1")?.message == "expected a field of meta")
        #expect(error("uuid.x == 1")?.message == "uuid has no fields")
        #expect(error("meta.a == 1 meta.b == 2")?.message == "unexpected name 'meta'")
        #expect(error("meta.a & 1")?.message == "expected '&&'")
        #expect(error("meta.a == #")?.message == "unexpected character '#'")
        #expect(error("") == FilterParseError(message: "unexpected end of expression", offset: 0))
        #expect(error(String(repeating: "(", count: 40) + "meta.a == 1" + String(repeating: ")", count: 40))?.message
            == "expression nested too deeply")
        #expect(error(String(repeating: "!", count: 100) + "meta.a == 1")?.message == "expression nested too deeply")
        #expect(error(String(repeating: " ", count: FilterParser.maxLength + 1))?.message.hasPrefix("expression longer") == true)
    }

    @Test func globMatching() {
        func glob(_ text: String, _ pattern: String) -> Bool { FilterGlob.matches(Array(text.utf8), pattern: Array(pattern.utf8)) }
        #expect(glob("abc", "abc"))
        #expect(glob("abc", "*"))
        #expect(glob("", "*"))
        #expect(glob("abc", "a*c"))
        #expect(glob("abcbc", "*bc"))
        #expect(!glob("abc", "ab"))
        #expect(!glob("abc", "*d*"))
    }
}
