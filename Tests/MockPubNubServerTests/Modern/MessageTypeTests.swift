// SPDX-License-Identifier: MIT
import Testing
@testable import MockPubNubServer

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct MessageTypeTests {
    @Test func customMessageTypeTravelsToSubscribeAndHistory() {
        let h = ServiceHarness()
        let tt = h.publish("ch", "\"hi\"", query: "uuid=pub&custom_message_type=chat-text_1")
        #expect(h.call("/signal/demo/demo/0/ch/0/1?uuid=pub&custom_message_type=typing").0 == 200)
        let body = h.call("/v2/subscribe/demo/ch/0?tt=\(serviceFirstTT - 1)").1
        #expect(body.contains("\"d\":\"hi\",\"cmt\":\"chat-text_1\"}"))
        #expect(body.contains("\"e\":1,") && body.contains("\"d\":1,\"cmt\":\"typing\"}"))
        #expect(h.call("/v3/history/sub-key/demo/channel/ch?include_custom_message_type=true&include_message_type=true")
            == (200, "{\"status\": 200, \"error\": false, \"error_message\": \"\", \"channels\": {\"ch\":["
                + "{\"message\":\"hi\",\"timetoken\":\"\(tt)\",\"message_type\":null,\"custom_message_type\":\"chat-text_1\"}]}}"))
    }

    @Test func validationFollowsTheDocumentedRules() {
        #expect(CustomMessageType.isValid("abc"))
        #expect(CustomMessageType.isValid(String(repeating: "a", count: 50)))
        #expect(CustomMessageType.isValid("A-b_9"))
        #expect(!CustomMessageType.isValid("ab"))
        #expect(!CustomMessageType.isValid(String(repeating: "a", count: 51)))
        #expect(!CustomMessageType.isValid("-abc"))
        #expect(!CustomMessageType.isValid("_abc"))
        #expect(!CustomMessageType.isValid("pn-abc"))
        #expect(!CustomMessageType.isValid("PN_abc"))
        #expect(!CustomMessageType.isValid("a.bc"))
        #expect(!CustomMessageType.isValid("ab c"))
        #expect(!CustomMessageType.isValid("ábc"))
    }

    @Test func invalidTypeIsRefusedBeforeAnythingIsStored() {
        let h = ServiceHarness()
        let refused = h.call("/publish/demo/demo/0/ch/0/1?custom_message_type=pn-reserved")
        #expect(refused.0 == 400)
        #expect(refused.1.hasPrefix("[0,\"Invalid custom_message_type\",\""))
        #expect(h.call("/signal/demo/demo/0/ch/0/1?custom_message_type=x").0 == 400)
        #expect(h.call("/v3/history/sub-key/demo/channel/ch").1.contains("\"channels\": {}"))
        // An empty value counts as absent.
        #expect(h.call("/publish/demo/demo/0/ch/0/1?custom_message_type=").0 == 200)
    }

    @Test func stringtokenAnswersStartAndEndAsStrings() {
        let h = ServiceHarness()
        let first = h.publish("ch", "1")
        let last = h.publish("ch", "2")
        #expect(h.call("/v2/history/sub-key/demo/channel/ch?stringtoken=true") == (200, "[[1,2],\"\(first)\",\"\(last)\"]"))
        #expect(h.call("/v2/history/sub-key/demo/channel/ch?stringtoken=true&include_token=true")
            == (200, "[[{\"message\":1,\"timetoken\":\(first)},{\"message\":2,\"timetoken\":\(last)}],\"\(first)\",\"\(last)\"]"))
        #expect(h.call("/v2/history/sub-key/demo/channel/none?stringtoken=true") == (200, "[[],\"0\",\"0\"]"))
    }

    @Test func heartbeatAndSubscribeStateIsStoredAsSetStateIs() {
        let h = ServiceHarness()
        let state = PercentDecoding.encode("{\"ch\":{\"mood\":\"ok\"}}")
        #expect(h.call("/v2/presence/sub-key/demo/channel/ch/heartbeat?uuid=u&state=\(state)").0 == 200)
        #expect(h.call("/v2/presence/sub-key/demo/channel/ch/uuid/u").1.contains("\"payload\": {\"mood\": \"ok\"}")
            || h.call("/v2/presence/sub-key/demo/channel/ch/uuid/u").1.contains("{\"mood\":\"ok\"}"))
        let other = PercentDecoding.encode("{\"ch2\":{\"n\":1}}")
        h.call("/v2/subscribe/demo/ch2/0?uuid=v&state=\(other)")
        #expect(h.call("/v2/presence/sub-key/demo/channel/ch2?state=1").1.contains("{\"state\":{\"n\":1},\"uuid\":\"v\"}"))
    }
}
