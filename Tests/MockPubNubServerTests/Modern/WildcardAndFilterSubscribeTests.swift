// SPDX-License-Identifier: MIT
import Testing
@testable import MockPubNubServer

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct WildcardAndFilterSubscribeTests {
    private let after = "tt=\(serviceFirstTT - 1)"

    @Test func wildcardReceivesChildChannelsWithTheSubscriptionInB() {
        let h = ServiceHarness()
        let poll = h.send("/v2/subscribe/demo/sports.*/0?\(after)&uuid=fan")
        h.publish("news.today", "1")
        #expect(poll.actions.isEmpty)
        h.publish("sports.tennis", "\"ace\"")
        #expect(poll.body?.hasSuffix("\"c\":\"sports.tennis\",\"d\":\"ace\",\"b\":\"sports.*\"}]}") == true)
        // Deeper channels match too (INFERRED), and a catch-up sees both.
        h.publish("sports.tennis.wimbledon", "2")
        let catchUp = h.call("/v2/subscribe/demo/sports.*/0?\(after)")
        #expect(catchUp.1.contains("\"c\":\"sports.tennis\""))
        #expect(catchUp.1.contains("\"c\":\"sports.tennis.wimbledon\",\"d\":2,\"b\":\"sports.*\"}"))
    }

    @Test func twoLevelWildcardAndDirectChannelTogether() {
        let h = ServiceHarness()
        let poll = h.send("/v2/subscribe/demo/a.b.*,a.b.c/0?\(after)")
        h.publish("a.x", "0")
        #expect(poll.actions.isEmpty)
        h.publish("a.b.c", "1")
        // The direct subscription wins: no `b`.
        #expect(poll.body?.hasSuffix("\"c\":\"a.b.c\",\"d\":1}]}") == true)
    }

    @Test func invalidWildcardsAndDisabledFeatureAreRefused() {
        let refused = (400, "{\"status\": 400, \"message\": \"Reserved character in input parameters.\", \"service\": \"channel-registry\", \"error\": true}")
        let h = ServiceHarness()
        for name in ["*", "a.*.b", "a.b.c.*", "a*", ".*", "a..*"] {
            #expect(h.call("/v2/subscribe/demo/\(name)/0") == refused, "\(name)")
        }
        #expect(h.call("/v2/subscribe/demo/a.*/0?channel-group=g.*") == refused)
        #expect(h.call("/v2/subscribe/demo/a.*/0").0 == 200)
        #expect(h.call("/v2/presence/sub-key/demo/channel/a.*/heartbeat?uuid=u").0 == 200)
        // Publishing to a wildcard name is refused.
        #expect(h.call("/publish/demo/demo/0/a.*/0/1") == refused)
        var configuration = PubNubServiceConfiguration()
        configuration.featuresByKey["closed"] = KeyFeatures(wildcardSubscribe: false)
        let off = ServiceHarness(configuration)
        #expect(off.call("/v2/subscribe/closed/a.*/0") == refused)
        #expect(off.call("/v2/subscribe/demo/a.*/0").0 == 200)
    }

    @Test func wildcardPresenceReadsChildPresenceChannels() {
        let h = ServiceHarness()
        let watcher = h.send("/v2/subscribe/demo/room.*-pnpres/0?\(after)&uuid=watcher")
        h.call("/v2/subscribe/demo/room.1/0?uuid=alice")
        #expect(watcher.body?.contains("\"c\":\"room.1-pnpres\"") == true)
        #expect(watcher.body?.contains("\"b\":\"room.*-pnpres\"") == true)
        #expect(watcher.body?.contains("\"action\":\"join\",\"uuid\":\"alice\"") == true)
    }

    @Test func filterSelectsByMetaAndPublisher() {
        let h = ServiceHarness()
        let expr = PercentDecoding.encode("meta.level > 2 && uuid != 'bot'")
        let poll = h.send("/v2/subscribe/demo/ch/0?\(after)&filter-expr=\(expr)")
        h.publish("ch", "\"low\"", query: "uuid=pub&meta=" + PercentDecoding.encode("{\"level\":1}"))
        h.publish("ch", "\"bot\"", query: "uuid=bot&meta=" + PercentDecoding.encode("{\"level\":9}"))
        h.publish("ch", "\"none\"")
        #expect(poll.actions.isEmpty)
        h.publish("ch", "\"high\"", query: "uuid=pub&meta=" + PercentDecoding.encode("{\"level\":3}"))
        #expect(poll.body?.contains("\"d\":\"high\"") == true)
        #expect(poll.body?.contains("\"low\"") == false)
        // An unfiltered subscriber on the same channel sees all four.
        let all = h.call("/v2/subscribe/demo/ch/0?\(after)")
        #expect(["low", "bot", "none", "high"].allSatisfy { all.1.contains("\"d\":\"\($0)\"") })
    }

    @Test func aFilterThatMatchesNothingLeavesThePollParkedAndPresenceThrough() {
        let h = ServiceHarness()
        let expr = PercentDecoding.encode("meta.never == 'x'")
        let poll = h.send("/v2/subscribe/demo/ch,ch-pnpres/0?\(after)&filter-expr=\(expr)")
        for index in 0..<5 { h.publish("ch", String(index)) }
        #expect(poll.actions.isEmpty)
        h.call("/v2/subscribe/demo/ch/0?uuid=other")
        #expect(poll.body?.contains("\"action\":\"join\",\"uuid\":\"other\"") == true)
    }

    @Test func invalidFilterIsRefusedWith481OrMatchesNothing() {
        let h = ServiceHarness()
        let bad = PercentDecoding.encode("meta.a ==")
        let refused = h.call("/v2/subscribe/demo/ch/0?filter-expr=\(bad)")
        #expect(refused == (481, "{\"message\":\"Invalid filter expression: unexpected end of expression at offset 9\","
            + "\"error\":true,\"service\":\"Balancer\",\"status\":481}"))
        var configuration = PubNubServiceConfiguration()
        configuration.features.invalidFilter = .matchNothing
        let lenient = ServiceHarness(configuration)
        let poll = lenient.send("/v2/subscribe/demo/ch/0?\(after)&filter-expr=\(bad)")
        // The poll stays parked: the client goes away at the end, which cancels its idle timer.
        defer { poll.responder.cancel() }
        lenient.publish("ch", "1")
        #expect(poll.actions.isEmpty)
    }
}
