// SPDX-License-Identifier: MIT
import Testing
@testable import MockPubNubServer

@Suite struct HistoryTests {
    /// Publishes "m0"…"m4" on `ch` (timetokens firstTT…firstTT+4), m2 with meta.
    private func seeded() -> Harness {
        let h = Harness()
        for index in 0..<5 {
            let meta = index == 2 ? "&meta=" + PercentDecoding.encode("{\"time\":1}") : ""
            h.publish("ch", "\"m\(index)\"", query: "uuid=pub" + meta)
        }
        return h
    }

    private func tt(_ offset: UInt64) -> UInt64 { firstTT + offset }

    @Test func historyV2Variants() {
        let h = seeded()
        let base = "/v2/history/sub-key/demo/channel/ch"
        #expect(h.call(base) == (200, "[[\"m0\",\"m1\",\"m2\",\"m3\",\"m4\"],\(tt(0)),\(tt(4))]"))
        #expect(h.call(base + "?count=2") == (200, "[[\"m3\",\"m4\"],\(tt(3)),\(tt(4))]"))
        #expect(h.call(base + "?count=2&reverse=true") == (200, "[[\"m0\",\"m1\"],\(tt(0)),\(tt(1))]"))
        #expect(h.call(base + "?start=\(tt(3))") == (200, "[[\"m0\",\"m1\",\"m2\"],\(tt(0)),\(tt(2))]"))
        #expect(h.call(base + "?end=\(tt(3))") == (200, "[[\"m3\",\"m4\"],\(tt(3)),\(tt(4))]"))
        #expect(h.call(base + "?start=\(tt(3))&end=\(tt(1))&include_token=true")
            == (200, "[[{\"message\":\"m1\",\"timetoken\":\(tt(1))},{\"message\":\"m2\",\"timetoken\":\(tt(2))}],\(tt(1)),\(tt(2))]"))
        #expect(h.call(base + "?start=\(tt(3))&end=\(tt(1))&include_meta=true")
            == (200, "[[{\"message\":\"m1\",\"meta\":\"\"},{\"message\":\"m2\",\"meta\":{\"time\":1}}],\(tt(1)),\(tt(2))]"))
        #expect(h.call(base + "?count=1&include_token=true&string_message_token=true")
            == (200, "[[{\"message\":\"m4\",\"timetoken\":\"\(tt(4))\"}],\"\(tt(4))\",\"\(tt(4))\"]"))
        #expect(h.call("/v2/history/sub-key/demo/channel/none") == (200, "[[],0,0]"))
        #expect(h.call(base + "?start=abc").0 == 400)
    }

    @Test func fetchMessagesV3() {
        let h = seeded()
        #expect(h.call("/v3/history/sub-key/demo/channel/ch?max=2")
            == (200, "{\"status\": 200, \"error\": false, \"error_message\": \"\", \"channels\": {\"ch\":["
                + "{\"message\": \"m3\", \"timetoken\": \"\(tt(3))\"}, {\"message\": \"m4\", \"timetoken\": \"\(tt(4))\"}]}}"))
        #expect(h.call("/v3/history/sub-key/demo/channel/ch?max=1&end=\(tt(2))&start=\(tt(3))&include_meta=true&include_uuid=true&include_message_type=true")
            == (200, "{\"status\": 200, \"error\": false, \"error_message\": \"\", \"channels\": {\"ch\":["
                + "{\"message\": \"m2\", \"timetoken\": \"\(tt(2))\", \"meta\": {\"time\":1}, \"uuid\": \"pub\", \"message_type\": null}]}}"))
        #expect(h.call("/v3/history-with-actions/sub-key/demo/channel/ch?max=1")
            == (200, "{\"status\": 200, \"error\": false, \"error_message\": \"\", \"channels\": {\"ch\":["
                + "{\"message\": \"m4\", \"timetoken\": \"\(tt(4))\", \"actions\": {}}]}}"))
        #expect(h.call("/v3/history/sub-key/demo/channel/none") == (200, "{\"status\": 200, \"error\": false, \"error_message\": \"\", \"channels\": {}}"))
        #expect(h.call("/v3/history/sub-key/demo/channel/ch?start=x")
            == (400, "{\"status\": 400, \"error\": true, \"error_message\": \"Invalid Arguments\", \"channels\": {}}"))
    }

    @Test func fetchLimitsPerChannelCount() {
        let h = Harness()
        for index in 0..<120 { h.publish("a", String(index)) }
        h.publish("b", "1")
        let single = h.call("/v3/history/sub-key/demo/channel/a").1
        #expect(single.split(separator: "\"message\"").count - 1 == 100)
        #expect(single.contains("{\"message\": 20, ") && !single.contains("{\"message\": 19, "))
        let several = h.call("/v3/history/sub-key/demo/channel/a,b?max=500").1
        #expect(several.split(separator: "\"message\"").count - 1 == 26)
        #expect(several.hasSuffix("\"b\":[{\"message\": 1, \"timetoken\": \"\(firstTT + 120)\"}]}}"))
    }

    @Test func deleteRemovesTheRangeAndCountsFollow() {
        let h = seeded()
        #expect(h.call("/v3/history/sub-key/demo/channel/ch?start=\(tt(1))&end=\(tt(2))", method: "DELETE")
            == (200, "{\"status\": 200, \"error\": false, \"error_message\": \"\"}"))
        #expect(h.call("/v2/history/sub-key/demo/channel/ch").1 == "[[\"m0\",\"m2\",\"m3\",\"m4\"],\(tt(0)),\(tt(4))]")
        #expect(h.call("/v3/history/sub-key/demo/message-counts/ch,none?timetoken=\(tt(2))")
            == (200, "{\"status\": 200, \"error\": false, \"error_message\": \"\", \"channels\": {\"ch\":2,\"none\":0}}"))
        #expect(h.call("/v3/history/sub-key/demo/message-counts/ch,none?channelsTimetoken=\(tt(0)),1")
            == (200, "{\"status\": 200, \"error\": false, \"error_message\": \"\", \"channels\": {\"ch\":3,\"none\":0}}"))
        #expect(h.call("/v3/history/sub-key/demo/message-counts/ch,none?channelsTimetoken=1,2,3")
            == (400, "{\"status\": 400, \"error\": true, \"error_message\": \"Invalid Arguments\", \"channels\": {}}"))
        #expect(h.call("/v3/history/sub-key/demo/message-counts/ch").0 == 400)
        h.call("/v3/history/sub-key/demo/channel/ch?end=\(tt(3))", method: "DELETE")
        #expect(h.call("/v2/history/sub-key/demo/channel/ch").1 == "[[\"m0\",\"m2\"],\(tt(0)),\(tt(2))]")
    }

    @Test func bufferKeepsTheConfiguredNumberOfMessages() {
        let h = Harness(PubNubServiceConfiguration(historyLimitPerChannel: 3))
        for index in 0..<5 { h.publish("ch", String(index)) }
        #expect(h.call("/v2/history/sub-key/demo/channel/ch").1 == "[[2,3,4],\(firstTT + 2),\(firstTT + 4)]")
    }

    @Test func trimmedLogsStayOrderedAcrossCompaction() {
        let h = Harness(PubNubServiceConfiguration(historyLimitPerChannel: 70))
        for index in 0..<250 { h.publish("ch", String(index)) }
        #expect(h.call("/v2/history/sub-key/demo/channel/ch?count=2&reverse=true").1
            == "[[180,181],\(firstTT + 180),\(firstTT + 181)]")
        let (_, body) = h.call("/v2/subscribe/demo/ch/0?tt=\(firstTT + 247)")
        #expect(body.hasSuffix("\"d\":248},{\"a\":\"2\",\"f\":0,\"i\":\"pub\",\"s\":1,\"p\":{\"t\":\"\(firstTT + 249)\",\"r\":12},\"k\":\"demo\",\"c\":\"ch\",\"d\":249}]}"))
    }
}

