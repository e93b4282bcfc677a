// SPDX-License-Identifier: MIT
import HarnessTesting
import PusherServer
import Testing

/// The transport refusals of Pusher fault plans: decoded, re-encoded, refused when wrong (pure).
@Suite("Pusher fault plans: transport refusals", .timeLimit(.minutes(TestTime.limitMinutes(1))))
struct PusherRefusalFaultPlanTests {
    @Test func refusalsDecodeWithTheirStatusAndRoundTrip() throws {
        let plan = try PusherFaultPlan.decode(json: Array(#"""
            {"rules":[{"id":"proxy","fault":{"kind":"refuse-websocket","status":403}},
                      {"fault":{"kind":"refuse-streaming"}},{"times":1,"fault":{"kind":"refuse-polling","status":502}}]}
            """#.utf8))
        #expect(plan.rules.map(\.fault) == [
            .refuseTransport(.websocket, status: 403), .refuseTransport(.streaming, status: 503), .refuseTransport(.polling, status: 502),
        ])
        #expect(try PusherFaultPlan.decode(json: plan.json.jsonBytes).rules.map(\.fault) == plan.rules.map(\.fault))
    }

    @Test(arguments: [
        (#"{"rules":[{"fault":{"kind":"refuse-websocket","status":200}}]}"#, "rules[0].fault.status: expected an integer 400...599"),
        (#"{"rules":[{"fault":{"kind":"refuse-streaming","code":4000}}]}"#, "rules[0].fault.code"),
    ])
    func badRefusalsNameTheirField(json: String, message: String) {
        #expect(throws: PusherFaultPlanError.self) { try PusherFaultPlan.decode(json: Array(json.utf8)) }
        do {
            _ = try PusherFaultPlan.decode(json: Array(json.utf8))
        } catch {
            #expect(error.description.hasPrefix(message), "\(error.description)")
        }
    }
}
