// SPDX-License-Identifier: MIT
import Synchronization
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore

/// A connection answering request after request keeps one responder while nothing else holds it;
/// a responder a handler keeps is never handed out again.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ResponderReuseTests {
    private static func answer(_ text: String) -> ResponseAction {
        .respond(HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array(text.utf8)))
    }

    private static func wire(_ text: String) -> String {
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(text.utf8.count)\r\nConnection: keep-alive\r\n\r\n\(text)"
    }

    @Test func aResponderNobodyKeepsServesTheNextRequest() throws {
        let seen = Mutex<[ObjectIdentifier]>([])
        let harness = try SteppedConnection(handler: ClosureHandler { request, _, responder in
            seen.withLock { $0.append(ObjectIdentifier(responder)) }
            responder.send(Self.answer(String(request.target.dropFirst())))
        })
        defer { harness.close() }
        for name in ["a", "b", "c"] {
            harness.send("GET /\(name) HTTP/1.1\r\n\r\n")
            harness.step()
            #expect(harness.received() == Self.wire(name))
        }
        let identities = seen.withLock { $0 }
        #expect(identities.count == 3)
        #expect(Set(identities).count == 1)
    }

    @Test func aResponderTheHandlerKeepsIsNotReusedAndItsLateSendsAreIgnored() throws {
        let kept = Mutex<[Responder]>([])
        let harness = try SteppedConnection(handler: ClosureHandler { request, _, responder in
            kept.withLock { $0.append(responder) }
            responder.send(Self.answer(String(request.target.dropFirst())))
        })
        defer { harness.close() }
        // The kept responders hold the connection, which holds this handler: let go at the end.
        defer { kept.withLock { $0.removeAll() } }
        harness.send("GET /a HTTP/1.1\r\n\r\n")
        harness.step()
        #expect(harness.received() == Self.wire("a"))
        harness.send("GET /b HTTP/1.1\r\n\r\n")
        harness.step()
        #expect(harness.received() == Self.wire("b"))
        let responders = kept.withLock { $0 }
        try #require(responders.count == 2)
        #expect(responders[0] !== responders[1])
        // The first request's responder was answered: a second send goes nowhere, and the next
        // request gets its own answer.
        #expect(!responders[0].send(Self.answer("late")))
        harness.step()
        #expect(harness.received() == "")
        harness.send("GET /c HTTP/1.1\r\n\r\n")
        harness.step()
        #expect(harness.received() == Self.wire("c"))
    }

    @Test func aParkedRequestsResponderIsNotReusedUntilTheHandlerLetsGo() throws {
        let parked = ParkedRequests()
        let harness = try SteppedConnection(handler: ClosureHandler { request, _, responder in
            if request.target == "/park" { parked.park(request, responder) } else { responder.send(Self.answer("now")) }
        })
        defer { harness.close() }
        harness.send("GET /park HTTP/1.1\r\n\r\n")
        var (_, waiting) = try #require(parked.next())
        #expect(!isKnownUniquelyReferenced(&waiting))
        #expect(waiting.send(Self.answer("later")))
        harness.step()
        #expect(harness.received() == Self.wire("later"))
        // Still held here: the next request gets another responder; sending again does nothing.
        harness.send("GET /now HTTP/1.1\r\n\r\n")
        harness.step()
        #expect(harness.received() == Self.wire("now"))
        #expect(!waiting.send(Self.answer("again")))
        #expect(!waiting.wasCancelled)
    }
}
