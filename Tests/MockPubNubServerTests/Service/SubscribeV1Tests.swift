// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// The legacy subscribe `GET /subscribe/{sub}/{channels}/{callback}/{tt}` on the v2 machinery.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct SubscribeV1Tests {
    @Test func handshakeReturnsAnEmptyArrayAndTheCurrentTimetoken() {
        let h = ServiceHarness()
        #expect(h.call("/subscribe/demo/ch1/0/0") == (200, "[[],\"\(serviceFirstTT)\"]"))
        #expect(h.call("/subscribe/demo/a,b/0/0") == (200, "[[],\"\(serviceFirstTT + 1)\",\"\"]"))
        #expect(h.call("/subscribe/demo/,/0/0?channel-group=g") == (200, "[[],\"\(serviceFirstTT + 2)\",\"\",\"\"]"))
    }

    @Test func aJSONPCallbackWrapsTheArray() {
        let h = ServiceHarness()
        #expect(h.call("/subscribe/demo/ch1/cb_1.x/0") == (200, "cb_1.x([[],\"\(serviceFirstTT)\"])"))
        #expect(h.call("/subscribe/demo/ch1/alert(1)%3B/0").0 == 400)
    }

    @Test func aParkedPollIsAnsweredWithThePayloads() {
        let h = ServiceHarness()
        let poll = h.send("/subscribe/demo/ch1/0/\(serviceFirstTT - 1)")
        #expect(poll.actions.isEmpty)
        #expect(h.service.parkedLongPolls(subscribeKey: "demo") == 1)
        h.publish("ch1", "{\"text\": \"hi\"}")
        #expect(poll.status == 200)
        #expect(poll.body == "[[{\"text\": \"hi\"}],\"\(serviceFirstTT)\"]")
        #expect(h.scheduler.pending == 0)
    }

    @Test func severalChannelsAddTheChannelOfEachMessage() {
        let h = ServiceHarness()
        let t0 = h.publish("a", "0")
        h.publish("b", "1")
        h.publish("a", "\"two\"")
        h.publish("c", "3")
        #expect(h.call("/subscribe/demo/a,b/0/\(t0)")
            == (200, "[[1,\"two\"],\"\(serviceFirstTT + 2)\",\"b,a\"]"))
    }

    @Test func groupsAddTheMatchAndTheChannelOfEachMessage() {
        let h = ServiceHarness()
        h.call("/v1/channel-registration/sub-key/demo/channel-group/g1?add=ch1,ch2")
        let poll = h.send("/subscribe/demo/direct/0/\(serviceFirstTT - 1)?channel-group=g1")
        h.publish("ch2", "\"via group\"")
        #expect(poll.body == "[[\"via group\"],\"\(serviceFirstTT)\",\"g1\",\"ch2\"]")
        h.publish("direct", "5")
        #expect(h.call("/subscribe/demo/direct/0/\(serviceFirstTT)?channel-group=g1")
            == (200, "[[5],\"\(serviceFirstTT + 1)\",\"direct\",\"direct\"]"))
    }

    @Test func presenceChannelsCarryThePresenceEvents() throws {
        let h = ServiceHarness()
        let (_, handshake) = h.call("/subscribe/demo/ch1,ch1-pnpres/0/0?uuid=watcher")
        let cursor = try #require(UInt64(handshake.split(separator: "\"")[1]))
        let (status, body) = h.call("/subscribe/demo/ch1,ch1-pnpres/0/\(cursor - 1)?uuid=watcher")
        #expect(status == 200)
        // The presence event's `d` object as the v2 envelope carries it, then the cursor and the channel.
        #expect(body.hasPrefix("[[{\"action\":\"join\",\"uuid\":\"watcher\","))
        #expect(body.contains("\"occupancy\":1}],\""))
        #expect(body.hasSuffix("\",\"ch1-pnpres\"]"))
    }

    @Test func signalsAreNotDeliveredToV1Subscribers() {
        let h = ServiceHarness()
        h.call("/signal/demo/demo/0/ch/0/%22s%22?uuid=x")
        h.publish("ch", "\"m\"")
        #expect(h.call("/subscribe/demo/ch/0/1") == (200, "[[\"m\"],\"\(serviceFirstTT + 1)\"]"))
    }

    @Test func idleTimeoutAndResetAnswerInTheV1Shape() {
        let h = ServiceHarness(PubNubServiceConfiguration(longPollIdleTimeout: .seconds(5)))
        let idle = h.send("/subscribe/demo/a,b/0/15000000000000000")
        h.scheduler.advance(by: .seconds(5))
        #expect(idle.body == "[[],\"15000000000000000\",\"\"]")
        let parked = h.send("/subscribe/demo/ch/cb/42")
        h.service.reset(subscribeKey: "demo")
        #expect(parked.body == "cb([[],\"42\"])")
    }

    @Test func v1AndV2WaitersOnOneChannelEachGetTheirShape() {
        let h = ServiceHarness()
        let v1 = h.send("/subscribe/demo/ch/0/\(serviceFirstTT - 1)")
        let v2 = h.send("/v2/subscribe/demo/ch/0?tt=\(serviceFirstTT - 1)")
        h.publish("ch", "7")
        #expect(v1.body == "[[7],\"\(serviceFirstTT)\"]")
        #expect(v2.body?.hasPrefix("{\"t\":{\"t\":\"\(serviceFirstTT)\",\"r\":12},\"m\":[{") == true)
    }

    @Test func badTimetokensAndMissingChannelsAre400() {
        let h = ServiceHarness()
        #expect(h.call("/subscribe/demo/ch/0/abc").0 == 400)
        #expect(h.call("/subscribe/demo/,/0/0").0 == 400)
        #expect(h.call("/subscribe/demo/ch/0").0 == 404)
    }

    @Test func theRouteIsClassifiedAsSubscribe() throws {
        let route = try PubNubRoute.classify(HTTPRequest(method: "GET", target: "/subscribe/sub-c/a,b/cb/123?channel-group=g&uuid=u")).get()
        #expect(route.endpoint == .subscribe)
        #expect(route.subscribeKey == "sub-c")
        #expect(route.channels == ["a", "b"])
        #expect(route.channelGroups == ["g"])
        #expect(route.uuid == "u")
        #expect(route.subscribeV1 == SubscribeV1Request(callback: "cb", timetoken: "123"))
    }
}
