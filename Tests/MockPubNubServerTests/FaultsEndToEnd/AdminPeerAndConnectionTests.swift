// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// The admin API behind a dual-stack listener, and its connection counts.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct AdminPeerAndConnectionTests {
    @Test func anIPv4ClientOfADualStackListenerIsLoopback() async throws {
        try await EndToEnd.run(configure: { $0.host = "::" }) { _, port in
            // 127.0.0.1 reaches the `::` listener as ::ffff:127.0.0.1.
            let (bytes, _) = try EndToEnd.exchange(port: port, "GET /__admin/plans HTTP/1.1\r\nConnection: close\r\n\r\n")
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200 OK\r\n"), "\(text)")
            #expect(text.hasSuffix("\r\n\r\n{\"plans\":[]}"))
        }
    }

    @Test(arguments: [
        ("127.0.0.1:5000", true), ("127.8.9.10:1", true), ("[::1]:5000", true), ("[::ffff:127.0.0.1]:5000", true),
        ("[::FFFF:127.0.0.2]:1", true), ("[::ffff:10.0.0.1]:5000", false), ("10.0.0.1:80", false),
        ("[2001:db8::1]:80", false), ("[::1234]:80", false), ("unknown", false),
    ])
    func loopbackPeers(peer: String, loopback: Bool) {
        let context = RequestContext(
            connectionID: 1, peer: peer, localPort: 1, isTLS: false, arrivalTime: 0, sequenceOnConnection: 0)
        #expect(context.peerIsLoopback == loopback)
    }

    @Test func connectionCountsAreServedByTheAdminAPI() async throws {
        try await EndToEnd.run(configure: { $0.headerTimeout = .milliseconds(150) }) { server, port in
            let slow = try BlockingTestClient(port: port)
            slow.send("GET /time/0 HTTP/1.1\r\n")
            #expect(slow.readToEnd().end == .eof)
            #expect(server.connectionCloseCounts.headerTimeouts == 1)
            slow.shutdownWrite()
            #expect(eventually { server.openConnectionCount == 0 })
            let (bytes, _) = try EndToEnd.exchange(port: port, "GET /__admin/connections HTTP/1.1\r\nConnection: close\r\n\r\n")
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(text.hasSuffix(#"{"open":1,"headerTimeouts":1,"idleTimeouts":0,"tlsOnPlainPort":0}"#), "\(text)")
            let (index, _) = try EndToEnd.exchange(port: port, "GET /__admin/ HTTP/1.1\r\nConnection: close\r\n\r\n")
            #expect(String(decoding: index, as: UTF8.self).contains(#""path":"/__admin/connections""#))
        }
    }
}
