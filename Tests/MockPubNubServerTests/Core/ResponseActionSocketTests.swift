// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

extension CoreSocketTests {
    /// Each `ResponseAction` as the client sees it.
    @Suite(.offPool, .timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ResponseActions {
        /// A handler that answers every request with `action`.
        private func run(_ action: ResponseAction, request: String = "GET /x HTTP/1.1\r\n\r\n", timeoutMs: Int32 = 5000)
            throws -> (bytes: [UInt8], end: BlockingTestClient.End)
        {
            try withServer(handler: ClosureHandler { _, _, responder in responder.send(action) }) { _, port in
                let client = try BlockingTestClient(port: port)
                client.send(request)
                return client.readToEnd(timeoutMs: timeoutMs)
            }
        }

        @Test func rawBytesThenFinGiveExactBytesAndCleanEOF() throws {
            let bytes = Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n{\"a\":".utf8)
            let result = try run(.raw(bytes, then: .fin))
            #expect(result.bytes == bytes)
            #expect(result.end == .eof)
        }

        @Test func rawBytesThenResetGiveTheBytesThenECONNRESET() throws {
            let bytes = Array("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\n".utf8)
            let result = try run(.raw(bytes, then: .reset))
            #expect(result.bytes == bytes)
            #expect(result.end == .error(ECONNRESET))
        }

        @Test func closeFinSendsNothingAndEOF() throws {
            let result = try run(.close(.fin))
            #expect(result.bytes == [])
            #expect(result.end == .eof)
        }

        @Test func closeResetSendsNothingAndECONNRESET() throws {
            let result = try run(.close(.reset))
            #expect(result.bytes == [])
            #expect(result.end == .error(ECONNRESET))
        }

        @Test func hangSendsNothingAndKeepsTheConnection() throws {
            let result = try run(.hang, timeoutMs: 150)
            #expect(result.bytes == [])
            #expect(result.end == .timedOut)
        }

        @Test func respondOnConnectionCloseEndsWithEOF() throws {
            let response = HTTPResponse.pubNub(200, "[1,\"Sent\",\"17000000000000000\"]")
            let result = try run(.respond(response), request: "GET /x HTTP/1.1\r\nConnection: close\r\n\r\n")
            let expected = "HTTP/1.1 200 OK\r\nContent-Type: text/javascript; charset=\"UTF-8\"\r\nContent-Length: 30\r\n"
                + "Connection: close\r\n\r\n[1,\"Sent\",\"17000000000000000\"]"
            #expect(String(decoding: result.bytes, as: UTF8.self) == expected)
            #expect(result.end == .eof)
        }

        @Test func delayThenRespondArrivesAfterwards() throws {
            let action = ResponseAction.delay(.milliseconds(300), then: .respond(HTTPResponse(status: 204)))
            try withServer(handler: ClosureHandler { _, _, responder in responder.send(action) }) { _, port in
                let client = try BlockingTestClient(port: port)
                client.send("GET /x HTTP/1.1\r\n\r\n")
                #expect(client.readOnce(timeoutMs: 50) == .failure(.init(end: .timedOut)))
                #expect(client.readResponse() == "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\nConnection: keep-alive\r\n\r\n")
            }
        }

        @Test func dripArrivesInSeveralPiecesThenFIN() throws {
            let bytes = Array("0123456789".utf8)
            try withServer(handler: ClosureHandler { _, _, responder in
                responder.send(.drip(bytes, chunkSize: 4, interval: .milliseconds(60), then: .fin))
            }) { _, port in
                let client = try BlockingTestClient(port: port)
                client.send("GET /x HTTP/1.1\r\n\r\n")
                var pieces: [[UInt8]] = []
                var end = BlockingTestClient.End.timedOut
                for _ in 0..<20 {
                    switch client.readOnce() {
                    case .success(let piece): pieces.append(piece)
                    case .failure(let error): end = error.end
                    }
                    if end != .timedOut { break }
                }
                #expect(pieces.flatMap { $0 } == bytes)
                #expect(pieces.count >= 2)  // three chunks; two may coalesce if this thread is descheduled
                #expect(pieces.allSatisfy { $0.count <= 8 })
                #expect(end == .eof)
            }
        }

        @Test func rawWithKeepAliveServesTheNextRequest() throws {
            let handler = ClosureHandler { request, _, responder in
                if request.rawPath == "/raw" {
                    responder.send(.raw(Array("HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nR".utf8), then: .keepAlive))
                } else {
                    echoHandler.handle(request, context: RequestContext(connectionID: 0, peer: "", localPort: 0, isTLS: false, arrivalTime: 0, sequenceOnConnection: 0), responder: responder)
                }
            }
            try withServer(handler: handler) { _, port in
                let client = try BlockingTestClient(port: port)
                client.send("GET /raw HTTP/1.1\r\n\r\nGET /next HTTP/1.1\r\n\r\n")
                #expect(client.readResponse() == "HTTP/1.1 200 OK\r\nContent-Length: 1\r\n\r\nR")
                #expect(client.readResponse() == okResponse("GET /next "))
            }
        }
    }
}
