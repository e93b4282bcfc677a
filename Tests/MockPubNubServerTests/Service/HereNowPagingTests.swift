// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Here now's `limit` and `offset` (docs/endpoints.md, "Here now paging"): a page of each
/// channel's occupants, the counts always whole.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(2)))) struct HereNowPagingTests {
    /// A service with `uuids` on `channel` (by heartbeat, 60 s).
    private func occupied(_ channels: [String: [String]]) -> ServiceHarness {
        let h = ServiceHarness()
        for (channel, uuids) in channels {
            for uuid in uuids {
                #expect(h.call("/v2/presence/sub-key/demo/channel/\(channel)/heartbeat?uuid=\(uuid)&heartbeat=60").0 == 200)
            }
        }
        return h
    }

    private func single(_ occupancy: Int, _ uuids: [String]?) -> (Int, String) {
        (200, "{\"message\":\"OK\",\"occupancy\":\(occupancy),\"service\":\"Presence\",\"status\":200"
            + (uuids.map { ",\"uuids\":[" + $0.map { "\"\($0)\"" }.joined(separator: ",") + "]" } ?? "") + "}")
    }

    @Test func pageRules() {
        let all = ["a", "b", "c", "d", "e"]
        #expect(HereNowPage().occupants(all) == ["a", "b", "c", "d", "e"])
        #expect(HereNowPage(limit: 2).occupants(all) == ["a", "b"])
        #expect(HereNowPage(limit: 2, offset: 2).occupants(all) == ["c", "d"])
        #expect(HereNowPage(limit: 2, offset: 4).occupants(all) == ["e"])
        #expect(HereNowPage(limit: 2, offset: 9).occupants(all) == [])
        #expect(HereNowPage(offset: 3).occupants(all) == ["d", "e"])
        #expect(HereNowPage(limit: 5_000).limit == 1_000)
        #expect(!HereNowPage(limit: 0).listsOccupants)
        #expect(HereNowPage(limit: 0).occupants(all) == [])
    }

    @Test func limitAndOffsetPageOneChannelAndKeepTheOccupancy() {
        let h = occupied(["room": ["u1", "u2", "u3", "u4", "u5"]])
        #expect(h.call("/v2/presence/sub-key/demo/channel/room") == single(5, ["u1", "u2", "u3", "u4", "u5"]))
        #expect(h.call("/v2/presence/sub-key/demo/channel/room?limit=2") == single(5, ["u1", "u2"]))
        #expect(h.call("/v2/presence/sub-key/demo/channel/room?limit=2&offset=2") == single(5, ["u3", "u4"]))
        #expect(h.call("/v2/presence/sub-key/demo/channel/room?limit=2&offset=4") == single(5, ["u5"]))
        #expect(h.call("/v2/presence/sub-key/demo/channel/room?limit=2&offset=5") == single(5, []))
        #expect(h.call("/v2/presence/sub-key/demo/channel/room?offset=3") == single(5, ["u4", "u5"]))
        #expect(h.call("/v2/presence/sub-key/demo/channel/room?limit=1000&offset=0") == single(5, ["u1", "u2", "u3", "u4", "u5"]))
        #expect(h.call("/v2/presence/sub-key/demo/channel/room?limit=99999999999999999999999") == single(5, ["u1", "u2", "u3", "u4", "u5"]))
        // limit=0: count only, as with disable_uuids=1.
        #expect(h.call("/v2/presence/sub-key/demo/channel/room?limit=0") == single(5, nil))
        #expect(h.call("/v2/presence/sub-key/demo/channel/room?limit=1&state=1")
            == (200, "{\"message\":\"OK\",\"occupancy\":5,\"service\":\"Presence\",\"status\":200,\"uuids\":[{\"uuid\":\"u1\"}]}"))
    }

    @Test func eachChannelIsPagedAndTotalsStayWhole() {
        let h = occupied(["a": ["u1", "u2", "u3"], "b": ["u4"], "c": ["u5", "u6"]])
        let expected = "{\"message\":\"OK\",\"payload\":{\"channels\":{\"a\":{\"occupancy\":3,\"uuids\":[\"u2\"]},"
            + "\"b\":{\"occupancy\":1,\"uuids\":[]},\"c\":{\"occupancy\":2,\"uuids\":[\"u6\"]}},"
            + "\"total_channels\":3,\"total_occupancy\":6},\"service\":\"Presence\",\"status\":200}"
        #expect(h.call("/v2/presence/sub-key/demo/channel/a,b,c?limit=1&offset=1") == (200, expected))
        #expect(h.call("/v2/presence/sub-key/demo?limit=1&offset=1") == (200, expected))
        #expect(h.call("/v2/presence/sub-key/demo?limit=0") == (200, "{\"message\":\"OK\",\"payload\":{\"channels\":{"
            + "\"a\":{\"occupancy\":3},\"b\":{\"occupancy\":1},\"c\":{\"occupancy\":2}},"
            + "\"total_channels\":3,\"total_occupancy\":6},\"service\":\"Presence\",\"status\":200}"))
    }

    @Test func badLimitOrOffsetIsRefused() {
        let h = occupied(["room": ["u1"]])
        #expect(h.call("/v2/presence/sub-key/demo/channel/room?limit=-1") == (400, "{\"status\": 400, \"error\": 1, \"message\": "
            + "\"Invalid value for parameter 'limit': '-1' (expected a non-negative integer)\", \"service\": \"Presence\"}"))
        #expect(h.call("/v2/presence/sub-key/demo/channel/room?offset=x").0 == 400)
    }
}
