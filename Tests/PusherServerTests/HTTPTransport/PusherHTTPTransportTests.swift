// SPDX-License-Identifier: MIT
import HarnessTesting
import MockPusher
import PusherServer
import Testing

/// The HTTP fallback transports on the listener, over real sockets: a streaming session and a
/// polling session carry a Pusher connection; faults refuse transports; sessions expire.
@Suite("Pusher HTTP transports: on the listener", .serialized, .offPool, .timeLimit(.minutes(TestTime.limitMinutes(1))))
struct PusherHTTPTransportTests {
    static let base = "/pusher/app/\(testApp.key)/123/abcd1234"
    static let query = "?protocol=7&client=js&version=8.6.0&t=1&n=1"
    static func subscribe(_ channel: String) -> String {
        #"["{\"event\":\"pusher:subscribe\",\"data\":{\"channel\":\"\#(channel)\"}}"]"#
    }

    /// A streaming request held open: reads until the received text holds what is awaited.
    final class StreamReader {
        let client: BlockingTestClient
        private(set) var text = ""

        init(port: Int, target: String) throws {
            client = try BlockingTestClient(port: port)
            client.send("POST \(target) HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 0\r\n\r\n")
        }

        /// Whether `wanted` arrived (within the read timeout of each read).
        func awaitText(_ wanted: String) -> Bool {
            for _ in 0..<1000 {
                if text.contains(wanted) { return true }
                guard case .success(let bytes) = client.readOnce() else { return false }
                text += String(decoding: bytes, as: UTF8.self)
            }
            return text.contains(wanted)
        }
    }

