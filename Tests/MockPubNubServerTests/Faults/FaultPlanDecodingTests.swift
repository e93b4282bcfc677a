// SPDX-License-Identifier: MIT
import HarnessJSON
import Foundation
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct FaultPlanDecodingTests {
    private func decode(_ text: String) throws(FaultPlanError) -> FaultPlan {
        try FaultPlan.decode(json: Array(text.utf8))
    }

    /// The message of the error decoding `text` gives (`nil` when it decodes).
    private func failure(_ text: String) -> String? {
        do {
            _ = try decode(text)
            return nil
        } catch {
            return error.description
        }
    }

    private func rule(_ faultJSON: String, extra: String = "") -> String {
        "{\"rules\":[{\"id\":\"ok\",\"fault\":{\"kind\":\"hang\"}},{\(extra)\"fault\":\(faultJSON)}]}"
    }

    @Test func schemaExampleDecodes() throws {
        let plan = try decode("""
            {
              "version": 1,
              "seed": 18446744073709551615,
              "rules": [
                {
                  "id": "subscribe-times-out-twice",
                  "match": { "endpoint": "subscribe", "query": { "tt": "!0" } },
                  "times": 2,
                  "fault": { "kind": "hang" }
                },
                { "match": { "endpoint": ["publish", "signal"], "method": "GET", "channel": "c",
                             "channelGroup": "g", "uuid": "u" },
                  "nth": 3, "after": 0, "probability": 0.25,
                  "fault": { "kind": "delay", "ms": 1500, "then": { "kind": "status", "status": 429,
                             "headers": { "X-A": "1" }, "retryAfter": 3 } } }
              ]
            }
            """)
        #expect(plan.seed == UInt64.max)
        #expect(plan.rules.count == 2)
        #expect(plan.rules[0] == FaultRule(
            id: "subscribe-times-out-twice",
            match: RequestMatch(endpoints: [.subscribe], query: [QueryCondition(name: "tt", expectation: .notEqual("0"))]),
            times: 2, fault: .hang))
        #expect(plan.rules[1] == FaultRule(
            id: "rule-1",
            match: RequestMatch(endpoints: [.publish, .signal], method: "GET", channel: "c", channelGroup: "g", uuid: "u"),
            nth: 3, after: 0, probability: 0.25,
            fault: .delay(ms: 1500, then: .status(StatusFault(
                status: 429, headers: [HeaderField(name: "X-A", value: "1")], retryAfter: 3)))))
    }

    @Test func everyKindDecodesWithDefaultsAndRoundTrips() throws {
        let faults: [(String, Fault)] = [
            (#"{"kind":"status","status":503}"#, .status(StatusFault(status: 503))),
            (#"{"kind":"malformed-json"}"#, .malformedJSON),
            (#"{"kind":"truncated-json"}"#, .truncatedJSON(bytes: nil)),
            (#"{"kind":"wrong-shape"}"#, .wrongShape(body: nil)),
            (#"{"kind":"html"}"#, .html(body: nil)),
            (#"{"kind":"empty-body"}"#, .emptyBody(status: 200)),
            (#"{"kind":"wrong-content-type"}"#, .wrongContentType(contentType: "text/plain; charset=UTF-8")),
            (#"{"kind":"invalid-chunked"}"#, .invalidChunked),
            (#"{"kind":"delay","ms":10}"#, .delay(ms: 10, then: nil)),
            (#"{"kind":"hang"}"#, .hang),
            (#"{"kind":"close"}"#, .close),
            (#"{"kind":"reset"}"#, .reset),
            (#"{"kind":"reset-after-headers"}"#, .resetAfterHeaders),
            (#"{"kind":"reset-after-body-bytes","bytes":4}"#, .resetAfterBodyBytes(bytes: 4)),
            (#"{"kind":"truncated-body"}"#, .truncatedBody(bytes: nil, contentLength: .full)),
            (#"{"kind":"drip"}"#, .drip(chunkSize: 1, intervalMs: 100)),
            (#"{"kind":"close-long-poll","afterMs":500}"#, .closeLongPoll(afterMs: 500, mode: .fin)),
            (#"{"kind":"messages","count":100}"#, .messages(count: 100, channel: nil)),
            (#"{"kind":"foreign-encrypted","cipherKey":"k"}"#, .foreignEncrypted(cipherKey: "k", scheme: nil, message: nil)),
            (#"{"kind":"cursor-backwards"}"#, .cursorBackwards(by: 600_000_000)),
            (#"{"kind":"region-change","region":7}"#, .regionChange(region: 7)),
            (#"{"kind":"no-cors"}"#, .noCORS),
            (#"{"kind":"preflight-failure"}"#, .preflightFailure(PreflightFault(status: 403))),
            (#"{"kind":"preflight-failure","omit":"headers"}"#, .preflightFailure(PreflightFault(status: 204, omit: .headers))),
            (#"{"kind":"truncated-gzip"}"#, .truncatedGzip(bytes: nil)),
            (#"{"kind":"corrupt-gzip"}"#, .corruptGzip),
        ]
        #expect(Set(faults.map(\.1.kind)) == Set(FaultKind.allCases))
        for (json, expected) in faults {
            let plan = try decode("{\"rules\":[{\"fault\":\(json)}]}")
            #expect(plan.rules[0].fault == expected, "\(json)")
            #expect(try FaultPlan(json: plan.json) == plan, "\(json)")
        }
    }

    @Test func errorsNameTheField() {
        #expect(failure(rule(#"{"kind":"status","status":99}"#)) == "rules[1].fault.status: expected an integer 100...599")
        #expect(failure(rule(#"{"kind":"status","status":"500"}"#)) == "rules[1].fault.status: expected an integer 100...599")
        #expect(failure(rule(#"{"kind":"status"}"#)) == "rules[1].fault.status: missing required field")
        #expect(failure(rule(#"{"kind":"x"}"#)) == "rules[1].fault.kind: unknown fault kind \"x\"")
        #expect(failure(rule(#"{"status":500}"#)) == "rules[1].fault.kind: missing required field")
        #expect(failure(rule(#"{"kind":"hang","ms":3}"#)) == "rules[1].fault.ms: unknown field")
        #expect(failure(rule(#"{"kind":"hang"}"#, extra: #""chanel":"c","#)) == "rules[1].chanel: unknown field")
        #expect(failure(rule(#"{"kind":"hang"}"#, extra: #""match":{"chanel":"c"},"#)) == "rules[1].match.chanel: unknown field")
        #expect(failure(rule(#"{"kind":"hang"}"#, extra: #""match":{"endpoint":"publsh"},"#))
            == "rules[1].match.endpoint: unknown endpoint \"publsh\"")
        #expect(failure(rule(#"{"kind":"hang"}"#, extra: #""match":{"endpoint":["time",3]},"#))
            == "rules[1].match.endpoint[1]: expected an endpoint name, found a number")
        #expect(failure(rule(#"{"kind":"hang"}"#, extra: #""match":{"query":{"tt":0}},"#))
            == "rules[1].match.query.tt: expected a string, found a number")
        #expect(failure(rule(#"{"kind":"hang"}"#, extra: #""nth":0,"#)) == "rules[1].nth: expected an integer >= 1")
        #expect(failure(rule(#"{"kind":"hang"}"#, extra: #""probability":1.5,"#)) == "rules[1].probability: expected a number 0...1")
        #expect(failure(rule(#"{"kind":"hang"}"#, extra: #""id":"ok","#)) == "rules[1].id: duplicate rule id \"ok\"")
        #expect(failure(rule(#"{"kind":"delay","ms":5,"then":{"kind":"close-long-poll","afterMs":1}}"#))
            == "rules[1].fault.then.kind: close-long-poll cannot follow a delay (use its afterMs)")
        #expect(failure(rule(#"{"kind":"delay","ms":5,"then":{"kind":"status","status":1000}}"#))
            == "rules[1].fault.then.status: expected an integer 100...599")
        #expect(failure(rule(#"{"kind":"truncated-body","contentLength":"half"}"#))
            == "rules[1].fault.contentLength: expected \"correct\" or \"full\"")
        #expect(failure(rule(#"{"kind":"wrong-shape","body":"{nope"}"#)) == "rules[1].fault.body: expected JSON text")
        #expect(failure(rule(#"{"kind":"foreign-encrypted","cipherKey":"k","scheme":"rot13"}"#))
            == "rules[1].fault.scheme: expected one of legacy, legacy-random-iv, aescbc")
        #expect(failure("{\"seed\":-1,\"rules\":[]}") == "seed: expected an integer 0...18446744073709551615")
        #expect(failure("{\"version\":2,\"rules\":[]}") == "version: expected 1 (the only schema version)")
        #expect(failure("{}") == "rules: missing required field")
        #expect(failure("{\"rules\":{}}") == "rules: expected an array, found an object")
        #expect(failure("[]") == "$: expected an object, found an array")
        #expect(failure("{\"rules\":[],}") == "$: invalid JSON at byte 12: expected a member name")
        #expect(failure("{\"rules\":[]} x") == "$: invalid JSON at byte 13: expected end of input")
    }

    @Test func validateChecksPlansBuiltInSwift() {
        let plan = FaultPlan(rules: [
            FaultRule(id: "a", fault: .hang),
            FaultRule(id: "b", times: 0, fault: .hang),
        ])
        #expect(throws: FaultPlanError(path: "rules[1].times", message: "expected an integer >= 1")) { try plan.validate() }
        let headers = FaultPlan(rules: [FaultRule(id: "a", fault: .status(StatusFault(
            status: 500, headers: [HeaderField(name: "Bad Name", value: "v")])))])
        #expect(throws: FaultPlanError(path: "rules[0].fault.headers", message: "invalid header name \"Bad Name\"")) {
            try headers.validate()
        }
    }

    @Test func codableUsesTheSchemaAndItsErrors() throws {
        let text = #"{"seed":7,"rules":[{"id":"x","match":{"endpoint":"time"},"fault":{"kind":"reset"}}]}"#
        let plan = try JSONDecoder().decode(FaultPlan.self, from: Data(text.utf8))
        #expect(plan == FaultPlan(seed: 7, rules: [FaultRule(id: "x", match: RequestMatch(endpoints: [.time]), fault: .reset)]))
        let again = try JSONDecoder().decode(FaultPlan.self, from: JSONEncoder().encode(plan))
        #expect(again == plan)
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(FaultPlan.self, from: Data(#"{"rules":[{"fault":{"kind":"nope"}}]}"#.utf8))
        }
    }

    @Test func planFilesInstallByKeyOrWildcard() throws {
        let single = try FaultPlanFile.decode(json: Array(#"{"rules":[]}"#.utf8))
        #expect(single.map(\.subscribeKey) == ["*"])
        let many = try FaultPlanFile.decode(json: Array(
            #"[{"subscribeKey":"a","rules":[]},{"subscribeKey":"b","rules":[{"fault":{"kind":"hang"}}]}]"#.utf8))
        #expect(many.map(\.subscribeKey) == ["a", "b"])
        #expect(throws: FaultPlanError(path: "$[1].subscribeKey", message: "a second plan for key \"a\"")) {
            try FaultPlanFile.decode(json: Array(#"[{"subscribeKey":"a","rules":[]},{"subscribeKey":"a","rules":[]}]"#.utf8))
        }
        #expect(throws: FaultPlanError(path: "$[0].rules[0].fault.kind", message: "missing required field")) {
            try FaultPlanFile.decode(json: Array(#"[{"rules":[{"fault":{}}]}]"#.utf8))
        }
    }

    @Test func planDocumentsNestAtMost64Levels() throws {
        let deep = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
        #expect(throws: FaultPlanError(path: "$", message: "invalid JSON at byte 64: expected at most 64 levels of nesting")) {
            try FaultPlanFile.decode(json: Array(deep.utf8))
        }
    }
}
