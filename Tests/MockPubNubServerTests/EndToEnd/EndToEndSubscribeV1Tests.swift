// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// The legacy subscribe over loopback: handshake, a parked long-poll woken by a publish, JSONP,
/// and fault rules aimed at `subscribe` applying to it.
@Suite(.serialized, .offPool, .timeLimit(.minutes(TestTime.limitMinutes(5)))) struct EndToEndSubscribeV1Tests {
    @Test func handshakeThenALongPollWokenByAPublish() throws {
        let e2e = try EndToEndServer()
        let (status, handshake) = try e2e.call("/subscribe/demo/news/0/0?uuid=old-sdk")
        #expect(status == 200)
        let cursor = try #require(UInt64(handshake.split(separator: "\"")[1]))
        #expect(handshake == "[[],\"\(cursor)\"]")
        let client = try e2e.connect()
        client.send(EndToEndServer.request("/subscribe/demo/news/0/\(cursor)?uuid=old-sdk"))
        #expect(client.readOnce(timeoutMs: 100) == .failure(.init(end: .timedOut)))
        let published = try e2e.publish("news", "{\"headline\":\"v1\"}")
        let response = withoutCrossOrigin(try #require(client.readResponse()), "GET", "/subscribe/demo/news/0/\(cursor)")
        #expect(response == pubNubResponse(200, "[[{\"headline\":\"v1\"}],\"\(published)\"]", close: false))
    }

    @Test func jsonpCallbackWithSeveralChannels() throws {
        let e2e = try EndToEndServer()
        let first = try e2e.publish("a", "1")
        let second = try e2e.publish("b", "\"x\"")
        let (status, body) = try e2e.call("/subscribe/demo/a,b/jsonp_cb/\(first - 1)")
        #expect(status == 200)
        #expect(body == "jsonp_cb([[1,\"x\"],\"\(second)\",\"a,b\"])")
    }

    @Test func aFaultRuleForSubscribeMatchesTheLegacyPath() async throws {
        try await EndToEnd.run { server, port in
            try EndToEnd.install(server, "fk", EndToEnd.plan(match: #"{"endpoint":"subscribe"}"#, fault: #"{"kind":"status","status":503}"#))
            let (bytes, _) = try EndToEnd.exchange(port: port, "GET /subscribe/fk/ch/0/0 HTTP/1.1\r\nConnection: close\r\n\r\n")
            #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 503 "))
            let journal = server.journal(subscribeKey: "fk")
            #expect(journal.count == 1)
            #expect(journal.first?.endpoint == .subscribe)
            #expect(journal.first?.rule == "r")
        }
    }

    @Test func bodyFaultsAnswerInTheLegacyShape() async throws {
        try await EndToEnd.run { server, port in
            try EndToEnd.install(server, "fv", EndToEnd.plan(fault: #"{"kind":"messages","count":2}"#))
            let (bytes, _) = try EndToEnd.exchange(port: port, "GET /subscribe/fv/a,b/cb/15000000000000000 HTTP/1.1\r\nConnection: close\r\n\r\n")
            let text = String(decoding: bytes, as: UTF8.self)
            let body = try #require(text.split(separator: "\r\n\r\n", maxSplits: 1).last)
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"))
            // Generated timetokens start after the request's cursor or its arrival, whichever is later.
            #expect(body.hasPrefix(#"cb([[{"n":1,"text":"message 1 of 2"},{"n":2,"text":"message 2 of 2"}],""#))
            #expect(body.hasSuffix(#"","a,a"])"#))
        }
    }
}
