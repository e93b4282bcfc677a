// SPDX-License-Identifier: MIT
import MockPusher
import PusherServer
import Testing

/// Decoding, refusing and re-encoding Pusher fault plans (pure).
@Suite("Pusher fault plans", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherFaultPlanTests {
    @Test func decodesEveryKind() throws {
        let plan = try PusherFaultPlan.decode(json: Array(#"""
            {"version":1,"appKey":"k","rules":[
              {"id":"storm","times":3,"fault":{"kind":"close","code":4200,"reason":"again","at":"before-established"}},
              {"after":2,"match":{"query":{"client":"js"}},"fault":{"kind":"close","code":4100,"at":"after-messages","count":5}},
              {"fault":{"kind":"close","code":4009,"at":"after-subscribed","channel":"c"}},
              {"fault":{"kind":"withhold-pongs","which":"websocket"}},
              {"fault":{"kind":"server-ping-only","ping":"pusher"}},
              {"fault":{"kind":"drop-subscription-succeeded"}},
              {"fault":{"kind":"delay-subscription-succeeded","ms":250,"channel":"d"}},
              {"fault":{"kind":"malformed","form":"split-frames","target":"pusher_internal:subscription_succeeded","channel":"e"}},
              {"fault":{"kind":"malformed","form":"bad-socket-id"}},
              {"fault":{"kind":"delay","ms":300}},
              {"fault":{"kind":"tamper-ciphertext","channel":"private-encrypted-x","event":"e"}},
              {"fault":{"kind":"tamper-ciphertext"}}
            ]}
            """#.utf8))
        #expect(plan.appKey == "k")
        #expect(plan.rules.map(\.fault) == [
            .close(code: 4200, reason: "again", at: .beforeEstablished),
            .close(code: 4100, reason: "", at: .afterMessages(count: 5)),
            .close(code: 4009, reason: "", at: .afterSubscribed(channel: "c")),
            .withholdPongs(.websocket),
            .serverPingOnly(.pusher),
            .dropSubscriptionSucceeded(channel: nil),
            .delaySubscriptionSucceeded(channel: "d", milliseconds: 250),
            .malformed(.splitFrames, target: .subscriptionSucceeded(channel: "e")),
            .malformed(.badSocketID, target: .connectionEstablished),
            .delay(target: .connectionEstablished, milliseconds: 300),
            .tamperCiphertext(channel: "private-encrypted-x", event: "e"),
            .tamperCiphertext(channel: nil, event: nil),
        ])
        #expect(plan.rules[0].times == 3)
        #expect(plan.rules[1].after == 2)
        #expect(plan.rules[1].query == ["client": "js"])
        // Encoding and decoding again gives the same plan (ids written out).
        let again = try PusherFaultPlan.decode(json: plan.json.jsonBytes)
        #expect(again.rules.map(\.fault) == plan.rules.map(\.fault))
        #expect(again.rules.map(\.id) == ["storm", "rule-1", "rule-2", "rule-3", "rule-4", "rule-5", "rule-6", "rule-7", "rule-8", "rule-9", "rule-10", "rule-11"])
    }

    @Test(arguments: [
        (#"{"rules":[{"fault":{"kind":"explode"}}]}"#, #"rules[0].fault.kind: unknown fault kind "explode" (one of close, withhold-pongs, server-ping-only, drop-subscription-succeeded, delay-subscription-succeeded, delay, malformed, tamper-ciphertext, refuse-websocket, refuse-streaming, refuse-polling)"#),
        (#"{"rules":[{"fault":{"kind":"close"}}]}"#, "rules[0].fault.code: required"),
        (#"{"rules":[{"fault":{"kind":"close","code":1005}}]}"#, "rules[0].fault.code: 1005 may not be sent in a close frame"),
        (#"{"rules":[{"fault":{"kind":"close","code":4000,"at":"after-subscribed"}}]}"#, #"rules[0].fault.channel: required with at "after-subscribed""#),
        (#"{"rules":[{"fault":{"kind":"malformed","form":"wobbly"}}]}"#, #"rules[0].fault.form: expected one of split-frames, bad-utf8, reserved-bits, invalid-json, object-data, reordered-keys, missing-activity-timeout, bad-socket-id, got "wobbly""#),
        (#"{"rules":[{"times":0,"fault":{"kind":"withhold-pongs"}}]}"#, "rules[0].times: expected an integer 1...2147483647"),
        (#"{"rules":[{"fault":{"kind":"withhold-pongs","extra":1}}]}"#, "rules[0].fault.extra: unknown field"),
        (#"{"rules":[{"id":"a","fault":{"kind":"withhold-pongs"}},{"id":"a","fault":{"kind":"withhold-pongs"}}]}"#, #"rules[1].id: duplicate rule id "a""#),
        (#"{"rule":[]}"#, "rule: unknown field"),
        (#"{}"#, "rules: required"),
    ])
    func refusesWithThePathOfTheFirstError(json: String, message: String) {
        #expect(throws: PusherFaultPlanError.self) { try PusherFaultPlan.decode(json: Array(json.utf8)) }
        do {
            _ = try PusherFaultPlan.decode(json: Array(json.utf8))
        } catch {
            #expect(error.description == message)
        }
    }

    @Test func timesAndAfterCountConnectionsPerKey() {
        let book = PusherFaultBook()
        book.install(PusherFaultPlan(rules: [PusherFaultRule(after: 1, times: 2, fault: .withholdPongs(.both))]), for: "k")
        let chosen = (0..<5).map { _ in book.faults(forConnectionOn: "k", query: []).isEmpty }
        #expect(chosen == [true, false, false, true, true])
        #expect(book.faults(forConnectionOn: "other", query: []).isEmpty)
        #expect(book.faultedCounts(for: "k") == [2])
    }

    @Test func planFilesNameTheirKeys() throws {
        let plans = try PusherFaultPlan.decodeFile(json: Array(#"[{"appKey":"a","rules":[]},{"appKey":"b","rules":[]}]"#.utf8))
        #expect(plans.map(\.appKey) == ["a", "b"])
        #expect(throws: PusherFaultPlanError(path: "$[1].appKey", message: #"a second plan for key "a""#)) {
            try PusherFaultPlan.decodeFile(json: Array(#"[{"appKey":"a","rules":[]},{"appKey":"a","rules":[]}]"#.utf8))
        }
        #expect(throws: PusherFaultPlanError(path: "appKey", message: "required in a plan file")) {
            try PusherFaultPlan.decodeFile(json: Array(#"{"rules":[]}"#.utf8))
        }
    }
}
