// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Testing
import CPosix
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// `headerTimeout` and `idleTimeout` with 200 ms limits; every check waits for the close event
/// (read returns 0) or for a bounded silence, never for a fixed sleep.
extension CoreSocketTests {
    @Suite(.offPool, .timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ConnectionTimeouts {
        static func configure(_ configuration: inout HTTPServerConfiguration) {
            configuration.headerTimeout = .milliseconds(200)
            configuration.idleTimeout = .milliseconds(200)
        }

        static let requestTimeoutBody = #"{"message":"Request Timeout","error":true,"service":"Balancer","status":408}"#
        static let requestTimeoutResponse = "HTTP/1.1 408 Request Timeout\r\nContent-Type: text/javascript; charset=\"UTF-8\"\r\n"
            + "Content-Length: \(requestTimeoutBody.utf8.count)\r\nConnection: close\r\n\r\n" + requestTimeoutBody

        @Test func anIncompleteHeadIsAnswered408AndClosed() throws {
            try withServer(configure: Self.configure, handler: echoHandler) { server, port in
                let client = try BlockingTestClient(port: port)
                let start = cposix_monotonic_nanos()
                client.send("GET /slow HTTP/1.1\r\nHost: x\r\n")
                let rest = client.readToEnd()
                let elapsed = cposix_monotonic_nanos() - start
                #expect(String(decoding: rest.bytes, as: UTF8.self) == Self.requestTimeoutResponse)
                #expect(rest.end == .eof)
                #expect(elapsed >= 190_000_000)
                #expect(server.connectionCloseCounts == ConnectionCloseCounts(headerTimeouts: 1))
            }
        }

        @Test func aHeadDrippedByteByByteIsTimedFromItsFirstByte() throws {
            try withServer(configure: Self.configure, handler: echoHandler) { server, port in
                let client = try BlockingTestClient(port: port)
                let head = Array("GET /drip HTTP/1.1\r\nHost: x\r\nX-Long: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n\r\n".utf8)
                var sent = 0
                // One byte every 20 ms would need ~1.4 s: the server must cut it at 200 ms.
                for byte in head {
                    client.send([byte])
                    sent += 1
                    if case .failure(let end) = client.readOnce(timeoutMs: 20) {
                        guard end.end == .timedOut else { break }
                        continue
                    }
                    break
                }
                #expect(sent < head.count)
                client.shutdownWrite()
                #expect(eventually { server.connectionCloseCounts.headerTimeouts == 1 })
                #expect(eventually { server.openConnectionCount == 0 })
            }
        }

        @Test func aConnectionThatNeverSendsIsClosedWithoutAnAnswer() throws {
            try withServer(configure: Self.configure, handler: echoHandler) { server, port in
                let client = try BlockingTestClient(port: port)
                let rest = client.readToEnd()
                #expect(rest.bytes.isEmpty)
                #expect(rest.end == .eof)
                #expect(server.connectionCloseCounts.headerTimeouts == 1)
            }
        }

        @Test func anIdleKeepAliveConnectionIsClosedAfterItsResponses() throws {
            try withServer(configure: Self.configure, handler: echoHandler) { server, port in
                let client = try BlockingTestClient(port: port)
                for index in 0..<3 {
                    client.send("GET /k/\(index) HTTP/1.1\r\n\r\n")
                    #expect(client.readResponse() == okResponse("GET /k/\(index) "))
                }
                let start = cposix_monotonic_nanos()
                let rest = client.readToEnd()
                #expect(rest.bytes.isEmpty)
                #expect(rest.end == .eof)
                #expect(cposix_monotonic_nanos() - start >= 150_000_000)
                #expect(server.connectionCloseCounts == ConnectionCloseCounts(idleTimeouts: 1))
            }
        }

        @Test func aParkedRequestIsNeitherSlowNorIdle() throws {
            let parked = ParkedRequests()
            let handler = ClosureHandler { request, _, responder in parked.park(request, responder) }
            try withServer(configure: Self.configure, handler: handler) { server, port in
                let client = try BlockingTestClient(port: port)
                client.send("GET /v2/subscribe/k/ch/0?tt=1 HTTP/1.1\r\n\r\n")
                let (_, responder) = try #require(parked.next())
                // Three idle timeouts pass without a close while the request is parked.
                #expect(client.readOnce(timeoutMs: 600) == .failure(.init(end: .timedOut)))
                responder.send(.respond(HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array("m".utf8))))
                #expect(client.readResponse() == okResponse("m"))
                // Then the connection is idle, and closed.
                #expect(client.readToEnd().end == .eof)
                #expect(server.connectionCloseCounts == ConnectionCloseCounts(idleTimeouts: 1))
            }
        }

        @Test func hangsAndDripsOnPurposeAreExempt() throws {
            let handler = ClosureHandler { request, _, responder in
                if request.rawPath == "/hang" {
                    responder.send(.hang)
                } else {
                    responder.send(.drip(Array("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nabcd".utf8), chunkSize: 10,
                                         interval: .milliseconds(150), then: .fin))
                }
            }
            try withServer(configure: Self.configure, handler: handler) { server, port in
                let hanging = try BlockingTestClient(port: port)
                hanging.send("GET /hang HTTP/1.1\r\n\r\n")
                let dripping = try BlockingTestClient(port: port)
                dripping.send("GET /drip HTTP/1.1\r\n\r\n")
                // The drip takes 4 × 150 ms, longer than both timeouts; it arrives whole.
                let dripped = dripping.readToEnd()
                #expect(String(decoding: dripped.bytes, as: UTF8.self) == "HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nabcd")
                #expect(dripped.end == .eof)
                #expect(hanging.readOnce(timeoutMs: 300) == .failure(.init(end: .timedOut)))
                #expect(server.connectionCloseCounts.headerTimeouts == 0)
                #expect(server.connectionCloseCounts.idleTimeouts == 0)
            }
        }

        @Test func aPartialSecondRequestIsTimedAsARequest() throws {
            try withServer(configure: Self.configure, handler: echoHandler) { server, port in
                let client = try BlockingTestClient(port: port)
                client.send("GET /a HTTP/1.1\r\n\r\nGET /b HTT")
                #expect(client.readResponse() == okResponse("GET /a "))
                let rest = client.readToEnd()
                #expect(String(decoding: rest.bytes, as: UTF8.self) == Self.requestTimeoutResponse)
                #expect(rest.end == .eof)
                #expect(server.connectionCloseCounts == ConnectionCloseCounts(headerTimeouts: 1))
            }
        }

        @Test func noTimeoutsWhenDisabled() throws {
            try withServer(configure: { $0.headerTimeout = nil; $0.idleTimeout = nil }, handler: echoHandler) { server, port in
                let client = try BlockingTestClient(port: port)
                client.send("GET /a HTTP/1.1\r\n\r\n")
                #expect(client.readResponse() == okResponse("GET /a "))
                #expect(client.readOnce(timeoutMs: 300) == .failure(.init(end: .timedOut)))
                #expect(server.connectionCloseCounts == ConnectionCloseCounts())
            }
        }
    }
}
