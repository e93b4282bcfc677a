// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Presence over loopback sockets: events are awaited by long-polling the `-pnpres` channel.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct EndToEndPresenceTests {
    /// Long-polls `channel-pnpres` from `cursor` until `count` events arrived (bounded); returns them and the new cursor.
    private func events(_ server: EndToEndServer, _ channel: String, from cursor: UInt64, count: Int) throws -> ([[String: Any]], UInt64) {
        var collected: [[String: Any]] = []
        var tt = cursor
        for _ in 0..<10 where collected.count < count {
            let (status, body) = try server.call("/v2/subscribe/demo/\(channel)-pnpres/0?tt=\(tt)&uuid=watcher", timeoutMs: TestTime.budgetMs(8000))
            #expect(status == 200)
            collected += EndToEndServer.envelopes(body).compactMap { $0["d"] as? [String: Any] }
            tt = try #require(EndToEndServer.cursor(body))
        }
        return (collected, tt)
    }

    private func start(_ server: EndToEndServer, _ channel: String) throws -> UInt64 {
        try #require(EndToEndServer.cursor(server.call("/v2/subscribe/demo/\(channel)-pnpres/0?tt=0&uuid=watcher").1))
    }

    @Test(arguments: [true, false])
    func aSubscribeWithTheEventEngineFlagKeepsPresenceUnlessTheKeyTurnsItOff(_ keeps: Bool) throws {
        let server = try EndToEndServer(features: KeyFeatures(eventEngineSubscribePresence: keeps))
        func occupancy() throws -> Int? {
            (EndToEndServer.json(try server.call("/v2/presence/sub-key/demo/channel/ee-room?uuid=observer").1) as? [String: Any])?["occupancy"] as? Int
        }
        #expect(try server.call("/v2/subscribe/demo/ee-room/0?tt=0&uuid=engine&heartbeat=60&ee=1").0 == 200)
        #expect(try occupancy() == (keeps ? 1 : 0))
        // Without the flag a subscribe keeps presence whatever the switch; the engine's own
        // heartbeat request (with the flag) always does.
        #expect(try server.call("/v2/subscribe/demo/ee-room/0?tt=0&uuid=classic&heartbeat=60").0 == 200)
        #expect(try occupancy() == (keeps ? 2 : 1))
        #expect(try server.call("/v2/presence/sub-key/demo/channel/ee-room/heartbeat?uuid=engine&heartbeat=60&ee=1").0 == 200)
        #expect(try occupancy() == 2)
    }

    @Test func joinStateChangeLeaveAndTimeoutEvents() throws {
        let server = try EndToEndServer()
        var cursor = try start(server, "room")
        #expect(try server.call("/v2/subscribe/demo/room/0?tt=0&uuid=alice&heartbeat=60").0 == 200)
        var (got, next) = try events(server, "room", from: cursor, count: 1)
        #expect(got.map { $0["action"] as? String } == ["join"])
        #expect(got.first?["uuid"] as? String == "alice" && got.first?["occupancy"] as? Int == 1)
        #expect((got.first?["timestamp"] as? Int).map { $0 > 1_700_000_000 } == true)
        cursor = next
        let setState = try server.call("/v2/presence/sub-key/demo/channel/room/uuid/alice/data?state=%7B%22mood%22%3A%22ok%22%7D")
        #expect(setState == (200, "{\"message\":\"OK\",\"payload\":{\"mood\":\"ok\"},\"service\":\"Presence\",\"status\":200}"))
        (got, next) = try events(server, "room", from: cursor, count: 1)
        #expect(got.first?["action"] as? String == "state-change")
        #expect(got.first?["data"] as? [String: String] == ["mood": "ok"])
        cursor = next
        #expect(try server.call("/v2/presence/sub-key/demo/channel/room/leave?uuid=alice").0 == 200)
        (got, next) = try events(server, "room", from: cursor, count: 1)
        #expect(got.map { $0["action"] as? String } == ["leave"])
        #expect(got.first?["occupancy"] as? Int == 0)
        cursor = next
        // A client-sent heartbeat of 1 s: no heartbeat follows, so a timeout event comes.
        #expect(try server.call("/v2/presence/sub-key/demo/channel/room/heartbeat?uuid=bob&heartbeat=1").0 == 200)
        (got, _) = try events(server, "room", from: cursor, count: 2)
        #expect(got.map { $0["action"] as? String } == ["join", "timeout"])
        #expect(got.map { $0["uuid"] as? String } == ["bob", "bob"])
    }

    @Test func hereNowWhereNowAndState() throws {
        let server = try EndToEndServer()
        #expect(try server.call("/v2/subscribe/demo/p1,p2/0?tt=0&uuid=u1&state=%7B%22p1%22%3A%7B%22a%22%3A1%7D%7D").0 == 200)
        #expect(try server.call("/v2/subscribe/demo/p1/0?tt=0&uuid=u2").0 == 200)
        #expect(try server.call("/v2/presence/sub-key/demo/channel/p1?state=1")
            == (200, "{\"message\":\"OK\",\"occupancy\":2,\"service\":\"Presence\",\"status\":200,\"uuids\":[{\"state\":{\"a\":1},\"uuid\":\"u1\"},{\"uuid\":\"u2\"}]}"))
        #expect(try server.call("/v2/presence/sub-key/demo/channel/p1?disable_uuids=1")
            == (200, "{\"message\":\"OK\",\"occupancy\":2,\"service\":\"Presence\",\"status\":200}"))
        let several = EndToEndServer.json(try server.call("/v2/presence/sub-key/demo/channel/p1,p2").1) as? [String: Any]
        let payload = several?["payload"] as? [String: Any]
        #expect(payload?["total_occupancy"] as? Int == 3 && payload?["total_channels"] as? Int == 2)
        let global = EndToEndServer.json(try server.call("/v2/presence/sub-key/demo").1) as? [String: Any]
        #expect((global?["payload"] as? [String: Any])?["total_channels"] as? Int == 2)
        #expect(try server.call("/v2/presence/sub-key/demo/uuid/u1")
            == (200, "{\"message\":\"OK\",\"payload\":{\"channels\":[\"p1\",\"p2\"]},\"service\":\"Presence\",\"status\":200}"))
        #expect(try server.call("/v2/presence/sub-key/demo/channel/p1/uuid/u1")
            == (200, "{\"status\": 200, \"uuid\": \"u1\", \"service\": \"Presence\", \"message\": \"OK\", \"payload\": {\"a\":1}, \"channel\": \"p1\"}"))
    }
}
