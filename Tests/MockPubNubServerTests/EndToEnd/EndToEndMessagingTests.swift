// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Time, publish, fire, signal and subscribe through `MockServer` over loopback sockets.
@Suite(.offPool, .timeLimit(.minutes(TestTime.limitMinutes(5)))) struct EndToEndMessagingTests {
    @Test func timeIsSeventeenDigitsAndStrictlyIncreasing() throws {
        let server = try EndToEndServer()
        let client = try server.connect()
        var last: UInt64 = 0
        for _ in 0..<5 {
            client.send(EndToEndServer.request("/time/0?uuid=u"))
            let (status, body) = EndToEndServer.split(try #require(client.readResponse()))
            #expect(status == 200)
            let tt = try #require(UInt64(body.dropFirst().dropLast()))
            #expect(body == "[\(tt)]" && String(tt).count == 17 && tt > last)
            last = tt
        }
    }

    @Test func publishGetPostMetaStoreTtlNorepFireAndSignal() throws {
        let server = try EndToEndServer()
        let t1 = try server.publish("ch", "\"hi\"", query: "uuid=p&meta=%7B%22k%22%3A1%7D&ttl=5&norep=true")
        let post = try server.raw("/publish/demo/demo/0/ch/0?uuid=p", method: "POST", body: "{\"text\": \"hi\"}")
        let t2 = try #require(EndToEndServer.sentTimetoken(EndToEndServer.split(post).1))
        #expect(post == pubNubResponse(200, "[1,\"Sent\",\"\(t2)\"]", contentType: "text/javascript; charset=UTF-8"))
        let unstored = try server.publish("ch", "3", query: "store=0")
        let fired = try server.publish("ch", "4", query: "store=0&norep=true")
        let signal = try server.call("/signal/demo/demo/0/ch/0/%7B%7D?uuid=s")
        let t5 = try #require(EndToEndServer.sentTimetoken(signal.1))
        #expect(t1 < t2 && t2 < unstored && unstored < fired && fired < t5)
        // Only stored publishes are in history; the text is kept verbatim.
        #expect(try server.call("/v2/history/sub-key/demo/channel/ch?include_meta=true&include_token=true")
            == (200, "[[{\"message\":\"hi\",\"timetoken\":\(t1),\"meta\":{\"k\":1}},{\"message\":{\"text\": \"hi\"},\"timetoken\":\(t2),\"meta\":\"\"}],\(t1),\(t2)]"))
        // The live buffer: publish and store=0 are delivered, the fire is not, the signal is type 1.
        let (_, body) = try server.call("/v2/subscribe/demo/ch/0?tt=\(t1 - 1)&uuid=sub")
        let m = EndToEndServer.envelopes(body)
        #expect(m.map { $0["p"].flatMap { ($0 as? [String: Any])?["t"] as? String } } == ["\(t1)", "\(t2)", "\(unstored)", "\(t5)"])
        #expect(m.map { $0["e"] as? Int } == [nil, nil, nil, 1])
        #expect(m.first?["u"] as? [String: Int] == ["k": 1])
        #expect(m.first?["i"] as? String == "p")
        #expect(EndToEndServer.cursor(body) == t5)
    }

    @Test func handshakeThenLongPollIsReleasedByAPublishWithEveryEnvelopeField() throws {
        let server = try EndToEndServer()
        let (status, handshake) = try server.call("/v2/subscribe/demo/a,b/0?tt=0&uuid=u1")
        #expect(status == 200)
        let cursor = try #require(EndToEndServer.cursor(handshake))
        #expect(handshake == "{\"t\":{\"t\":\"\(cursor)\",\"r\":12},\"m\":[]}")
        let poller = try server.connect()
        poller.send(EndToEndServer.request("/v2/subscribe/demo/a,b/0?tt=\(cursor)&tr=12&uuid=u1"))
        let tt = try server.publish("b", "{\"x\":1}", query: "uuid=pp&meta=%7B%22m%22%3Atrue%7D")
        let (pollStatus, body) = EndToEndServer.split(try #require(poller.readResponse()))
        #expect(pollStatus == 200)
        #expect(body == "{\"t\":{\"t\":\"\(tt)\",\"r\":12},\"m\":[{\"a\":\"2\",\"f\":0,\"i\":\"pp\",\"s\":1,\"p\":{\"t\":\"\(tt)\",\"r\":12},\"k\":\"demo\",\"c\":\"b\",\"u\":{\"m\":true},\"d\":{\"x\":1}}]}")
    }

    @Test func groupsPlaceholderAndOldCursorCatchUpInOrder() throws {
        let server = try EndToEndServer()
        #expect(try server.raw("/v1/channel-registration/sub-key/demo/channel-group/g1?add=c1,c2")
            == pubNubResponse(200, "{\"error\":false,\"message\":\"OK\",\"service\":\"channel-registry\",\"status\":200}",
                              contentType: "application/json"))
        let (_, handshake) = try server.call("/v2/subscribe/demo/%2C/0?tt=0&channel-group=g1&uuid=u")
        let start = try #require(EndToEndServer.cursor(handshake))
        var sent: [UInt64] = []
        for index in 0..<6 { sent.append(try server.publish(index.isMultiple(of: 2) ? "c1" : "c2", "\(index)")) }
        try server.publish("other", "99")
        // Any older cursor gets every buffered message newer than it, in order, with `b` = the group.
        let (_, body) = try server.call("/v2/subscribe/demo/%2C/0?tt=\(start)&channel-group=g1&uuid=u")
        let m = EndToEndServer.envelopes(body)
        #expect(m.map { $0["d"] as? Int } == [0, 1, 2, 3, 4, 5])
        #expect(m.map { $0["c"] as? String } == ["c1", "c2", "c1", "c2", "c1", "c2"])
        #expect(m.allSatisfy { $0["b"] as? String == "g1" })
        #expect(EndToEndServer.cursor(body) == sent.last)
        let (_, later) = try server.call("/v2/subscribe/demo/%2C/0?tt=\(sent[3])&channel-group=g1&uuid=u")
        #expect(EndToEndServer.envelopes(later).map { $0["d"] as? Int } == [4, 5])
    }

    @Test func channelGroupAdministration() throws {
        let server = try EndToEndServer()
        let ok = "{\"error\":false,\"message\":\"OK\",\"service\":\"channel-registry\",\"status\":200}"
        #expect(try server.call("/v1/channel-registration/sub-key/demo/channel-group/g?add=a,b,c") == (200, ok))
        #expect(try server.call("/v1/channel-registration/sub-key/demo/channel-group/g?remove=b") == (200, ok))
        #expect(try server.call("/v1/channel-registration/sub-key/demo/channel-group/g")
            == (200, "{\"status\": 200, \"payload\": {\"channels\": [\"a\", \"c\"], \"group\": \"g\"}, \"service\": \"channel-registry\", \"error\": false}"))
        // Groups without a namespace are not listed, even right after they were created (recorded).
        #expect(try server.call("/v1/channel-registration/sub-key/demo/channel-group")
            == (200, "{\"status\": 200, \"payload\": {\"namespace\": \"\", \"groups\": []}, \"service\": \"channel-registry\", \"error\": false}"))
        #expect(try server.call("/v1/channel-registration/sub-key/demo/channel-group/g/remove") == (200, ok))
        #expect(try server.call("/v1/channel-registration/sub-key/demo/channel-group")
            == (200, "{\"status\": 200, \"payload\": {\"namespace\": \"\", \"groups\": []}, \"service\": \"channel-registry\", \"error\": false}"))
    }
}
