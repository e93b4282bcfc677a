// SPDX-License-Identifier: MIT
import HarnessJSON
import Synchronization
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct AdminAPITests {
    /// Records the listener calls and answers with fixed ports.
    final class FakeListeners: ListenerFaultControl {
        let calls = Mutex<[String]>([])
        func openListener(fault: ListenerFault) throws -> Int {
            calls.withLock { $0.append("open \(fault.rawValue)") }
            return 40_001
        }
        func closeListener(port: Int) throws {
            calls.withLock { $0.append("close \(port)") }
        }
        func queueConnectionFaults(_ faults: [ListenerFault], port: Int) throws {
            calls.withLock { $0.append("queue \(port) \(faults.map(\.rawValue).joined(separator: ","))") }
        }
        func refusedPort() throws -> Int { 40_002 }
    }

    final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    private struct Setup {
        let faults = FaultLayer(upstream: FakeUpstream(response: FaultFixtures.sent), scheduler: ManualScheduler(), seedSource: { 9 })
        let listeners = FakeListeners()
        let resets = Counter()
        var api: AdminAPI {
            AdminAPI(faults: faults, listeners: listeners, resetService: { [resets] in resets.value.add(1, ordering: .relaxed) })
        }
    }

    private func call(
        _ api: AdminAPI, _ method: String, _ target: String, body: String = "", peer: String = "127.0.0.1:5"
    ) -> (Int, String) {
        let sink = ActionSink()
        api.handle(FaultFixtures.request(method, target, body: body), context: FaultFixtures.context(peer: peer), responder: sink.responder())
        guard case .respond(let response)? = sink.all.first, sink.all.count == 1 else {
            Issue.record("expected one response, got \(sink.all)")
            return (0, "")
        }
        #expect(response.headers["Content-Type"] == "application/json")
        return (response.status, FaultFixtures.text(response.body))
    }

    @Test func installListAndClearPlans() {
        let setup = Setup()
        let api = setup.api
        #expect(call(api, "PUT", "/__admin/plans/sk%2F1", body: #"{"rules":[{"id":"h","match":{"endpoint":"subscribe"},"fault":{"kind":"hang"}}]}"#)
            == (200, #"{"subscribeKey":"sk/1","seed":9,"rules":1}"#))
        #expect(call(api, "POST", "/__admin/plans/other", body: #"{"seed":3,"rules":[]}"#) == (200, #"{"subscribeKey":"other","seed":3,"rules":0}"#))
        #expect(call(api, "GET", "/__admin/plans") == (200,
            #"{"plans":[{"subscribeKey":"other","seed":3,"plan":{"version":1,"seed":3,"rules":[]},"counters":[]},"#
            + #"{"subscribeKey":"sk/1","seed":9,"plan":{"version":1,"rules":[{"id":"h","match":{"endpoint":"subscribe"},"fault":{"kind":"hang"}}]},"counters":[{"rule":"h","matched":0,"fired":0}]}]}"#))
        #expect(call(api, "GET", "/__admin/plans/other").0 == 200)
        #expect(call(api, "DELETE", "/__admin/plans/other") == (200, #"{"subscribeKey":"other","cleared":true}"#))
        #expect(call(api, "GET", "/__admin/plans/other")
            == (404, #"{"error":true,"message":"no plan for key \"other\"","status":404,"service":"Admin"}"#))
        #expect(call(api, "DELETE", "/__admin/plans") == (200, #"{"cleared":true}"#))
        #expect(setup.faults.installedPlans().isEmpty)
    }

    @Test func planFilesInstallAllOrNothing() {
        let setup = Setup()
        #expect(call(setup.api, "POST", "/__admin/plans", body: #"[{"subscribeKey":"a","seed":4,"rules":[]},{"rules":[]}]"#)
            == (200, #"{"installed":[{"subscribeKey":"a","seed":4},{"subscribeKey":"*","seed":9}]}"#))
        #expect(call(setup.api, "POST", "/__admin/plans", body: #"[{"subscribeKey":"b","rules":[]},{"rules":[{"fault":{"kind":"x"}}]}]"#)
            == (400, #"{"error":true,"message":"$[1].rules[0].fault.kind: unknown fault kind \"x\"","status":400,"service":"Admin"}"#))
        #expect(setup.faults.installedPlans().map(\.subscribeKey) == ["*", "a"])
    }

    @Test func invalidPlansAreRefusedNamingTheField() {
        let api = Setup().api
        #expect(call(api, "PUT", "/__admin/plans/k", body: #"{"rules":[{"fault":{"kind":"x"}}]}"#)
            == (400, #"{"error":true,"message":"rules[0].fault.kind: unknown fault kind \"x\"","status":400,"service":"Admin"}"#))
        #expect(call(api, "PUT", "/__admin/plans/k", body: #"{"subscribeKey":"j","rules":[]}"#)
            == (400, #"{"error":true,"message":"subscribeKey: \"j\" does not match the path's key \"k\"","status":400,"service":"Admin"}"#))
        #expect(call(api, "PUT", "/__admin/plans/k", body: "")
            == (400, #"{"error":true,"message":"$: invalid JSON at byte 0: expected a value","status":400,"service":"Admin"}"#))
    }

    @Test func journalReadsPagesAndClears() {
        let setup = Setup()
        let api = setup.api
        for target in ["/v2/subscribe/sk/c/0?tt=0&uuid=u", "/time/0?uuid=u"] {
            setup.faults.handle(FaultFixtures.request("GET", target), context: FaultFixtures.context(), responder: ActionSink().responder())
        }
        let (status, all) = call(api, "GET", "/__admin/journal/sk")
        #expect(status == 200)
        let json = try? JSONValue.parse(Array(all.utf8))
        #expect(json?["lastSequence"] == .int(2))
        if case .array(let entries)? = json?["entries"] {
            #expect(entries.map { $0["endpoint"] } == [.string("subscribe"), .string("time")])
        } else {
            Issue.record("no entries: \(all)")
        }
        let paged = call(api, "GET", "/__admin/journal/sk?since=1").1
        #expect(paged.hasPrefix(#"{"subscribeKey":"sk","lastSequence":2,"entries":[{"sequence":2,"#))
        #expect(call(api, "GET", "/__admin/journal/sk?since=2") == (200, #"{"subscribeKey":"sk","lastSequence":2,"entries":[]}"#))
        #expect(call(api, "GET", "/__admin/journal/sk?since=x")
            == (400, #"{"error":true,"message":"since: expected a sequence number (an integer >= 0)","status":400,"service":"Admin"}"#))
        #expect(call(api, "GET", "/__admin/journal") == (200, #"{"keys":["sk"]}"#))
        #expect(call(api, "DELETE", "/__admin/journal/sk") == (200, #"{"subscribeKey":"sk","cleared":true}"#))
        #expect(call(api, "GET", "/__admin/journal") == (200, #"{"keys":[]}"#))
    }

    @Test func resetClearsEverythingAndTheService() throws {
        let setup = Setup()
        try setup.faults.installPlan(FaultFixtures.plan([]), for: "k")
        #expect(call(setup.api, "POST", "/__admin/reset") == (200, #"{"reset":true}"#))
        #expect(setup.resets.value.load(ordering: .relaxed) == 1)
        #expect(setup.faults.installedPlans().isEmpty)
        #expect(call(setup.api, "GET", "/__admin/reset").0 == 405)
    }

    @Test func listenerControl() {
        let setup = Setup()
        let api = setup.api
        #expect(call(api, "POST", "/__admin/listeners", body: #"{"fault":"tls-expired"}"#) == (200, #"{"port":40001,"fault":"tls-expired"}"#))
        #expect(call(api, "POST", "/__admin/listeners/40001/connection-faults", body: #"{"faults":["reset-on-accept","none"]}"#)
            == (200, #"{"port":40001,"queued":2}"#))
        #expect(call(api, "DELETE", "/__admin/listeners/40001") == (200, #"{"port":40001,"closed":true}"#))
        #expect(call(api, "GET", "/__admin/refused-port") == (200, #"{"port":40002}"#))
        #expect(call(api, "POST", "/__admin/listeners", body: #"{"fault":"tls-broken"}"#)
            == (400, #"{"error":true,"message":"fault: unknown listener fault \"tls-broken\"","status":400,"service":"Admin"}"#))
        #expect(call(api, "POST", "/__admin/listeners/40001/connection-faults", body: #"{"faults":["none",1]}"#)
            == (400, #"{"error":true,"message":"faults[1]: expected a listener fault name","status":400,"service":"Admin"}"#))
        #expect(call(api, "DELETE", "/__admin/listeners/99999").0 == 400)
        #expect(setup.listeners.calls.withLock { $0 } == ["open tls-expired", "queue 40001 reset-on-accept,none", "close 40001"])
        let bare = AdminAPI(faults: setup.faults)
        #expect(call(bare, "GET", "/__admin/refused-port")
            == (501, #"{"error":true,"message":"listener control is not available in this server","status":501,"service":"Admin"}"#))
    }

    @Test func certificateAuthorityRoute() {
        let setup = Setup()
        let api = AdminAPI(faults: setup.faults, certificateAuthorityPEM: "-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n")
        #expect(call(api, "GET", "/__admin/tls/ca")
            == (200, #"{"caPEM":"-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----\n"}"#))
        #expect(call(api, "POST", "/__admin/tls/ca").0 == 405)
        #expect(call(setup.api, "GET", "/__admin/tls/ca")
            == (404, #"{"error":true,"message":"this server has no TLS certificate authority","status":404,"service":"Admin"}"#))
    }

    @Test func remotePeersAreRefusedUnlessAllowed() {
        let setup = Setup()
        let (status, body) = call(setup.api, "GET", "/__admin/plans", peer: "10.0.0.2:4000")
        #expect(status == 403)
        #expect(body.contains("loopback peers only"))
        let open = AdminAPI(faults: setup.faults, allowRemote: true)
        #expect(call(open, "GET", "/__admin/plans", peer: "10.0.0.2:4000") == (200, #"{"plans":[]}"#))
        #expect(call(setup.api, "GET", "/__admin/plans", peer: "[::1]:4000").0 == 200)
    }

    @Test func unknownRoutesAndMethods() {
        let api = Setup().api
        #expect(call(api, "GET", "/__admin/nothing")
            == (404, #"{"error":true,"message":"no admin route GET /__admin/nothing","status":404,"service":"Admin"}"#))
        #expect(call(api, "PATCH", "/__admin/plans/k").0 == 405)
        #expect(call(api, "GET", "/__admin/plans/%ZZ").0 == 400)
    }
}

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct AdminRoutingTests {
    @Test func adminPathsGoToTheAdminAPIOthersToTheFallback() throws {
        let upstream = FakeUpstream(response: FaultFixtures.sent)
        let faults = FaultLayer(upstream: upstream, scheduler: ManualScheduler())
        let admin = AdminAPI(faults: faults)
        let router = HostRoutes(
            routes: [HostRoute(.exact("/__admin"), handler: admin), HostRoute(.prefix(HostRoutes.adminPrefix), handler: admin)],
            fallback: faults
        ).handler
        var answers: [ResponseAction?] = []
        for target in ["/__admin/plans", "/__adminx", "/time/0"] {
            let sink = ActionSink()
            router.handle(FaultFixtures.request("GET", target), context: FaultFixtures.context(), responder: sink.responder())
            answers.append(sink.all.first)
        }
        #expect(answers[0] == .respond(HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Array(#"{"plans":[]}"#.utf8))))
        #expect(answers[1] == .respond(FaultFixtures.sent))
        #expect(answers[2] == .respond(FaultFixtures.sent))
        #expect(upstream.requests.map(\.request.target) == ["/__adminx", "/time/0"])
        #expect(faults.journal(for: FaultLayer.unattributedKey).map(\.path) == ["/__adminx", "/time/0"])
    }
}
