// SPDX-License-Identifier: MIT
import HarnessTesting
import HarnessWebSocket
import MockPusher
import PusherServer
import Testing

/// The `/__admin/pusher/` routes next to the PubNub admin API.
@Suite("Pusher admin routes", .serialized, .offPool, .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherAdminRouteTests {
    @Test func planInstallReadAndClear() throws {
        try withPusherServer { server in
            let put = try server.http("PUT", "/__admin/pusher/plan?app_key=test-key", body: #"{"rules":[{"id":"x","times":1,"fault":{"kind":"withhold-pongs"}}]}"#)
            #expect(put.status == 200)
            #expect(put.bodyText == #"{"appKey":"test-key","rules":1}"#)
            let get = try server.http("GET", "/__admin/pusher/plan?app_key=test-key")
            #expect(get.bodyText == #"{"appKey":"test-key","plan":{"version":1,"rules":[{"id":"x","after":0,"times":1,"fault":{"kind":"withhold-pongs","which":"both"}}]},"faulted":[0]}"#)
            #expect(try server.http("DELETE", "/__admin/pusher/plan?app_key=test-key").bodyText == #"{"appKey":"test-key","cleared":true}"#)
            #expect(try server.http("GET", "/__admin/pusher/plan?app_key=test-key").status == 404)
        }
    }

    @Test func badRequestsGetAdminErrors() throws {
        try withPusherServer { server in
            let bad = try server.http("PUT", "/__admin/pusher/plan?app_key=test-key", body: #"{"rules":[{"fault":{"kind":"close"}}]}"#)
            #expect(bad.status == 400)
            #expect(bad.bodyText == #"{"error":true,"message":"rules[0].fault.code: required","status":400,"service":"Admin"}"#)
            let noKey = try server.http("GET", "/__admin/pusher/journal")
            #expect(noKey.status == 400)
            #expect(noKey.bodyText == #"{"error":true,"message":"app_key: required","status":400,"service":"Admin"}"#)
            let mismatch = try server.http("PUT", "/__admin/pusher/plan?app_key=test-key", body: #"{"appKey":"other","rules":[]}"#)
            #expect(mismatch.bodyText == #"{"error":true,"message":"appKey: \"other\" does not match app_key \"test-key\"","status":400,"service":"Admin"}"#)
            let method = try server.http("PATCH", "/__admin/pusher/journal?app_key=test-key")
            #expect(method.status == 405)
            #expect(method.header("Allow") == "GET, DELETE")
            #expect(try server.http("GET", "/__admin/pusher/nothing").status == 404)
            // The PubNub admin API is unchanged beside it.
            #expect(try server.http("GET", "/__admin/health").status == 200)
        }
    }

    @Test func journalShowsAReauthorisationWithTheNewSocketID() throws {
        try withPusherServer { server in
            let (first, firstID) = try server.established()
            first.send(#"{"event":"pusher:subscribe","data":{"auth":"test-key:aa","channel":"private-a"}}"#)
            _ = try first.nextText()
            first.client.sendClose(WebSocketClosePayload(code: .normalClosure, reason: "reconnecting"))
            #expect(first.client.readFramesToEnd().end == .eof)
            #expect(eventually { server.service.journal.entries(for: testApp.key).count == 3 })
            let (second, secondID) = try server.established()
            second.send(#"{"event":"pusher:subscribe","data":{"auth":"test-key:bb","channel":"private-a"}}"#)
            _ = try second.nextText()
            #expect(eventually { server.service.journal.entries(for: testApp.key).count == 5 })
            let journal = try server.http("GET", "/__admin/pusher/journal?app_key=test-key").bodyText
            let query = #""query":{"protocol":"7","client":"js","version":"8.4.0","flash":"false"},"tls":false,"faultRules":[]"#
            #expect(journal == #"{"appKey":"test-key","lastSequence":5,"entries":["#
                + #"{"sequence":1,"atMs":"# + "\(server.service.journal.entries(for: testApp.key)[0].at.milliseconds)" + #","connection":"# + "\(server.service.journal.entries(for: testApp.key)[0].connection)"
                + #","socketId":"\#(firstID)","type":"connect","# + query + "},"
                + journalTail(server, firstID: firstID, secondID: secondID))
            let since = try server.http("GET", "/__admin/pusher/journal?app_key=test-key&since=4").bodyText
            #expect(since.hasPrefix(#"{"appKey":"test-key","lastSequence":5,"entries":[{"sequence":5,"#))
            #expect(since.contains(#""socketId":"\#(secondID)","type":"text","text":"{\"event\":\"pusher:subscribe\",\"data\":{\"auth\":\"test-key:bb\",\"channel\":\"private-a\"}}","event":"pusher:subscribe"}"#))
        }
    }

    /// The entries after the first, built from the journal's own instants and connection numbers.
    private func journalTail(_ server: PusherTestServer, firstID: String, secondID: String) -> String {
        let entries = server.service.journal.entries(for: testApp.key)
        func head(_ index: Int, _ socketID: String) -> String {
            #"{"sequence":\#(index + 1),"atMs":\#(entries[index].at.milliseconds),"connection":\#(entries[index].connection),"socketId":"\#(socketID)","#
        }
        return head(1, firstID) + #""type":"text","text":"{\"event\":\"pusher:subscribe\",\"data\":{\"auth\":\"test-key:aa\",\"channel\":\"private-a\"}}","event":"pusher:subscribe"},"#
            + head(2, firstID) + #""type":"closed","code":1000,"reason":"reconnecting","clean":true},"#
            + head(3, secondID) + #""type":"connect","query":{"protocol":"7","client":"js","version":"8.4.0","flash":"false"},"tls":false,"faultRules":[]},"#
            + head(4, secondID) + #""type":"text","text":"{\"event\":\"pusher:subscribe\",\"data\":{\"auth\":\"test-key:bb\",\"channel\":\"private-a\"}}","event":"pusher:subscribe"}]}"#
    }

    @Test func connectionCounts() throws {
        try withPusherServer { server in
            let (socket, _) = try server.established()
            #expect(try server.http("GET", "/__admin/pusher/connections").bodyText == #"{"open":1,"established":1,"httpSessions":0}"#)
            withExtendedLifetime(socket) {}
        }
    }

    @Test func longTextsAreKeptUpToTheBound() throws {
        try withPusherServer { server in
            let (socket, _) = try server.established()
            // 29 ASCII bytes, then 2-byte characters: the bound falls inside one, which is dropped whole.
            let long = #"{"event":"client-xy","data":""# + String(repeating: "é", count: 10_000) + #""}"#
            socket.send(long)
            socket.send(#"{"event":"pusher:ping"}"#)
            _ = try socket.nextText()
            #expect(eventually { server.service.journal.entries(for: testApp.key).count == 3 })
            let kinds = server.service.journal.entries(for: testApp.key).map(\.kind)
            guard kinds.count == 3, case let .text(kept, truncated) = kinds[1] else {
                Issue.record("unexpected journal \(kinds)")
                return
            }
            #expect(truncated)
            #expect(kept.utf8.count == PusherJournalEntry.maxTextBytes - 1)
            #expect(long.hasPrefix(kept))
            #expect(kinds[2] == .text(#"{"event":"pusher:ping"}"#))
        }
    }

    @Test func indexAndReset() throws {
        try withPusherServer { server in
            let index = try server.http("GET", "/__admin/pusher/").bodyText
            #expect(index.hasPrefix(#"{"routes":[{"method":"GET, PUT, POST, DELETE","path":"/__admin/pusher/plan?app_key=KEY","#))
            try server.installPlan(#"{"rules":[{"fault":{"kind":"withhold-pongs"}}]}"#)
            let (socket, _) = try server.established()
            #expect(try server.http("GET", "/__admin/pusher/reset").status == 405)
            #expect(try server.http("POST", "/__admin/pusher/reset").bodyText == #"{"reset":true}"#)
            #expect(server.service.faults.plan(for: testApp.key) == nil)
            #expect(server.service.journal.entries(for: testApp.key).isEmpty)
            withExtendedLifetime(socket) {}
        }
    }
}
