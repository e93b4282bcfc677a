// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessRecording

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct JSONPathPatternTests {
    private func path(_ components: JSONPath.Component...) -> JSONPath { JSONPath(components) }

    @Test func membersIndexesAndWildcardsMatch() throws {
        #expect(try JSONPathPattern("$.t.t").matches(path(.key("t"), .key("t"))))
        #expect(try JSONPathPattern("$.m[*].p.t").matches(path(.key("m"), .index(3), .key("p"), .key("t"))))
        #expect(try !JSONPathPattern("$.m[*].p.t").matches(path(.key("m"), .index(3), .key("p"))))
        #expect(try JSONPathPattern("$[2]").matches(path(.index(2))))
        #expect(try !JSONPathPattern("$[2]").matches(path(.index(1))))
        #expect(try JSONPathPattern("$.payload.channels.*.uuids").matches(path(.key("payload"), .key("channels"), .key("a b"), .key("uuids"))))
        #expect(try JSONPathPattern(#"$["a b"].c"#).matches(path(.key("a b"), .key("c"))))
    }

    @Test func descendantsMatchAtAnyDepth() throws {
        let pattern = try JSONPathPattern("$..timetoken")
        #expect(pattern.matches(path(.key("timetoken"))))
        #expect(pattern.matches(path(.key("channels"), .key("ch"), .index(0), .key("timetoken"))))
        #expect(!pattern.matches(path(.key("channels"), .key("timetoken"), .key("x"))))
    }

    @Test func badPatternsAreRefusedWithAReason() {
        #expect(throws: RecordingError.self) { try JSONPathPattern("data.id") }
        #expect(throws: RecordingError.self) { try JSONPathPattern("$.a[") }
        #expect(throws: RecordingError.self) { try JSONPathPattern("$.a[x]") }
        #expect(throws: RecordingError.self) { try JSONPathPattern("$..") }
    }

    @Test func pathsPrintAsPatterns() {
        #expect(path(.key("data"), .index(0), .key("name")).description == "$.data[0].name")
        #expect(path(.key("a b"), .key("0x")).description == #"$["a b"]["0x"]"#)
    }
}
