// SPDX-License-Identifier: MIT
import HarnessJSON
import PubNubToken
import Testing
@testable import HarnessRecording

/// Comparison without sockets: two answers and the rules in, the differences out.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ExchangeComparerTests {
    static let headers = [NameValue("Content-Type", "text/javascript; charset=\"UTF-8\""), NameValue("Access-Control-Allow-Origin", "*"),
                          NameValue("Date", "Sun, 29 Nov 2026 02:21:21 GMT")]

    static func compare(_ recorded: String, _ replayed: String, endpoint: String = "subscribe", rules extra: ComparisonRules? = nil,
                        replayedHeaders: [NameValue] = headers, known: [String: String] = [:]) throws -> ExchangeComparer.Result {
        let rules = try CompiledRules(DefaultRules.rules(for: endpoint).merged(with: extra))
        return ExchangeComparer.compare(
            recorded: RecordedResponse(status: 200, headers: headers, body: recorded),
            replayed: ReplayedAnswer(status: 200, headers: replayedHeaders, body: Array(replayed.utf8)), rules: rules, tokenShapes: [:],
            known: known)
    }

    @Test func serverChosenValuesAreComparedByFormatAndLearned() throws {
        let result = try Self.compare(#"{"t":{"t":"17000000000000001","r":12},"m":[{"a":"2","p":{"t":"17000000000000000","r":12},"d":"x"}]}"#,
                                      #"{"t":{"t":"17959000000000009","r":4},"m":[{"a":"1","p":{"t":"17959000000000005","r":4},"d":"x"}]}"#)
        #expect(result.differences == [])
        #expect(Set(result.learned.map { "\($0.recorded)>\($0.actual)" }) == ["17000000000000001>17959000000000009", "17000000000000000>17959000000000005"])
    }

    @Test func structureTypesValuesAndFormatsDifferByPath() throws {
        let result = try Self.compare(#"{"t":{"t":"17000000000000001","r":12},"m":[{"d":{"a":1,"b":"x"}},{"d":2}]}"#,
                                      #"{"t":{"t":"1700","r":12},"m":[{"d":{"a":"1","c":true}}],"x":null}"#)
        let byPath = Dictionary(result.differences.map { ($0.path, $0) }, uniquingKeysWith: { a, _ in a })
        #expect(byPath["$.t.t"]?.kind == .format)
        #expect(byPath["$.m"]?.kind == .length && byPath["$.m"]?.recorded == "2" && byPath["$.m"]?.actual == "1")
        #expect(byPath["$.m[0].d.a"]?.kind == .type)
        #expect(byPath["$.m[0].d.b"]?.kind == .missing)
        #expect(byPath["$.m[0].d.c"]?.kind == .extra)
        #expect(byPath["$.x"]?.kind == .extra)
        #expect(result.differences.count == 6)
    }

    @Test func headersStatusUnorderedArraysAndIgnoredPaths() throws {
        let headers = [NameValue("Content-Type", "application/json"), NameValue("Access-Control-Allow-Origin", "https://x"),
                       NameValue("Access-Control-Expose-Headers", "*")]
        let result = try Self.compare(#"{"uuids":["a","b"],"occupancy":2}"#, #"{"uuids":["b","a"],"occupancy":2}"#, endpoint: "here-now",
                                      replayedHeaders: headers)
        #expect(result.differences.map(\.path) == ["header Content-Type", "header Access-Control-Allow-Origin", "header Access-Control-Expose-Headers",
                                                   "header Date"])
        let ignored = try Self.compare(#"{"a":1,"b":2}"#, #"{"a":1,"b":3}"#, endpoint: "x", rules: ComparisonRules(ignore: ["$.b"]))
        #expect(ignored.differences == [])
        let unordered = try Self.compare(#"{"uuids":["a","b"]}"#, #"{"uuids":["a","c"]}"#, endpoint: "here-now")
        #expect(unordered.differences.map { "\($0.path) \($0.recorded ?? "") \($0.actual ?? "")" } == [#"$.uuids ["b"] ["c"]"#])
    }

    @Test func aLiteralAnEarlierAnswerMappedIsTheSameValue() throws {
        let id = "dd94e1a2-32d8-4c27-b477-1a77965ae868"
        let other = "7eecb6ad-527c-41e2-8d80-b2522449aa99"
        #expect(try Self.compare(#"{"file":"\#(id)"}"#, #"{"file":"\#(other)"}"#, endpoint: "x", known: [id: other]).differences == [])
        #expect(try Self.compare(#"{"file":"\#(id)"}"#, #"{"file":"\#(other)"}"#, endpoint: "x").differences.map(\.kind) == [.value])
    }

    @Test func tokensAreComparedByTheirKeys() throws {
        var grants = TokenGrants()
        grants[.channels] = [TokenGrantEntry(name: "room", mask: 3)]
        let token = AccessToken(timestamp: 1, ttl: 60, resources: grants, patterns: TokenGrants(), signature: [1, 2, 3]).text
        let shape = try #require(TokenShape.of(token))
        #expect(shape.contains("res.chan.room"))
        let rules = try CompiledRules(ComparisonRules())
        func compare(_ shape: [String]?) -> [Difference] {
            ExchangeComparer.compare(recorded: RecordedResponse(status: 200, headers: [], body: #"{"token":"{token-1}"}"#),
                                     replayed: ReplayedAnswer(status: 200, headers: [], body: Array(#"{"token":"\#(token)"}"#.utf8)),
                                     rules: rules, tokenShapes: ["{token-1}": shape]).differences
        }
        #expect(compare(shape) == [])
        #expect(compare(shape + ["uuid"]).first?.note?.contains("missing [\"uuid\"]") == true)
    }

    @Test func formatsOfServerChosenValues() {
        #expect(ValueFormat.of(.number("17000000000000001")) == .timetoken)
        #expect(ValueFormat.of(.string("17000000000000001")) == .timetoken)
        #expect(ValueFormat.of(.string("2026-11-29T02:20:22.123456Z")) == .isoTime)
        #expect(ValueFormat.of(.string("2026-11-29T02:20:22Z")) == .isoTime)
        #expect(ValueFormat.of(.string("dd94e1a2-32d8-4c27-b477-1a77965ae868")) == .uuid)
        #expect(ValueFormat.of(.string("0123456789abcdef0123456789abcdef")) == .hex32)
        #expect(ValueFormat.of(.string("https://x/y")) == .url)
        #expect(ValueFormat.of(.number("12")) == .integer)
        #expect(HTTPDateFormat.isValid("Sun, 29 Nov 2026 02:21:21 GMT"))
        #expect(!HTTPDateFormat.isValid("2026-11-29"))
    }

    @Test func learnedValuesMapOnceAndKeepTheirOrder() {
        let mapper = ValueMapper()
        let first = mapper.learn([LearnedValue(recorded: "17000000000000000", actual: "17959000000000000", path: "$[2]")], startedMs: 0, endedMs: 1)
        #expect(first == [])
        let again = mapper.learn([LearnedValue(recorded: "17000000000000000", actual: "17959000000000001", path: "$.m[0].p.t")],
                                 startedMs: 5, endedMs: 6)
        #expect(again.map(\.kind) == [.mapping])
        let backwards = mapper.learn([LearnedValue(recorded: "17000000050000000", actual: "17958000000000000", path: "$[2]")],
                                     startedMs: 10, endedMs: 11)
        #expect(backwards.map(\.kind) == [.order])
        let substitutions = mapper.substitutions()
        #expect(substitutions.value("17000000000000000") == "17959000000000000")
        #expect(substitutions.value("16999999999999999") == "17958999999999999", "tt - 1 follows the mapping")
        #expect(substitutions.inside("/x/17000000000000000/y") == "/x/17959000000000000/y")
    }
}
