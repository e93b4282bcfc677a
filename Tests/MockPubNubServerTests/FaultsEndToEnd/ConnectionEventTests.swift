// SPDX-License-Identifier: MIT
import Glibc
import HarnessTesting
import Testing
@testable import MockPubNubServer

/// The connection events of listeners opened with `openListener`: each accept with its fault, and
/// a failed TLS handshake with the TLS library's reason; other listeners keep none.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ConnectionEventTests {
    @Test func acceptsAndFailedHandshakesOnWatchedListeners() async throws {
        try await EndToEnd.run { server, mainPort in
            let tls = try server.openListener(fault: .tlsExpired).port
            let client = try BlockingTestClient(port: tls)
            client.send("GET /time/0 HTTP/1.1\r\nHost: x\r\n\r\n")  // plain HTTP where a ClientHello belongs
            _ = client.readToEnd()
            #expect(eventually { server.connectionEvents(port: tls).count == 2 })
            let events = server.connectionEvents(port: tls)
            #expect(events.map(\.kind) == [.accepted, .tlsHandshakeFailed])
            #expect(events[0].detail == "tls-expired" && events[0].connectionID == nil)
            #expect(events[1].connectionID != nil && events[1].detail.contains("TLS handshake failed"))
            #expect(events.allSatisfy { $0.localPort == tls } && events[0].time <= events[1].time)

            let closing = try server.openListener(fault: .closeOnAccept).port
            _ = try EndToEnd.exchange(port: closing, EndToEnd.get("/time/0"))
            #expect(eventually { server.connectionEvents(port: closing).count == 1 })
            #expect(server.connectionEvents(port: closing).map(\.detail) == ["close-on-accept"])

            // The shared listener is not watched; a closed listener's events are forgotten.
            _ = try EndToEnd.response(port: mainPort, "/time/0")
            #expect(server.connectionEvents(port: mainPort).isEmpty)
            server.closeListener(port: tls)
            #expect(server.connectionEvents(port: tls).isEmpty)
        }
    }
}
