// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct HistoryTests {
    /// Publishes "m0"…"m4" on `ch` (timetokens serviceFirstTT…serviceFirstTT+4), m2 with meta.
    private func seeded() -> ServiceHarness {
        let h = ServiceHarness()
        for index in 0..<5 {
            let meta = index == 2 ? "&meta=" + PercentDecoding.encode("{\"time\":1}") : ""
            h.publish("ch", "\"m\(index)\"", query: "uuid=pub" + meta)
        }
        return h
    }

    private func tt(_ offset: UInt64) -> UInt64 { serviceFirstTT + offset }

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
                + "{\"message\":\"m3\",\"timetoken\":\"\(tt(3))\"},{\"message\":\"m4\",\"timetoken\":\"\(tt(4))\"}]}}"))
        #expect(h.call("/v3/history/sub-key/demo/channel/ch?max=1&end=\(tt(2))&start=\(tt(3))&include_meta=true&include_uuid=true&include_message_type=true")
            == (200, "{\"status\": 200, \"error\": false, \"error_message\": \"\", \"channels\": {\"ch\":["
                + "{\"message\":\"m2\",\"timetoken\":\"\(tt(2))\",\"meta\":{\"time\":1},\"message_type\":null,\"uuid\":\"pub\"}]}}"))
        // With actions (spaced, recorded key order): messages without actions have no `actions` key.
        #expect(h.call("/v3/history-with-actions/sub-key/demo/channel/ch?max=5&include_uuid=1&include_message_type=1")
            == (200, "{\"status\": 200, \"channels\": {\"ch\": [" + (0..<5).map {
                "{\"timetoken\": \"\(tt(UInt64($0)))\", \"uuid\": \"pub\", \"message\": \"m\($0)\", \"message_type\": null}" }
                .joined(separator: ", ") + "]}, \"error_message\": \"\", \"error\": false}"))
        // A truncated page names the next (older) one.
        #expect(h.call("/v3/history-with-actions/sub-key/demo/channel/ch?max=1&end=\(tt(1))") == (200, "{\"status\": 200, \"channels\": "
            + "{\"ch\": [{\"timetoken\": \"\(tt(4))\", \"message\": \"m4\"}]}, \"more\": {\"url\": "
            + "\"/v3/history-with-actions/sub-key/demo/channel/ch?start=\(tt(4))&max=1&end=\(tt(1))\", \"start\": \"\(tt(4))\", \"max\": 1}, "
            + "\"error_message\": \"\", \"error\": false}"))
        #expect(h.call("/v3/history/sub-key/demo/channel/none") == (200, "{\"status\": 200, \"error\": false, \"error_message\": \"\", \"channels\": {}}"))
        #expect(h.call("/v3/history/sub-key/demo/channel/ch?start=x")
            == (400, "{\"status\": 400, \"error\": true, \"error_message\": \"Invalid Arguments\", \"channels\": {}}"))
    }

    @Test func fetchLimitsPerChannelCount() {
        let h = ServiceHarness()
        for index in 0..<120 { h.publish("a", String(index)) }
        h.publish("b", "1")
        let single = h.call("/v3/history/sub-key/demo/channel/a").1
        #expect(single.split(separator: "\"message\"").count - 1 == 100)
        #expect(single.contains("{\"message\":20,") && !single.contains("{\"message\":19,"))
        let several = h.call("/v3/history/sub-key/demo/channel/a,b?max=500").1
        #expect(several.split(separator: "\"message\"").count - 1 == 26)
        #expect(several.hasSuffix(",\"b\":[{\"message\":1,\"timetoken\":\"\(serviceFirstTT + 120)\"}]}}"))
    }

    /// Recorded: delete with both bounds removes `start < tt <= end`; counts carry a `more` object per
    /// channel naming its newest message.
    @Test func deleteRemovesTheRangeAndCountsFollow() {
        let h = seeded()
        #expect(h.call("/v3/history/sub-key/demo/channel/ch?start=\(tt(1))&end=\(tt(2))", method: "DELETE")
            == (200, "{\"status\": 200, \"error\": false, \"error_message\": \"\"}"))
        #expect(h.call("/v2/history/sub-key/demo/channel/ch").1 == "[[\"m0\",\"m1\",\"m3\",\"m4\"],\(tt(0)),\(tt(4))]")
        func more(_ channel: String, _ timetoken: UInt64) -> String {
            "\"\(channel)\": {\"url\": \"/v3/history/sub-key/demo/message-counts/\(channel)?timetoken=\(timetoken)\", \"is_more\": false}"
        }
        #expect(h.call("/v3/history/sub-key/demo/message-counts/ch,none?timetoken=\(tt(2))")
            == (200, "{\"status\": 200, \"error\": false, \"error_message\": \"\", \"channels\": {\"ch\":2,\"none\":0}, "
                + "\"more\": {" + more("ch", tt(4)) + ", " + more("none", tt(2)) + "}}"))
        #expect(h.call("/v3/history/sub-key/demo/message-counts/ch,none?channelsTimetoken=\(tt(0)),1")
            == (200, "{\"status\": 200, \"error\": false, \"error_message\": \"\", \"channels\": {\"ch\":3,\"none\":0}, "
                + "\"more\": {" + more("ch", tt(4)) + ", " + more("none", 1) + "}}"))
        #expect(h.call("/v3/history/sub-key/demo/message-counts/ch,none?channelsTimetoken=1,2,3")
            == (400, "{\"status\": 400, \"error\": true, \"error_message\": \"Invalid Arguments\", \"channels\": {}}"))
        #expect(h.call("/v3/history/sub-key/demo/message-counts/ch").0 == 400)
        // Only `end`: from it on (inclusive); only `start`: older than it (exclusive).
        h.call("/v3/history/sub-key/demo/channel/ch?end=\(tt(3))", method: "DELETE")
        #expect(h.call("/v2/history/sub-key/demo/channel/ch").1 == "[[\"m0\",\"m1\"],\(tt(0)),\(tt(1))]")
        h.call("/v3/history/sub-key/demo/channel/ch?start=\(tt(1))", method: "DELETE")
        #expect(h.call("/v2/history/sub-key/demo/channel/ch").1 == "[[\"m1\"],\(tt(1)),\(tt(1))]")
    }

    /// Recorded: with `reverse`, `start` is an exclusive lower bound (the next page of newer
    /// messages), and `start` + `end` read `start < tt <= end`.
    @Test func reverseReadsNewerThanStartAndBothBoundsExcludeStartIncludeEnd() {
        let h = seeded()
        let base = "/v2/history/sub-key/demo/channel/ch"
        #expect(h.call(base + "?reverse=true&count=2&start=\(tt(1))") == (200, "[[\"m2\",\"m3\"],\(tt(2)),\(tt(3))]"))
        #expect(h.call(base + "?reverse=1&start=\(tt(1))&end=\(tt(2))") == (200, "[[\"m2\"],\(tt(2)),\(tt(2))]"))
        #expect(h.call(base + "?reverse=true&end=\(tt(1))") == (200, "[[\"m0\",\"m1\"],\(tt(0)),\(tt(1))]"))
        #expect(h.call(base + "?start=\(tt(1))&end=\(tt(3))") == (200, "[[\"m2\",\"m3\"],\(tt(2)),\(tt(3))]"))
    }

    @Test func bufferKeepsTheConfiguredNumberOfMessages() {
        let h = ServiceHarness(PubNubServiceConfiguration(historyLimitPerChannel: 3))
        for index in 0..<5 { h.publish("ch", String(index)) }
        #expect(h.call("/v2/history/sub-key/demo/channel/ch").1 == "[[2,3,4],\(serviceFirstTT + 2),\(serviceFirstTT + 4)]")
    }

    @Test func trimmedLogsStayOrderedAcrossCompaction() {
        let h = ServiceHarness(PubNubServiceConfiguration(historyLimitPerChannel: 70))
        for index in 0..<250 { h.publish("ch", String(index)) }
        #expect(h.call("/v2/history/sub-key/demo/channel/ch?count=2&reverse=true").1
            == "[[180,181],\(serviceFirstTT + 180),\(serviceFirstTT + 181)]")
        let (_, body) = h.call("/v2/subscribe/demo/ch/0?tt=\(serviceFirstTT + 247)")
        #expect(body.hasSuffix("\"d\":248},{\"a\":\"2\",\"f\":0,\"i\":\"pub\",\"s\":1,\"p\":{\"t\":\"\(serviceFirstTT + 249)\",\"r\":12},\"k\":\"demo\",\"c\":\"ch\",\"d\":249}]}"))
    }
}

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ChannelGroupTests {
    private let base = "/v1/channel-registration/sub-key/demo/channel-group"
    /// Mutations answer compact with sorted keys (recorded 2024-2025, `application/json`).
    private let ok = "{\"error\":false,\"message\":\"OK\",\"service\":\"channel-registry\",\"status\":200}"

    @Test func addListRemoveDelete() {
        let h = ServiceHarness()
        #expect(h.call(base + "/cg1?add=a,b,c") == (200, ok))
        #expect(h.call(base + "/cg0?add=z") == (200, ok))
        #expect(h.call(base + "/cg1") == (200, "{\"status\": 200, \"payload\": {\"channels\": [\"a\", \"b\", \"c\"], \"group\": \"cg1\"}, \"service\": \"channel-registry\", \"error\": false}"))
        // Listing without a namespace names no group, even right after one was added (recorded 2020).
        #expect(h.call(base) == (200, "{\"status\": 200, \"payload\": {\"namespace\": \"\", \"groups\": []}, \"service\": \"channel-registry\", \"error\": false}"))
        #expect(h.call(base + "/cg1?remove=b") == (200, ok))
        #expect(h.call(base + "/cg1").1.contains("[\"a\", \"c\"]"))
        #expect(h.call(base + "/cg1/remove") == (200, ok))
        #expect(h.call(base + "/cg1").1.contains("\"channels\": []"))
        #expect(h.call(base + "/cg1?add=a%2Fb") == (400, "{\"status\": 400, \"message\": \"Reserved character in input parameters.\", \"service\": \"channel-registry\", \"error\": true}"))
    }
}
