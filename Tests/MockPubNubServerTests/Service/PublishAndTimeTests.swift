// SPDX-License-Identifier: MIT
import Testing
@testable import MockPubNubServer

/// The first timetoken the harness clock yields.
let firstTT: UInt64 = 17_356_896_001_234_567

@Suite struct PublishAndTimeTests {
    @Test func timeIsSeventeenDigitsStrictlyIncreasingAndFollowsTheClock() {
        let h = Harness()
        #expect(h.call("/time/0?uuid=u") == (200, "[\(firstTT)]"))
        #expect(h.call("/time/0") == (200, "[\(firstTT + 1)]"))
        h.time.advance(seconds: 1)
        #expect(h.call("/time/0") == (200, "[\(firstTT + 10_000_000)]"))
    }

    @Test func publishGetAndPostAnswerSent() {
        let h = Harness()
        #expect(h.call("/publish/demo/demo/0/ch1/0/%22hi%22?uuid=u") == (200, "[1,\"Sent\",\"\(firstTT)\"]"))
        #expect(h.call("/publish/demo/demo/0/ch1/0?uuid=u", method: "POST", body: "{\"text\": \"hi\"}")
            == (200, "[1,\"Sent\",\"\(firstTT + 1)\"]"))
        #expect(h.call("/signal/demo/demo/0/ch1/0/%7B%7D") == (200, "[1,\"Sent\",\"\(firstTT + 2)\"]"))
        // The stored text is re-emitted verbatim, spacing included.
        #expect(h.call("/v2/history/sub-key/demo/channel/ch1") == (200, "[[\"hi\",{\"text\": \"hi\"}],\(firstTT),\(firstTT + 1)]"))
    }

    @Test func invalidJSONIsRefused() {
        let h = Harness()
        #expect(h.call("/publish/demo/demo/0/ch1/0/%7Bnope") == (400, "[0,\"Invalid JSON\",\"\(firstTT)\"]"))
        #expect(h.call("/publish/demo/demo/0/ch1/0", method: "POST", body: "[1,]") == (400, "[0,\"Invalid JSON\",\"\(firstTT + 1)\"]"))
        #expect(h.call("/publish/demo/demo/0/ch1/0/1?meta=%7Bx") == (400, "[0,\"Invalid JSON\",\"\(firstTT + 2)\"]"))
        #expect(h.call("/v2/history/sub-key/demo/channel/ch1") == (200, "[[],0,0]"))
    }

    @Test func oversizedMessagesAndSignalsAreRefused() {
        let h = Harness()
        let big = "\"" + String(repeating: "x", count: 32 * 1024 - 1) + "\""
        #expect(h.call("/publish/demo/demo/0/ch/0", method: "POST", body: big) == (400, "[0,\"Message Too Large\",\"\(firstTT)\"]"))
        let fits = "\"" + String(repeating: "x", count: 32 * 1024 - 2) + "\""
        #expect(h.call("/publish/demo/demo/0/ch/0", method: "POST", body: fits).0 == 200)
        let signal = PercentDecoding.encode("\"" + String(repeating: "s", count: 63) + "\"")
        #expect(h.call("/signal/demo/demo/0/ch/0/\(signal)") == (400, "[0,\"Signal size too large\",\"\(firstTT + 2)\"]"))
    }

    @Test func reservedChannelCharactersAreRefused() {
        let h = Harness()
        let reserved = "{\"status\": 400, \"message\": \"Reserved character in input parameters.\", \"service\": \"channel-registry\", \"error\": true}"
        #expect(h.call("/publish/demo/demo/0/a%2Cb/0/1") == (400, reserved))
        #expect(h.call("/publish/demo/demo/0/a%2Fb/0/1") == (400, reserved))
        #expect(h.call("/v2/subscribe/demo/a*/0?tt=0") == (400, reserved))
    }

    @Test func unknownPathsAndBadEscapesHaveTheirBodies() {
        let h = Harness()
        #expect(h.call("/v2/presence/demo/demo/channel/c/heartbeat")
            == (404, "{\"message\": \"Not found: '/v2/presence/demo/demo/channel/c/heartbeat'\",\"error\": 1,\"service\": \"Presence\"}"))
        #expect(h.call("/publish/demo/demo/0/ch/0/%ZZ")
            == (400, "{\"message\":\"Could Not Parse Request\",\"error\":true,\"service\":\"Balancer\",\"status\":400}"))
        #expect(h.call("/v2/subscribe/demo/ch/0?tt=12ab")
            == (400, "{\"message\":\"Could Not Parse Request\",\"error\":true,\"service\":\"Balancer\",\"status\":400}"))
    }

    @Test func jsonValidatorIsStrict() {
        for good in ["1", "-0.5e+3", "\"a\\u00e9\\n\"", " {\"a\": [true, false, null]} ", "[]", "{}"] {
            #expect(JSONText.isValid(good), "\(good)")
        }
        for bad in ["", "01", "1.", "[1,]", "{\"a\":}", "{a:1}", "\"\\x\"", "tru", "1 2", "\"\u{01}\"", "[", "NaN"] {
            #expect(!JSONText.isValid(bad), "\(bad)")
        }
        let members = JSONText.objectMembers("{\"k\\u0041\": {\"x\": 1} , \"n\":2}")
        #expect(members?.map(\.key) == ["kA", "n"])
        #expect(members?.map(\.value) == ["{\"x\": 1}", "2"])
    }
}
