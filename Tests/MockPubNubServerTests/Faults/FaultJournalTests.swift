// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct FaultJournalTests {
    private func layer(capacity: Int = 10_000, upstream: FakeUpstream = FakeUpstream(response: FaultFixtures.sent)) -> FaultLayer {
        FaultLayer(upstream: upstream, scheduler: ManualScheduler(), journalCapacity: capacity, seedSource: { 77 })
    }

    private func send(_ layer: FaultLayer, _ target: String) -> [ResponseAction] {
        send(layer, "GET", target)
    }

    private func send(_ layer: FaultLayer, _ method: String, _ target: String, body: [UInt8] = []) -> [ResponseAction] {
        let sink = ActionSink()
        var request = FaultFixtures.request(method, target)
        request.body = body
        layer.handle(request, context: FaultFixtures.context(), responder: sink.responder())
        return sink.all
    }

    @Test func timeRequestsFollowTheirUUIDsLastKey() throws {
        let faults = layer()
        _ = send(faults, "/time/0?uuid=alice")  // nobody knows alice yet
        _ = send(faults, "/v2/subscribe/key-a/c/0?tt=0&uuid=alice")
        _ = send(faults, "/v2/subscribe/key-b/c/0?tt=0&uuid=bob")
        _ = send(faults, "/time/0?uuid=alice")
        _ = send(faults, "/time/0?uuid=bob")
        _ = send(faults, "/publish/p/key-b/0/c/0/1?uuid=alice")  // alice moves to key-b
        _ = send(faults, "/time/0?uuid=alice")
        #expect(faults.journal(for: FaultLayer.unattributedKey).map(\.sequence) == [1])
        #expect(faults.journal(for: "key-a").map(\.sequence) == [2, 4])
        #expect(faults.journal(for: "key-b").map(\.sequence) == [3, 5, 6, 7])
        #expect(faults.journal(for: "key-b").map(\.endpoint) == [.subscribe, .time, .publish, .time])
        #expect(faults.journalKeys() == ["_unattributed", "key-a", "key-b"])
    }

    @Test func timeRequestsAreFaultedByTheirKeysPlan() throws {
        let faults = layer()
        try faults.installPlan(FaultFixtures.plan([
            FaultRule(id: "ping-fails", match: RequestMatch(endpoints: [.time]), times: 1, fault: .status(StatusFault(status: 500))),
        ]), for: "key-a")
        _ = send(faults, "/v2/subscribe/key-a/c/0?tt=0&uuid=alice")
        #expect(send(faults, "/time/0?uuid=bob") == [.respond(FaultFixtures.sent)])
        #expect(send(faults, "/time/0?uuid=alice") == [.respond(HTTPResponse.pubNub(500, "{}"))])
        #expect(send(faults, "/time/0?uuid=alice") == [.respond(FaultFixtures.sent)])
        #expect(faults.journal(for: "key-a").map(\.rule) == [nil, "ping-fails", nil])
    }

    @Test func entriesRecordTheRequestAndTheRule() throws {
        let faults = layer()
        try faults.installPlan(FaultFixtures.plan([FaultRule(id: "drop", match: RequestMatch(method: "POST"), fault: .reset)], seed: nil), for: "sk")
        _ = send(faults, "POST", "/publish/p/sk/0/c%20d/0?uuid=u&meta=%7B%7D", body: Array("\"hi\"".utf8))
        _ = send(faults, "POST", "/publish/p/sk/0/c/0?uuid=u", body: [0xFF, 0x00, 0x41])
        let entries = faults.journal(for: "sk")
        #expect(entries.count == 2)
        var first = try #require(entries.first)
        // The answer's duration runs on the wall clock (checked in JournalAnswerTests).
        #expect(first.answer?.kind == "close" && first.answer?.close == "reset" && first.answer?.bytes == 0)
        first.answer = nil
        #expect(first.json.jsonText == """
            {"sequence":1,"arrivalTime":1700000000.25,"connectionID":7,"requestOnConnection":0,"localPort":8090,"isTLS":false,\
            "method":"POST","path":"/publish/p/sk/0/c%20d/0","query":[{"name":"uuid","value":"u"},{"name":"meta","value":"{}"}],\
            "rawQuery":"uuid=u&meta=%7B%7D","headers":[{"name":"Host","value":"127.0.0.1:8090"}],"body":"\\"hi\\"",\
            "endpoint":"publish","subscribeKey":"sk","uuid":"u","rule":"drop","fault":"reset","matchNumber":1}
            """)
        #expect(entries[1].body == nil)
        #expect(entries[1].bodyBase64 == "/wBB")
        #expect(faults.journal(for: "sk", since: 1).map(\.sequence) == [2])
        #expect(faults.installedPlans().map(\.seed) == [77])
    }

    @Test func unclassifiedRequestsAreJournaledAndPassedThrough() throws {
        let upstream = FakeUpstream(response: FaultFixtures.sent)
        let faults = layer(upstream: upstream)
        try faults.installPlan(FaultFixtures.plan([FaultRule(id: "all", fault: .hang)]), for: "*")
        #expect(send(faults, "/nope?uuid=zed") == [.respond(FaultFixtures.sent)])
        #expect(faults.journal(for: FaultLayer.unattributedKey).map(\.endpoint) == [nil])
        #expect(upstream.requests.count == 1)
    }

    @Test func journalIsBoundedPerKey() {
        let faults = layer(capacity: 3)
        for index in 0..<5 { _ = send(faults, "/v2/subscribe/a/c/0?tt=\(index)") }
        _ = send(faults, "/v2/subscribe/b/c/0?tt=0")
        #expect(faults.journal(for: "a").map(\.sequence) == [3, 4, 5])
        #expect(faults.journal(for: "b").map(\.sequence) == [6])
        faults.clearJournal(for: "a")
        #expect(faults.journal(for: "a").isEmpty)
        #expect(faults.journal(for: "b").count == 1)
    }

    @Test func aLargeBodyIsJournaledCutToItsBoundAndASmallOneWhole() {
        // Capacity 1: the second and third records replace the one before (the full ring's path).
        let faults = layer(capacity: 1)
        let bound = JournalRecord.maxJournaledBodyBytes
        let large = (0..<(bound + 100)).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        for _ in 0..<2 {
            _ = send(faults, "POST", "/publish/p/sk/0/c/0?uuid=u", body: large)
            #expect(faults.journal(for: "sk").map(\.body) == [String(decoding: large.prefix(bound), as: UTF8.self)])
        }
        _ = send(faults, "POST", "/publish/p/sk/0/c/0?uuid=u", body: Array(large.prefix(bound)))
        #expect(faults.journal(for: "sk").map(\.body) == [String(decoding: large.prefix(bound), as: UTF8.self)])
        _ = send(faults, "POST", "/publish/p/sk/0/c/0?uuid=u", body: Array("\"x\"".utf8))
        #expect(faults.journal(for: "sk").map(\.body) == ["\"x\""])
        #expect(faults.journal(for: "sk").map(\.sequence) == [4])
    }

    @Test func answersLandInTheirOwnRecordsAfterTheRingWrapped() {
        let faults = layer(capacity: 2)
        _ = send(faults, "/time/0?uuid=x")
        _ = send(faults, "/v2/subscribe/a/c/0?tt=0")
        let parked = FakeUpstream(response: nil)
        let waiting = layer(capacity: 2, upstream: parked)
        for index in 0..<5 { _ = send(waiting, "/v2/subscribe/a/c/0?tt=\(index)") }
        // Answer the oldest kept request (the fourth) and one the ring dropped (the first).
        let seen = parked.requests
        #expect(seen.count == 5)
        seen[3].responder.send(.respond(FaultFixtures.sent))
        seen[0].responder.send(.respond(HTTPResponse.pubNub(500, "{}")))
        let entries = waiting.journal(for: "a")
        #expect(entries.map(\.sequence) == [4, 5])
        #expect(entries.map(\.answer?.status) == [200, nil])
        #expect(entries.map(\.answer?.kind) == ["respond", nil])
        #expect(faults.journal(for: "a").map(\.answer?.status) == [200])
        // End the requests still parked, as every request on a connection ends (answered, or
        // cancelled when it closes): a relay and the responder it stands in front of keep each
        // other until then.
        for parkedRequest in seen { parkedRequest.responder.send(.close(.fin)) }
    }

    @Test func aRequestTheClientAbandonsIsJournaledAsCancelled() {
        let parked = FakeUpstream(response: nil)
        let faults = layer(upstream: parked)
        let outer = ActionSink().responder()
        faults.handle(FaultFixtures.request("GET", "/v2/subscribe/a/c/0?tt=5"), context: FaultFixtures.context(), responder: outer)
        #expect(faults.journal(for: "a").map(\.answer) == [nil])
        outer.cancel()
        #expect(parked.cancellations.load(ordering: .acquiring) == 1)
        #expect(faults.journal(for: "a").map(\.answer?.kind) == ["cancelled"])
        // A late answer after the cancellation changes nothing.
        parked.requests[0].responder.send(.respond(FaultFixtures.sent))
        #expect(faults.journal(for: "a").map(\.answer?.kind) == ["cancelled"])
    }

    @Test func aClearedJournalNeverTakesAnOldRequestsAnswer() {
        let parked = FakeUpstream(response: nil)
        let faults = layer(upstream: parked)
        _ = send(faults, "/v2/subscribe/a/c/0?tt=1")
        faults.clearJournal(for: "a")
        _ = send(faults, "/v2/subscribe/a/c/0?tt=2")
        parked.requests[0].responder.send(.respond(FaultFixtures.sent))
        #expect(faults.journal(for: "a").map(\.sequence) == [2])
        #expect(faults.journal(for: "a").map(\.answer) == [nil])
        parked.requests[1].responder.send(.respond(FaultFixtures.sent))
        #expect(faults.journal(for: "a").map(\.answer?.status) == [200])
    }

    @Test func plansAreIsolatedPerKeyWithAWildcardFallback() throws {
        let faults = layer()
        try faults.installPlan(FaultFixtures.plan([FaultRule(id: "a", fault: .close)]), for: "key-a")
        try faults.installPlan(FaultFixtures.plan([FaultRule(id: "any", fault: .reset)]), for: "*")
        #expect(send(faults, "/v2/subscribe/key-a/c/0") == [.close(.fin)])
        #expect(send(faults, "/v2/subscribe/key-b/c/0") == [.close(.reset)])
        faults.clearPlan(for: "*")
        #expect(send(faults, "/v2/subscribe/key-b/c/0") == [.respond(FaultFixtures.sent)])
        try faults.installPlan(FaultFixtures.plan([]), for: "key-a")  // replacing takes effect at once
        #expect(send(faults, "/v2/subscribe/key-a/c/0") == [.respond(FaultFixtures.sent)])
        faults.reset()
        #expect(faults.installedPlans().isEmpty)
        #expect(faults.journalKeys().isEmpty)
    }

    @Test func installRefusesInvalidPlans() throws {
        let faults = layer()
        #expect(throws: FaultPlanError(path: "rules[0].fault.afterMs", message: "missing required field")) {
            try faults.installPlan(json: Array(#"{"rules":[{"fault":{"kind":"close-long-poll"}}]}"#.utf8), for: "k")
        }
        #expect(try faults.installPlan(json: Array(#"{"seed":12,"rules":[]}"#.utf8), for: "k") == 12)
        faults.clearAllPlans()
        let bad = FaultPlan(rules: [FaultRule(id: "r", fault: .messages(count: 0, channel: nil))])
        #expect(throws: FaultPlanError(path: "rules[0].fault.count", message: "expected an integer 1...100000")) {
            try faults.installPlan(bad, for: "k")
        }
        #expect(faults.installedPlans().isEmpty)
    }

    @Test func planFilesInstallEveryPlan() throws {
        let faults = layer()
        let installed = try faults.installPlans(fromFile: Array(#"[{"subscribeKey":"a","seed":5,"rules":[]},{"rules":[]}]"#.utf8))
        #expect(installed.map(\.subscribeKey) == ["a", "*"])
        #expect(installed.map(\.seed) == [5, 77])
    }
}

extension FaultJournalTests {
    @Test func aResetLayerAttributesAndJournalsAfresh() {
        let faults = FaultLayer(upstream: FakeUpstream(response: FaultFixtures.sent), scheduler: ManualScheduler(), seedSource: { 77 })
        func send(_ target: String) {
            faults.handle(FaultFixtures.request("GET", target), context: FaultFixtures.context(), responder: ActionSink().responder())
        }
        send("/publish/p/key-a/0/c/0/1?uuid=alice")
        send("/time/0?uuid=alice")
        #expect(faults.journal(for: "key-a").map(\.endpoint) == [.publish, .time])
        faults.reset()
        send("/time/0?uuid=alice")
        #expect(faults.journal(for: "key-a").isEmpty)
        #expect(faults.journal(for: FaultLayer.unattributedKey).map(\.endpoint) == [.time])
        // The same uuid and key as before the reset: attributed again, journalled in a new ring.
        send("/publish/p/key-a/0/c/0/1?uuid=alice")
        send("/time/0?uuid=alice")
        #expect(faults.journal(for: "key-a").map(\.endpoint) == [.publish, .time])
        faults.clearAllJournals()
        send("/time/0?uuid=alice")
        #expect(faults.journal(for: "key-a").map(\.sequence) == [6])
    }
}
