// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct SubscribeTests {
    @Test func handshakeAnswersAtOnceWithTFirst() {
        let h = ServiceHarness()
        #expect(h.call("/v2/subscribe/demo/ch1/0?tt=0") == (200, "{\"t\":{\"t\":\"\(serviceFirstTT)\",\"r\":12},\"m\":[]}"))
        #expect(h.call("/v2/subscribe/demo/ch1/0") == (200, "{\"t\":{\"t\":\"\(serviceFirstTT + 1)\",\"r\":12},\"m\":[]}"))
    }

    @Test func longPollCarriesEveryEnvelopeField() {
        let h = ServiceHarness()
        let (_, handshake) = h.call("/v2/subscribe/demo/ch1/0?tt=0")
        let cursor = ServiceHarness.cursor(handshake)
        let poll = h.send("/v2/subscribe/demo/ch1/0?tt=\(cursor)&tr=12")
        #expect(poll.actions.isEmpty)
        #expect(h.service.parkedLongPolls(subscribeKey: "demo") == 1)
        let meta = PercentDecoding.encode("{\"m\": 1}")
        h.publish("ch1", "{\"text\": \"hi\"}",
                  query: "uuid=pub&meta=\(meta)&seqn=7&custom_message_type=test-type&ptto=15808218148795199")
        #expect(poll.status == 200)
        #expect(poll.body == "{\"t\":{\"t\":\"\(serviceFirstTT + 1)\",\"r\":12},\"m\":[{\"a\":\"2\",\"f\":0,\"i\":\"pub\",\"s\":7,"
            + "\"p\":{\"t\":\"\(serviceFirstTT + 1)\",\"r\":12},\"o\":{\"t\":\"15808218148795199\"},\"k\":\"demo\",\"c\":\"ch1\","
            + "\"u\":{\"m\": 1},\"d\":{\"text\": \"hi\"},\"cmt\":\"test-type\"}]}")
        #expect(h.service.parkedLongPolls(subscribeKey: "demo") == 0)
        #expect(h.scheduler.pending == 0)
    }

    @Test func signalsCarryEAndDefaultSequenceIsOne() {
        let h = ServiceHarness()
        h.call("/signal/demo/demo/0/ch/0/%22s%22?uuid=x&custom_message_type=typ1")
        h.publish("ch", "\"m\"", query: "uuid=y")
        #expect(h.call("/v2/subscribe/demo/ch/0?tt=1") == (200, "{\"t\":{\"t\":\"\(serviceFirstTT + 1)\",\"r\":12},\"m\":["
            + "{\"a\":\"2\",\"f\":0,\"e\":1,\"i\":\"x\",\"p\":{\"t\":\"\(serviceFirstTT)\",\"r\":12},\"k\":\"demo\",\"c\":\"ch\",\"d\":\"s\",\"cmt\":\"typ1\"},"
            + "{\"a\":\"2\",\"f\":0,\"i\":\"y\",\"s\":1,\"p\":{\"t\":\"\(serviceFirstTT + 1)\",\"r\":12},\"k\":\"demo\",\"c\":\"ch\",\"d\":\"m\"}]}"))
    }

    @Test func anOlderCursorReceivesEveryNewerBufferedMessageInOrder() {
        let h = ServiceHarness()
        let t0 = h.publish("a", "0")
        h.publish("b", "1")
        h.publish("a", "2")
        h.publish("c", "3")
        let (_, body) = h.call("/v2/subscribe/demo/a,b/0?tt=\(t0)")
        #expect(body == "{\"t\":{\"t\":\"\(serviceFirstTT + 2)\",\"r\":12},\"m\":["
            + "{\"a\":\"2\",\"f\":0,\"i\":\"pub\",\"s\":1,\"p\":{\"t\":\"\(serviceFirstTT + 1)\",\"r\":12},\"k\":\"demo\",\"c\":\"b\",\"d\":1},"
            + "{\"a\":\"2\",\"f\":0,\"i\":\"pub\",\"s\":1,\"p\":{\"t\":\"\(serviceFirstTT + 2)\",\"r\":12},\"k\":\"demo\",\"c\":\"a\",\"d\":2}]}")
        let (_, all) = h.call("/v2/subscribe/demo/a,b,c/0?tt=1")
        #expect(all.split(separator: "\"c\":").count == 5)
        #expect(ServiceHarness.cursor(all) == String(serviceFirstTT + 3))
    }

    @Test func responsesAreCappedAndTheCursorPointsAtTheLastDelivered() {
        let h = ServiceHarness(PubNubServiceConfiguration(maxMessagesPerSubscribeResponse: 2))
        for index in 0..<3 { h.publish("ch", String(index)) }
        let (_, first) = h.call("/v2/subscribe/demo/ch/0?tt=1")
        #expect(ServiceHarness.cursor(first) == String(serviceFirstTT + 1))
        let (_, second) = h.call("/v2/subscribe/demo/ch/0?tt=\(serviceFirstTT + 1)")
        #expect(second.hasSuffix(",\"d\":2}]}"))
        #expect(ServiceHarness.cursor(second) == String(serviceFirstTT + 2))
    }

    @Test func groupDeliverySetsBToTheGroup() {
        let h = ServiceHarness()
        h.call("/v1/channel-registration/sub-key/demo/channel-group/g1?add=ch1,ch2")
        let poll = h.send("/v2/subscribe/demo/,/0?channel-group=g1&tt=\(serviceFirstTT - 1)")
        #expect(poll.actions.isEmpty)
        h.publish("ch3", "\"other\"")
        #expect(poll.actions.isEmpty)
        h.publish("ch2", "\"hey\"")
        #expect(poll.body == "{\"t\":{\"t\":\"\(serviceFirstTT + 1)\",\"r\":12},\"m\":[{\"a\":\"2\",\"f\":0,\"i\":\"pub\",\"s\":1,"
            + "\"p\":{\"t\":\"\(serviceFirstTT + 1)\",\"r\":12},\"k\":\"demo\",\"c\":\"ch2\",\"d\":\"hey\",\"b\":\"g1\"}]}")
    }

    @Test func groupChangesApplyToParkedPolls() {
        let h = ServiceHarness()
        let registry = "/v1/channel-registration/sub-key/demo/channel-group"
        h.call(registry + "/g?add=a,b")
        let poll = h.send("/v2/subscribe/demo/,/0?channel-group=g&tt=\(serviceFirstTT - 1)")
        h.call(registry + "/g?remove=a")
        h.publish("a", "1")
        #expect(poll.actions.isEmpty)
        h.call(registry + "/g/remove")
        h.publish("b", "2")
        #expect(poll.actions.isEmpty)
        h.call(registry + "/g?add=c")
        h.publish("c", "3")
        #expect(poll.body?.hasSuffix("\"c\":\"c\",\"d\":3,\"b\":\"g\"}]}") == true)
    }

    @Test func storeZeroIsLiveButNotStoredAndFireIsNeither() {
        let h = ServiceHarness()
        h.publish("ch", "1", query: "store=0")
        h.publish("ch", "2", query: "store=0&norep=true")
        h.publish("ch", "3", query: "ttl=1")
        let (_, live) = h.call("/v2/subscribe/demo/ch/0?tt=1")
        #expect(live.contains("\"d\":1}") && !live.contains("\"d\":2}") && live.contains("\"d\":3}"))
        #expect(h.call("/v2/history/sub-key/demo/channel/ch").1 == "[[3],\(serviceFirstTT + 2),\(serviceFirstTT + 2)]")
        h.time.advance(seconds: 3600)
        #expect(h.call("/v2/history/sub-key/demo/channel/ch").1 == "[[],0,0]")
    }

    @Test func idleLongPollAnswersEmptyWithTheSameCursor() {
        let h = ServiceHarness(PubNubServiceConfiguration(longPollIdleTimeout: .seconds(5)))
        let poll = h.send("/v2/subscribe/demo/ch/0?tt=15000000000000000")
        h.scheduler.advance(by: .seconds(4))
        #expect(poll.actions.isEmpty)
        h.scheduler.advance(by: .seconds(1))
        #expect(poll.status == 200)
        #expect(poll.body == "{\"t\":{\"t\":\"15000000000000000\",\"r\":12},\"m\":[]}")
        #expect(h.service.parkedLongPolls(subscribeKey: "demo") == 0)
    }

    @Test func cancelledLongPollIsForgotten() {
        let h = ServiceHarness()
        let poll = h.send("/v2/subscribe/demo/ch/0?tt=\(serviceFirstTT + 100)")
        #expect(h.service.parkedLongPolls(subscribeKey: "demo") == 1)
        #expect(h.scheduler.pending == 1)
        poll.responder.cancel()
        #expect(h.service.parkedLongPolls(subscribeKey: "demo") == 0)
        #expect(h.scheduler.pending == 0)
        h.publish("ch", "1")
        #expect(poll.actions.isEmpty)
    }

    @Test func oneMessageWakesManyWaitersWithTheSameBody() {
        let h = ServiceHarness()
        let polls = (0..<2000).map { _ in h.send("/v2/subscribe/demo/ch/0?tt=\(serviceFirstTT - 1)") }
        #expect(h.service.parkedLongPolls(subscribeKey: "demo") == 2000)
        h.publish("ch", "\"x\"")
        let bodies = Set(polls.compactMap(\.body))
        #expect(polls.allSatisfy { $0.actions.count == 1 })
        #expect(bodies == ["{\"t\":{\"t\":\"\(serviceFirstTT)\",\"r\":12},\"m\":[{\"a\":\"2\",\"f\":0,\"i\":\"pub\",\"s\":1,"
            + "\"p\":{\"t\":\"\(serviceFirstTT)\",\"r\":12},\"k\":\"demo\",\"c\":\"ch\",\"d\":\"x\"}]}"])
        #expect(h.scheduler.pending == 0)
    }

    @Test func resetAnswersParkedPollsAndForgetsMessages() {
        let h = ServiceHarness()
        h.publish("ch", "1")
        let poll = h.send("/v2/subscribe/demo/other/0?tt=42")
        h.service.reset(subscribeKey: "demo")
        #expect(poll.body == "{\"t\":{\"t\":\"42\",\"r\":12},\"m\":[]}")
        #expect(h.call("/v2/history/sub-key/demo/channel/ch").1 == "[[],0,0]")
    }
}
