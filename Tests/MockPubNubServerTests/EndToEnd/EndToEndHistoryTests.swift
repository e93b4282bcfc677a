// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// History v2, fetch v3 (with actions), delete and message counts over loopback sockets.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct EndToEndHistoryTests {
    @Test func historyV2Parameters() throws {
        let server = try EndToEndServer()
        var tts: [UInt64] = []
        for index in 0..<5 { tts.append(try server.publish("h", "\(index)")) }
        let base = "/v2/history/sub-key/demo/channel/h"
        #expect(try server.call(base) == (200, "[[0,1,2,3,4],\(tts[0]),\(tts[4])]"))
        #expect(try server.call(base + "?count=2") == (200, "[[3,4],\(tts[3]),\(tts[4])]"))
        #expect(try server.call(base + "?count=2&reverse=true") == (200, "[[0,1],\(tts[0]),\(tts[1])]"))
        // `start` is exclusive, `end` inclusive.
        #expect(try server.call(base + "?start=\(tts[3])&end=\(tts[1])") == (200, "[[1,2],\(tts[1]),\(tts[2])]"))
        #expect(try server.call(base + "?count=1&include_token=true")
            == (200, "[[{\"message\":4,\"timetoken\":\(tts[4])}],\(tts[4]),\(tts[4])]"))
    }

    @Test func fetchV3SingleHundredMultiTwentyFiveWithActionsDeleteAndCounts() throws {
        let server = try EndToEndServer()
        var one: [UInt64] = []
        for index in 0..<101 { one.append(try server.publish("f1", "\(index)")) }
        var two: [UInt64] = []
        for index in 0..<30 { two.append(try server.publish("f2", "\(index)")) }
        let single = EndToEndServer.json(try server.call("/v3/history/sub-key/demo/channel/f1?max=500").1) as? [String: Any]
        let singleMessages = (single?["channels"] as? [String: [[String: Any]]])?["f1"]
        #expect(singleMessages?.count == 100)
        #expect(singleMessages?.last?["timetoken"] as? String == "\(one[100])")
        let multi = EndToEndServer.json(try server.call("/v3/history/sub-key/demo/channel/f1,f2?max=500").1) as? [String: Any]
        let channels = multi?["channels"] as? [String: [[String: Any]]]
        #expect(channels?["f1"]?.count == 25 && channels?["f2"]?.count == 25)
        let (actionsStatus, actions) = try server.call("/v3/history-with-actions/sub-key/demo/channel/f1?max=1")
        #expect(actionsStatus == 200)
        #expect(actions == "{\"status\": 200, \"channels\": {\"f1\": [{\"timetoken\": \"\(one[100])\", \"message\": 100}]}, "
            + "\"more\": {\"url\": \"/v3/history-with-actions/sub-key/demo/channel/f1?start=\(one[100])&max=1\", \"start\": \"\(one[100])\", \"max\": 1}, "
            + "\"error_message\": \"\", \"error\": false}")
        // Message counts, both forms.
        let counts = try server.call("/v3/history/sub-key/demo/message-counts/f1,f2?timetoken=\(one[98])")
        #expect(counts.0 == 200 && counts.1.hasPrefix("{\"status\": 200, \"error\": false, \"error_message\": \"\", \"channels\": {\"f1\":2,\"f2\":30}, \"more\": {"))
        let perChannel = try server.call("/v3/history/sub-key/demo/message-counts/f1,f2?channelsTimetoken=\(one[99]),\(two[27])")
        #expect(perChannel.1.hasPrefix("{\"status\": 200, \"error\": false, \"error_message\": \"\", \"channels\": {\"f1\":1,\"f2\":2}, \"more\": {"))
        #expect(perChannel.1.contains("\"f1\": {\"url\": \"/v3/history/sub-key/demo/message-counts/f1?timetoken=\(one[100])\", \"is_more\": false}"))
        // Delete: the range goes, the rest stays.
        let (deleteStatus, _) = try server.call("/v3/history/sub-key/demo/channel/f1?start=\(one[100])&end=\(one[98])", method: "DELETE")
        #expect(deleteStatus == 200)
        #expect(try server.call("/v2/history/sub-key/demo/channel/f1?count=2") == (200, "[[97,100],\(one[97]),\(one[100])]"))
    }

    /// Message actions over real sockets: add, list, history with actions, a subscriber's event, remove.
    @Test func messageActionsRoundTrip() throws {
        let server = try EndToEndServer()
        let message = try server.publish("ma", "\"hello\"")
        let base = "/v1/message-actions/demo/channel/ma"
        let (status, added) = try server.call(base + "/message/\(message)?uuid=Serhii", method: "POST",
                                              body: "{\"type\":\"reaction\",\"value\":\"smile\"}")
        #expect(status == 200)
        let data = (EndToEndServer.json(added) as? [String: Any])?["data"] as? [String: Any]
        let actionTimetoken = try #require((data?["actionTimetoken"] as? String).flatMap { UInt64($0) })
        #expect(data?["messageTimetoken"] as? String == "\(message)" && actionTimetoken > message)
        let (_, listed) = try server.call(base)
        #expect(listed.contains("\"actionTimetoken\": \"\(actionTimetoken)\""))
        let (_, fetched) = try server.call("/v3/history-with-actions/sub-key/demo/channel/ma")
        #expect(fetched.contains("\"actions\": {\"reaction\": {\"smile\": [{\"uuid\": \"Serhii\", \"actionTimetoken\": \"\(actionTimetoken)\"}]}}"))
        let (_, event) = try server.call("/v2/subscribe/demo/ma/0?tt=\(message)")
        let envelope = EndToEndServer.envelopes(event).first
        #expect(envelope?["e"] as? Int == 3 && envelope?["i"] as? String == "Serhii")
        #expect(try server.call(base + "/message/\(message)/action/\(actionTimetoken)", method: "DELETE")
            == (200, "{\"status\": 200, \"data\": {}}"))
        #expect(try server.call(base) == (200, "{\"status\": 200, \"data\": []}"))
    }

    /// The live service takes a GET publish of a 10,000-character message (a 10 KB URI) and
    /// refuses a 100 KB URI with the balancer's 414 (recorded 2020 and 2025).
    @Test func tenThousandCharacterGetPublishIsAcceptedAndHundredKilobytesIsNot() throws {
        let server = try EndToEndServer()
        let text = "\"" + String(repeating: "hello-there", count: 909) + "x\""
        #expect(try server.publish("long", text) > 0)
        let (_, history) = try server.call("/v2/history/sub-key/demo/channel/long")
        #expect(history.hasPrefix("[[" + text + "],"))
        let tooLong = "/publish/demo/demo/0/long/0/" + PercentDecoding.encode("\"" + String(repeating: "x", count: 100_000) + "\"")
        #expect(try server.call(tooLong)
            == (414, "{\"status\":414,\"service\":\"Balancer\",\"error\":true,\"message\":\"Request URI Too Long\"}\n"))
    }
}
