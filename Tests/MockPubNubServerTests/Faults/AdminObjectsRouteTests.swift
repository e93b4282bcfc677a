// SPDX-License-Identifier: MIT
import Testing
@testable import MockPubNubServer

/// `/__admin/objects/{subscribeKey}`: a key's App Context state, and forgetting it; `objects` in plans.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct AdminObjectsRouteTests {
    @Test func showsAndClearsOneKeysAppContextState() {
        let harness = ServiceHarness()
        let faults = FaultLayer(upstream: FakeUpstream(response: FaultFixtures.sent), scheduler: ManualScheduler(), seedSource: { 9 })
        let api = AdminAPI(faults: faults, serviceControl: AdminServiceControl(service: harness.service))
        func call(_ method: String, _ target: String) -> (Int, String) {
            let sink = ActionSink()
            api.handle(FaultFixtures.request(method, target), context: FaultFixtures.context(), responder: sink.responder())
            guard case .respond(let response)? = sink.all.first else { return (0, "") }
            return (response.status, FaultFixtures.text(response.body))
        }
        harness.call("/v2/objects/k1/channels/ch/uuids", method: "PATCH", body: #"{"set":[{"uuid":{"id":"u"},"status":"on"}]}"#)
        harness.call("/v2/objects/k2/uuids/other", method: "PATCH", body: #"{"name":"o"}"#)
        let (status, body) = call("GET", "/__admin/objects/k1")
        #expect(status == 200)
        #expect(body.hasPrefix(#"{"subscribeKey":"k1","objects":{"uuids":[],"channels":[],"memberships":[{"uuid":"u","channel":"ch","type":null,"status":"on","custom":null,"updated":""#))
        #expect(call("DELETE", "/__admin/objects/k1") == (200, #"{"subscribeKey":"k1","cleared":true}"#))
        #expect(call("GET", "/__admin/objects/k1") == (200, #"{"subscribeKey":"k1","objects":{"uuids":[],"channels":[],"memberships":[]}}"#))
        #expect(call("GET", "/__admin/objects/k2").1.contains(#""uuids":[{"id":"other","name":"o""#))
        #expect(call("POST", "/__admin/objects/k1").0 == 405)
        #expect(call("GET", "/__admin/").1.contains(#""path":"/__admin/objects/{subscribeKey}""#))
    }

    @Test func plansNameTheObjectsEndpoint() throws {
        let plan = try FaultPlan.decode(json: Array(#"{"version":1,"rules":[{"match":{"endpoint":"objects","method":"PATCH","channel":"ch"},"fault":{"kind":"status","status":500}}]}"#.utf8))
        #expect(plan.rules.first?.match.endpoints == [.objects])
        let route = try PubNubRoute.classify(HTTPRequest(method: "PATCH", target: "/v2/objects/k/channels/ch?uuid=u")).get()
        #expect(route.endpoint == .objects && route.channels == ["ch"] && route.subscribeKey == "k")
    }
}
