// SPDX-License-Identifier: MIT
import HarnessJSON
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Subscribe faults and `close-long-poll`, through the layer.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct FaultLayerSubscribeTests {
    private let longPoll = "/v2/subscribe/sk/ch1,ch1-pnpres/0?tt=17000000010000000&tr=4&uuid=u"

    private func body(
        _ fault: Fault, target: String, encryptor: ForeignMessageEncryptor? = nil
    ) throws -> (status: Int, text: String) {
        let layer = FaultLayer(upstream: FakeUpstream(response: nil), scheduler: ManualScheduler(), encryptor: encryptor)
        try layer.installPlan(FaultFixtures.plan([FaultRule(id: "r", fault: fault)]), for: "sk")
        let sink = ActionSink()
        layer.handle(FaultFixtures.request("GET", target), context: FaultFixtures.context(), responder: sink.responder())
        guard case .respond(let response)? = sink.all.first else {
            Issue.record("expected one response, got \(sink.all)")
            return (0, "")
        }
        #expect(response.headers["Content-Type"] == HTTPResponse.pubNubContentType || response.status == 500)
        return (response.status, FaultFixtures.text(response.body))
    }

    @Test func messagesCarriesCountEnvelopesNewerThanTheCursor() throws {
        let (status, text) = try body(.messages(count: 120, channel: nil), target: longPoll)
        #expect(status == 200)
        let json = try JSONValue.parse(Array(text.utf8))
        #expect(json["t"] == .object([("t", .string("17000000010000120")), ("r", .int(4))]))
        guard case .array(let messages)? = json["m"] else {
            Issue.record("no m array")
            return
        }
        #expect(messages.count == 120)
        #expect(messages[0].jsonText
            == #"{"a":"1","f":0,"i":"fault-injector","s":1,"p":{"t":"17000000010000001","r":4},"k":"sk","c":"ch1","d":{"n":1,"text":"message 1 of 120"}}"#)
        #expect(messages[119]["p"]?["t"] == .string("17000000010000120"))
        #expect(text.hasPrefix(#"{"t":{"t":"17000000010000120","r":4},"m":[{"a":"1""#))
    }

    @Test func messagesOnAHandshakeStartAtArrivalAndFollowGroups() throws {
        let (_, text) = try body(.messages(count: 1, channel: nil), target: "/v2/subscribe/sk/,/0?channel-group=g&tt=0")
        #expect(text == #"{"t":{"t":"17000000002500001","r":1},"m":[{"a":"1","f":0,"i":"fault-injector","s":1,"p":{"t":"17000000002500001","r":1},"k":"sk","c":"g-member","d":{"n":1,"text":"message 1 of 1"},"b":"g"}]}"#)
        let (_, named) = try body(.messages(count: 1, channel: "other"), target: longPoll)
        #expect(try JSONValue.parse(Array(named.utf8))["m"] != nil)
        #expect(named.contains(#""c":"other""#))
    }

    @Test func cursorBackwardsAndRegionChange() throws {
        #expect(try body(.cursorBackwards(by: 600_000_000), target: longPoll).text
            == #"{"t":{"t":"16999999410000000","r":4},"m":[]}"#)
        #expect(try body(.cursorBackwards(by: 10), target: "/v2/subscribe/sk/c/0?tt=0").text
            == #"{"t":{"t":"17000000002499990","r":1},"m":[]}"#)
        #expect(try body(.regionChange(region: 27), target: longPoll).text
            == #"{"t":{"t":"17000000010000000","r":27},"m":[]}"#)
    }

    @Test func foreignEncryptedUsesTheEncryptor() throws {
        let encryptor: ForeignMessageEncryptor = { key, scheme, text in "\(key)|\(scheme)|\(text.count)" }
        let (status, text) = try body(
            .foreignEncrypted(cipherKey: "other-key", scheme: nil, message: nil), target: longPoll, encryptor: encryptor)
        #expect(status == 200)
        #expect(text == #"{"t":{"t":"17000000010000001","r":4},"m":[{"a":"1","f":0,"i":"fault-injector","s":1,"p":{"t":"17000000010000001","r":4},"k":"sk","c":"ch1","d":"other-key|aescbc|37"}]}"#)
        let missing = try body(.foreignEncrypted(cipherKey: "k", scheme: "legacy", message: "1"), target: longPoll)
        #expect(missing.status == 500)
        #expect(missing.text
            == #"{"error":true,"message":"foreign-encrypted: this server has no message encryptor configured","status":500,"service":"Admin"}"#)
    }

    @Test func closeLongPollClosesAndCancelsTheParkedPoll() throws {
        let scheduler = ManualScheduler()
        let upstream = FakeUpstream(response: nil)
        let layer = FaultLayer(upstream: upstream, scheduler: scheduler)
        try layer.installPlan(FaultFixtures.plan([FaultRule(id: "r", fault: .closeLongPoll(afterMs: 300, mode: .reset))]), for: "sk")
        let sink = ActionSink()
        layer.handle(FaultFixtures.request("GET", longPoll), context: FaultFixtures.context(), responder: sink.responder())
        #expect(upstream.requests.count == 1)
        #expect(sink.all.isEmpty)
        scheduler.advance(by: .milliseconds(299))
        #expect(sink.all.isEmpty)
        scheduler.advance(by: .milliseconds(1))
        #expect(sink.all == [.close(.reset)])
        #expect(upstream.cancellations.load(ordering: .relaxed) == 1)
        // A late answer of the service goes nowhere.
        #expect(upstream.requests[0].responder.send(.respond(FaultFixtures.sent)) == false)
        #expect(sink.all == [.close(.reset)])
    }

    @Test func closeLongPollLetsAnEarlyAnswerThroughAndStopsTheTimer() throws {
        let scheduler = ManualScheduler()
        let layer = FaultLayer(upstream: FakeUpstream(response: FaultFixtures.sent), scheduler: scheduler)
        try layer.installPlan(FaultFixtures.plan([FaultRule(id: "r", fault: .closeLongPoll(afterMs: 300, mode: .fin))]), for: "sk")
        let sink = ActionSink()
        layer.handle(FaultFixtures.request("GET", longPoll), context: FaultFixtures.context(), responder: sink.responder())
        #expect(sink.all == [.respond(FaultFixtures.sent)])
        #expect(scheduler.pendingCount == 0)
        scheduler.advance(by: .seconds(1))
        #expect(sink.all == [.respond(FaultFixtures.sent)])
    }

    @Test func clientCancellationReachesTheServiceThroughTransforms() throws {
        let scheduler = ManualScheduler()
        let upstream = FakeUpstream(response: nil)
        let layer = FaultLayer(upstream: upstream, scheduler: scheduler)
        try layer.installPlan(FaultFixtures.plan([
            FaultRule(id: "slow", match: RequestMatch(channel: "ch1"), fault: .drip(chunkSize: 1, intervalMs: 1)),
            FaultRule(id: "close", match: RequestMatch(channel: "ch2"), fault: .closeLongPoll(afterMs: 100, mode: .fin)),
        ]), for: "sk")
        for target in ["/v2/subscribe/sk/ch1/0?tt=5", "/v2/subscribe/sk/ch2/0?tt=5"] {
            let responder = ActionSink().responder()
            layer.handle(FaultFixtures.request("GET", target), context: FaultFixtures.context(), responder: responder)
            responder.cancel()
        }
        #expect(upstream.cancellations.load(ordering: .relaxed) == 2)
        #expect(scheduler.pendingCount == 0)
    }
}
