// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Numeric query parameters of the wrong type and empty subscribe keys are refused with 400.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ParameterValidationTests {
    static func message(_ name: String, _ value: String) -> String {
        "Invalid value for parameter '\(name)': '\(value)' (expected a non-negative integer)"
    }

    @Test(arguments: [
        ("/v2/presence/sub-key/demo/channel/ch/heartbeat?heartbeat=abc", "heartbeat", "abc"),
        ("/v2/presence/sub-key/demo/channel/ch?limit=-1", "limit", "-1"),
        ("/v2/presence/sub-key/demo?offset=x", "offset", "x"),
    ])
    func presenceEndpointsAnswerInThePresenceShape(target: String, name: String, value: String) {
        let h = ServiceHarness()
        #expect(h.call(target) == (400, "{\"status\": 400, \"error\": 1, \"message\": \"\(Self.message(name, value))\", \"service\": \"Presence\"}"))
    }

    @Test func subscribeHeartbeatAndRegion() {
        let h = ServiceHarness()
        let expected = "{\"message\":\"\(Self.message("heartbeat", "abc"))\",\"error\":true,\"service\":\"Balancer\",\"status\":400}"
        #expect(h.call("/v2/subscribe/demo/ch/0?tt=0&heartbeat=abc") == (400, expected))
        #expect(h.call("/subscribe/demo/ch/0/0?heartbeat=abc") == (400, expected))
        #expect(h.call("/v2/subscribe/demo/ch/0?tt=0&tr=1e3").0 == 400)
        #expect(h.service.parkedLongPolls(subscribeKey: "demo") == 0)
    }

    @Test func historyCountAndFetchMax() {
        let h = ServiceHarness()
        #expect(h.call("/v2/history/sub-key/demo/channel/ch?count=-5")
            == (400, "{\"message\":\"\(Self.message("count", "-5"))\",\"error\":true,\"service\":\"Storage\",\"status\":400}"))
        #expect(h.call("/v3/history/sub-key/demo/channel/ch?max=abc")
            == (400, "{\"status\": 400, \"error\": true, \"error_message\": \"\(Self.message("max", "abc"))\", \"channels\": {}}"))
        #expect(h.call("/v3/history-with-actions/sub-key/demo/channel/ch?max=2.5").0 == 400)
    }

    @Test func publishTTLAndSequenceAnswerAsPublishRefusals() {
        let h = ServiceHarness()
        let (status, body) = h.call("/publish/demo/demo/0/ch/0/%22x%22?ttl=abc")
        #expect(status == 400)
        #expect(body.hasPrefix("[0,\"\(Self.message("ttl", "abc"))\",\""))
        #expect(h.call("/signal/demo/demo/0/ch/0/%22x%22?seqn=-1").0 == 400)
        // Nothing was stored.
        #expect(h.call("/v2/history/sub-key/demo/channel/ch").1 == "[[],0,0]")
    }

    @Test func validNumbersAndEmptyValuesStillWork() {
        let h = ServiceHarness()
        #expect(h.call("/publish/demo/demo/0/ch/0/%22x%22?ttl=0&seqn=3").0 == 200)
        #expect(h.call("/v2/history/sub-key/demo/channel/ch?count=0").0 == 200)
        #expect(h.call("/v2/history/sub-key/demo/channel/ch?count=").0 == 200)
        #expect(h.call("/v2/presence/sub-key/demo/channel/ch/heartbeat?heartbeat=300&uuid=u").0 == 200)
        #expect(h.call("/v2/subscribe/demo/ch/0?tt=0&heartbeat=60&tr=12").0 == 200)
    }

    @Test func anEmptySubscribeKeyIsRefused() {
        let h = ServiceHarness()
        let expected = (400, "{\"message\":\"Invalid Subscribe Key\",\"error\":true,\"service\":\"Access Manager\",\"status\":400}")
        #expect(h.call("/publish/demo//0/ch/0/%22x%22") == expected)
        #expect(h.call("/v2/subscribe//ch/0?tt=0") == expected)
        #expect(h.call("/v2/history/sub-key//channel/ch") == expected)
        #expect(h.call("/time/0").0 == 200)
    }
}