    @Test func aStreamingSessionCarriesTheConnection() throws {
        try withPusherServer { server in
            let stream = try StreamReader(port: server.port, target: Self.base + "/xhr_streaming" + Self.query)
            #expect(stream.awaitText("pusher:connection_established"))
            #expect(stream.text.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(stream.text.contains("\r\nTransfer-Encoding: chunked\r\n"))
            #expect(stream.text.contains("\r\nContent-Type: application/javascript; charset=UTF-8\r\n"))
            // The prelude, then `o`, then the handshake as one array line.
            #expect(stream.text.contains(String(repeating: "h", count: 2048) + "\no\n"))
            #expect(stream.text.contains(#"a["{\"event\":\"pusher:connection_established\",\"data\":\"{\\\"socket_id\\\":"#))

            // Another connection sends while the stream is held.
            let sent = try server.http("POST", Self.base + "/xhr_send?t=2&n=2", body: Self.subscribe("news"))
            #expect(sent.status == 204)
            #expect(stream.awaitText(#"pusher_internal:subscription_succeeded\",\"data\":\"{}\",\"channel\":\"news\"}"]"#))
            try server.service.trigger(appID: testApp.id, event: "breaking", data: #"{"n":1}"#, channels: ["news"])
            #expect(stream.awaitText(#"\"event\":\"breaking\""#))

            let entries = server.service.journal.entries(for: testApp.key)
            let kinds = entries.map(\.kind)
            #expect(kinds.first == .connect(
                query: [PusherQueryItem("protocol", "7"), PusherQueryItem("client", "js"), PusherQueryItem("version", "8.6.0")], tls: false,
                faultRules: []))
            #expect(kinds.dropFirst().first == .transport("xhr_streaming"))
            #expect(kinds.contains(.text(#"{"event":"pusher:subscribe","data":{"channel":"news"}}"#)))
            #expect(entries.first?.json["type"]?.stringValue == "connect")
            #expect(entries.dropFirst().first?.json["transport"]?.stringValue == "xhr_streaming")
        }
    }

    @Test func aPollingSessionAnswersEachPollOnce() throws {
        try withPusherServer { server in
            let open = try server.http("POST", Self.base + "/xhr" + Self.query)
            #expect(open.status == 200)
            #expect(open.bodyText == "o\n")
            let established = try server.http("POST", Self.base + "/xhr" + Self.query)
            #expect(established.bodyText.hasPrefix(#"a["{\"event\":\"pusher:connection_established\""#))
            #expect(established.bodyText.hasSuffix("\"]\n"))
            #expect(try server.http("POST", Self.base + "/xhr_send", body: Self.subscribe("news")).status == 204)
            let succeeded = try server.http("POST", Self.base + "/xhr" + Self.query)
            #expect(succeeded.bodyText.contains("pusher_internal:subscription_succeeded"))
            #expect(server.service.journal.entries(for: testApp.key).map(\.kind).contains(.transport("xhr_polling")))
        }
    }

    @Test func aHeldPollIsAnsweredByATrigger() throws {
        try withPusherServer { server in
            _ = try server.http("POST", Self.base + "/xhr" + Self.query)
            _ = try server.http("POST", Self.base + "/xhr" + Self.query)
            _ = try server.http("POST", Self.base + "/xhr_send", body: Self.subscribe("news"))
            _ = try server.http("POST", Self.base + "/xhr" + Self.query)
            // Nothing waits: this poll is held until the trigger.
            let poll = try BlockingTestClient(port: server.port)
            poll.send("POST \(Self.base)/xhr HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n")
            #expect(eventually { server.service.httpSessionCount == 1 && server.service.httpHeldRequestCount == 1 })
            try server.service.trigger(appID: testApp.id, event: "breaking", data: "1", channels: ["news"])
            let answer = HTTPResponseText(poll.readResponse() ?? "")
            #expect(answer.status == 200)
            #expect(answer.bodyText == #"a["{\"event\":\"breaking\",\"data\":\"1\",\"channel\":\"news\"}"]"# + "\n")
        }
    }

    @Test func aSessionWhoseClientStopsExpiresAsAConnectionWithoutClose() throws {
        let settings = PusherHTTPSessionSettings(heartbeatMilliseconds: 25_000, disconnectMilliseconds: 100)
        try withPusherServer(httpSessions: settings) { server in
            _ = try server.http("POST", Self.base + "/xhr" + Self.query)
            #expect(server.service.core.connectionCount == 1)
            #expect(eventually { server.service.core.connectionCount == 0 })
            #expect(server.service.httpSessionCount == 0)
            let last = server.service.journal.entries(for: testApp.key).last?.kind
            #expect(last == .closed(code: 1006, reason: "session expired", clean: false))
        }
    }

    @Test func aStreamWhoseClientGoesAwayEndsTheSession() throws {
        let settings = PusherHTTPSessionSettings(heartbeatMilliseconds: 25_000, disconnectMilliseconds: 100)
        try withPusherServer(httpSessions: settings) { server in
            let stream = try StreamReader(port: server.port, target: Self.base + "/xhr_streaming" + Self.query)
            #expect(stream.awaitText("pusher:connection_established"))
            #expect(server.service.httpHeldRequestCount == 1)
            // The client aborts its stream (RST): the held request is released, the session expires.
            stream.client.reset()
            #expect(eventually { server.service.httpHeldRequestCount == 0 })
            #expect(eventually { server.service.core.connectionCount == 0 && server.service.httpSessionCount == 0 })
            #expect(server.service.journal.entries(for: testApp.key).last?.kind == .closed(code: 1006, reason: "session expired", clean: false))
        }
    }

    @Test(arguments: [(UInt16(4200), true), (UInt16(1006), false)])
    func theHarnessClosesSessionsWithACloseFrameOrWithout(code: UInt16, withFrame: Bool) throws {
        try withPusherServer { server in
            let stream = try StreamReader(port: server.port, target: Self.base + "/xhr_streaming" + Self.query)
            #expect(stream.awaitText("pusher:connection_established"))
            #expect(server.service.send(text: "raw", appKey: testApp.key) == 1)
            #expect(stream.awaitText(#"a["raw"]"#))
            #expect(server.service.closeConnections(appKey: testApp.key, code: code, reason: "again") == 1)
            // The stream's last chunk: the answer is complete.
            #expect(stream.awaitText("\r\n0\r\n\r\n"))
            #expect(stream.text.contains(#"c[4200,"again"]"#) == withFrame)
            #expect(server.service.core.connectionCount == 0)
            let last = server.service.journal.entries(for: testApp.key).last?.kind
            guard case .closed(let journaled, _, let clean, _)? = last else { Issue.record("got \(String(describing: last))"); return }
            #expect(journaled == code)
            #expect(clean == withFrame)
        }
    }

    @Test func faultsRefuseTheWebSocketThenTheStream() throws {
        try withPusherServer { server in
            try server.installPlan(#"""
                {"rules":[{"id":"proxy","fault":{"kind":"refuse-websocket","status":403}},
                          {"id":"no-stream","fault":{"kind":"refuse-streaming"}}]}
                """#)
            let client = try WebSocketTestClient(port: server.port)
            let (text, head) = try client.handshake(target: "/app/\(testApp.key)?protocol=7")
            #expect(head.status == 403)
            #expect(text.hasPrefix("HTTP/1.1 403"))
            let stream = try server.http("POST", Self.base + "/xhr_streaming" + Self.query)
            #expect(stream.status == 503)
            #expect(try server.http("POST", Self.base + "/xhr" + Self.query).bodyText == "o\n")
            #expect(server.service.core.connectionCount == 1)
        }
    }

    @Test func badRequestsGetTheirStatus() throws {
        try withPusherServer { server in
            #expect(try server.http("GET", Self.base + "/xhr").status == 405)
            #expect(try server.http("POST", Self.base + "/eventsource").status == 404)
            #expect(try server.http("POST", "/pusher/app/\(testApp.key)/xhr").status == 404)
            let unknown = try server.http("POST", Self.base + "/xhr_send", body: "[]")
            #expect(unknown.status == 404)
            #expect(unknown.bodyText.contains("no session 123/abcd1234"))
            _ = try server.http("POST", Self.base + "/xhr" + Self.query)
            let broken = try server.http("POST", Self.base + "/xhr_send", body: "{not json")
            #expect(broken.status == 400)
            #expect(broken.bodyText.contains("JSON array of strings"))
            #expect(server.service.core.connectionCount == 1)
        }
    }

    @Test func anUnknownKeyIsClosed4001OverHTTPToo() throws {
        try withPusherServer { server in
            let answer = try server.http("POST", "/pusher/app/no-such-key/1/s/xhr" + Self.query)
            #expect(answer.bodyText == "o\n")
            let closed = try server.http("POST", "/pusher/app/no-such-key/1/s/xhr" + Self.query)
            #expect(closed.bodyText.contains(#"c[4001,"Could not find app by key no-such-key."#))
        }
    }
}
