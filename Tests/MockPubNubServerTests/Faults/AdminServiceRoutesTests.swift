// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// `/__admin/` index and health, and the service routes a runner in another process uses:
/// keysets, grants and injected messages, checked through the PubNub endpoints they affect.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct AdminServiceRoutesTests {
    private struct Setup {
        let harness = ServiceHarness()
        let faults = FaultLayer(upstream: FakeUpstream(response: FaultFixtures.sent), scheduler: ManualScheduler(), seedSource: { 9 })
        var api: AdminAPI { AdminAPI(faults: faults, serviceControl: AdminServiceControl(service: harness.service)) }
    }

    private func call(_ api: AdminAPI, _ method: String, _ target: String, body: String = "",
                      sourceLocation: SourceLocation = #_sourceLocation) -> (Int, String) {
        let sink = ActionSink()
        api.handle(FaultFixtures.request(method, target, body: body), context: FaultFixtures.context(), responder: sink.responder())
        guard case .respond(let response)? = sink.all.first, sink.all.count == 1 else {
            Issue.record("expected one response, got \(sink.all)", sourceLocation: sourceLocation)
            return (0, "")
        }
        return (response.status, FaultFixtures.text(response.body))
    }

    @Test func indexListsEveryRouteAndHealthIsOK() {
        let api = Setup().api
        for target in ["/__admin/", "/__admin"] {
            let (status, body) = call(api, "GET", target)
            #expect(status == 200)
            for path in ["/__admin/health", "/__admin/plans/{subscribeKey}", "/__admin/journal/{subscribeKey}?since=N",
                         "/__admin/keysets", "/__admin/grants/{subscribeKey}", "/__admin/messages/{subscribeKey}", "/__admin/connections"] {
                #expect(body.contains("\"path\":\"\(path)\""), "\(path)")
            }
        }
        #expect(call(api, "GET", "/__admin/health") == (200, #"{"status":"ok","service":"pubnub-harness","plans":0}"#))
        #expect(call(api, "POST", "/__admin/health").0 == 405)
    }

    @Test func keysetThenGrantOpensPublishing() {
        let setup = Setup()
        let publish = "/publish/pub-k/sub-k/0/ch/0/%22x%22?uuid=u&auth=a1"
        #expect(setup.harness.call(publish).0 == 200)  // open demo key before registration
        #expect(call(setup.api, "POST", "/__admin/keysets", body: #"{"subscribeKey":"sub-k","publishKey":"pub-k","secretKey":"sec"}"#)
            == (200, #"{"subscribeKey":"sub-k","registered":true}"#))
        #expect(setup.harness.service.keyset(for: "sub-k") == Keyset(subscribeKey: "sub-k", publishKey: "pub-k", secretKey: "sec"))
        #expect(setup.harness.call(publish).0 == 403)
        #expect(call(setup.api, "POST", "/__admin/grants/sub-k", body: #"{"channels":["ch"],"authKeys":["a1"],"write":true,"ttl":5}"#)
            == (200, #"{"subscribeKey":"sub-k","granted":true}"#))
        #expect(setup.harness.call(publish).0 == 200)
        #expect(call(setup.api, "POST", "/__admin/grants/sub-k", body: #"{"channels":["ch"],"authKeys":["a1"]}"#).0 == 200)  // revokes
        #expect(setup.harness.call(publish).0 == 403)
    }

    @Test func injectedMessageIsStoredAsSent() {
        let setup = Setup()
        let (status, body) = call(setup.api, "POST", "/__admin/messages/demo",
                                  body: #"{"channel":"ch","messageJSON":"{\"a\": [1, 2.50]}","publisher":"p"}"#)
        #expect(status == 200)
        #expect(body.hasPrefix(#"{"timetoken":""#))
        #expect(setup.harness.call("/v2/history/sub-key/demo/channel/ch").1.hasPrefix(#"[[{"a": [1, 2.50]}],"#))
    }

    @Test func badInputIsA400NamingTheField() {
        let api = Setup().api
        #expect(call(api, "POST", "/__admin/keysets", body: #"{"subscribeKey":"s","publishKey":""}"#)
            == (400, #"{"error":true,"message":"publishKey: must not be empty","status":400,"service":"Admin"}"#))
        #expect(call(api, "POST", "/__admin/grants/s", body: #"{"read":"yes"}"#)
            == (400, #"{"error":true,"message":"read: expected true or false","status":400,"service":"Admin"}"#))
        #expect(call(api, "POST", "/__admin/grants/s", body: #"{"channels":["a",1]}"#).1.contains("channels[1]: expected a string"))
        #expect(call(api, "POST", "/__admin/messages/s", body: #"{"channel":"c","messageJSON":"{nope"}"#).0 == 400)
        #expect(call(api, "POST", "/__admin/messages/s", body: #"{"channel":"c","messageJSON":"1","extra":1}"#).1.contains("extra"))
        #expect(call(api, "POST", "/__admin/messages/s", body: "not json").0 == 400)
        #expect(call(api, "GET", "/__admin/keysets").0 == 405)
        let withoutControl = AdminAPI(faults: Setup().faults)
        #expect(call(withoutControl, "POST", "/__admin/keysets", body: "{}").0 == 501)
    }
}
