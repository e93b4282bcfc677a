// SPDX-License-Identifier: MIT
import Testing
@testable import MockPubNubServer

/// History v2, fetch v3 (with actions), delete and message counts over loopback sockets.
@Suite struct EndToEndHistoryTests {
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
        #expect(actions.hasPrefix("{\"status\": 200, \"error\": false, \"error_message\": \"\", \"channels\": {\"f1\":[{\"message\": 100, \"timetoken\": \"\(one[100])\""), "\(actions)")
        // Message counts, both forms.
        #expect(try server.call("/v3/history/sub-key/demo/message-counts/f1,f2?timetoken=\(one[98])")
            == (200, "{\"status\": 200, \"error\": false, \"error_message\": \"\", \"channels\": {\"f1\":2,\"f2\":30}}"))
        #expect(try server.call("/v3/history/sub-key/demo/message-counts/f1,f2?channelsTimetoken=\(one[99]),\(two[27])")
            == (200, "{\"status\": 200, \"error\": false, \"error_message\": \"\", \"channels\": {\"f1\":1,\"f2\":2}}"))
        // Delete: the range goes, the rest stays.
        let (deleteStatus, _) = try server.call("/v3/history/sub-key/demo/channel/f1?start=\(one[100])&end=\(one[98])", method: "DELETE")
        #expect(deleteStatus == 200)
        #expect(try server.call("/v2/history/sub-key/demo/channel/f1?count=2") == (200, "[[97,100],\(one[97]),\(one[100])]"))
    }
}