@Suite struct ChannelGroupTests {
    private let base = "/v1/channel-registration/sub-key/demo/channel-group"
    private let ok = "{\"status\": 200, \"message\": \"OK\", \"service\": \"channel-registry\", \"error\": false}"

    @Test func addListRemoveDelete() {
        let h = Harness()
        #expect(h.call(base + "/cg1?add=a,b,c") == (200, ok))
        #expect(h.call(base + "/cg0?add=z") == (200, ok))
        #expect(h.call(base + "/cg1") == (200, "{\"status\": 200, \"payload\": {\"channels\": [\"a\", \"b\", \"c\"], \"group\": \"cg1\"}, \"service\": \"channel-registry\", \"error\": false}"))
        #expect(h.call(base) == (200, "{\"status\": 200, \"payload\": {\"namespace\": \"\", \"groups\": [\"cg0\", \"cg1\"]}, \"service\": \"channel-registry\", \"error\": false}"))
        #expect(h.call(base + "/cg1?remove=b") == (200, ok))
        #expect(h.call(base + "/cg1").1.contains("[\"a\", \"c\"]"))
        #expect(h.call(base + "/cg1/remove") == (200, ok))
        #expect(h.call(base).1.contains("[\"cg0\"]"))
        #expect(h.call(base + "/cg1").1.contains("\"channels\": []"))
        #expect(h.call(base + "/cg1?add=a%2Fb") == (400, "{\"status\": 400, \"message\": \"Reserved character in input parameters.\", \"service\": \"channel-registry\", \"error\": true}"))
    }
}
