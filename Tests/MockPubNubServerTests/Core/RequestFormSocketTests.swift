// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Request forms real clients send: absolute-form targets, targets without a slash, `Expect:
/// 100-continue` with a client that waits, HTTP/1.0. Real loopback sockets, exact bytes.
extension CoreSocketTests {
    @Suite(.offPool, .timeLimit(.minutes(TestTime.limitMinutes(5)))) struct RequestForms {
        /// Answers `200` with the routed path and query, as the PubNub routing sees them.
        static let routeEcho = ClosureHandler { request, _, responder in
            let text = "\(request.method) \(request.rawPath) ?\(request.rawQuery) \(String(decoding: request.body, as: UTF8.self))"
            responder.send(.respond(HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array(text.utf8))))
        }

        @Test(arguments: [
            ("GET http://127.0.0.1:4000/time/0 HTTP/1.1", "GET /time/0 ? "),
            ("GET https://ps.pndsn.com/time/0?uuid=a&pnsdk=x HTTP/1.1", "GET /time/0 ?uuid=a&pnsdk=x "),
            ("GET HTTP://Example.COM:80/v2/subscribe/k/ch/0?tt=0 HTTP/1.1", "GET /v2/subscribe/k/ch/0 ?tt=0 "),
            ("GET http://host:1?x=1 HTTP/1.1", "GET / ?x=1 "),
            ("GET http://host HTTP/1.1", "GET / ? "),
        ])
        func absoluteFormRoutesLikeOriginForm(line: String, routed: String) throws {
            try withServer(handler: Self.routeEcho) { _, port in
                let client = try BlockingTestClient(port: port)
                client.send(line + "\r\nHost: x\r\n\r\n")
                #expect(client.readResponse() == okResponse(routed))
            }
        }

        @Test func absoluteFormReachesThePubNubTimeEndpoint() throws {
            let server = try MockServer(configuration: .loopback(tls: false))
            let address = try server.start()
            defer { server.stop() }
            let client = try BlockingTestClient(port: address.port)
            client.send("GET http://127.0.0.1:\(address.port)/time/0?uuid=u HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            let response = try #require(client.readResponse())
            #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"))
            let body = try #require(response.split(separator: "\r\n\r\n").last)
            #expect(body.hasPrefix("[1") && body.hasSuffix("]") && body.count == 19)
        }

        @Test(arguments: ["GET time/0 HTTP/1.1", "GET ps.pndsn.com:80 HTTP/1.1", "GET * HTTP/1.1", "GET ftp://h/x HTTP/1.1"])
        func targetsThatAreNotOriginOrAbsoluteFormAreRefused(line: String) throws {
            try withServer(handler: Self.routeEcho) { _, port in
                let client = try BlockingTestClient(port: port)
                client.send(line + "\r\nHost: x\r\n\r\n")
                let body = #"{"message":"Bad Request","error":true,"service":"Balancer","status":400}"#
                let rest = client.readToEnd()
                #expect(String(decoding: rest.bytes, as: UTF8.self) == "HTTP/1.1 400 Bad Request\r\n"
                    + "Content-Type: text/javascript; charset=\"UTF-8\"\r\nContent-Length: \(body.utf8.count)\r\n"
                    + "Connection: close\r\n\r\n" + body)
                #expect(rest.end == .eof)
            }
        }

        @Test func optionsAsteriskIsAccepted() throws {
            try withServer(handler: Self.routeEcho) { _, port in
                let client = try BlockingTestClient(port: port)
                client.send("OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(client.readResponse() == okResponse("OPTIONS * ? "))
            }
        }

        @Test func continueIsSentBeforeTheBodyAndTheClientWaitsForIt() throws {
            try withServer(handler: Self.routeEcho) { _, port in
                let client = try BlockingTestClient(port: port)
                client.send("POST /publish/p/s/0/ch/0 HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: 7\r\n\r\n")
                // The client sends its body only after the interim response, as curl and the SDKs' HTTP stacks do.
                #expect(String(decoding: client.read(count: 25), as: UTF8.self) == "HTTP/1.1 100 Continue\r\n\r\n")
                client.send("\"hello\"")
                #expect(client.readResponse() == okResponse("POST /publish/p/s/0/ch/0 ? \"hello\""))
            }
        }

        @Test func continueIsNotSentWhenTheBodyAlreadyArrived() throws {
            try withServer(handler: Self.routeEcho) { _, port in
                let client = try BlockingTestClient(port: port)
                client.send("POST /p HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\nok")
                #expect(client.readResponse() == okResponse("POST /p ? ok"))
            }
        }

        @Test func continueWaitsForTheRequestInFlightBeforeIt() throws {
            let parked = ParkedRequests()
            let handler = ClosureHandler { request, context, responder in
                if request.rawPath == "/park" { parked.park(request, responder) } else {
                    Self.routeEcho.handle(request, context: context, responder: responder)
                }
            }
            try withServer(handler: handler) { _, port in
                let client = try BlockingTestClient(port: port)
                client.send("GET /park HTTP/1.1\r\n\r\nPOST /p HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
                let (_, responder) = try #require(parked.next())
                // Nothing may be written ahead of the parked request's answer.
                #expect(client.readOnce(timeoutMs: 100) == .failure(.init(end: .timedOut)))
                responder.send(.respond(HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array("late".utf8))))
                // The parked answer, then at once the interim response (often in one segment).
                let expected = okResponse("late") + "HTTP/1.1 100 Continue\r\n\r\n"
                #expect(String(decoding: client.read(count: expected.utf8.count), as: UTF8.self) == expected)
                client.send("ok")
                #expect(client.readResponse() == okResponse("POST /p ? ok"))
            }
        }

        @Test func http10GetsAnHTTP10StatusLineAndCloses() throws {
            try withServer(handler: Self.routeEcho) { _, port in
                let client = try BlockingTestClient(port: port)
                client.send("GET /time/0 HTTP/1.0\r\n\r\n")
                let rest = client.readToEnd()
                #expect(String(decoding: rest.bytes, as: UTF8.self) == "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n"
                    + "Content-Length: 14\r\nConnection: close\r\n\r\nGET /time/0 ? ")
                #expect(rest.end == .eof)
            }
        }

        @Test func http10KeepAliveStaysOpenOnlyWhenAsked() throws {
            try withServer(handler: Self.routeEcho) { _, port in
                let client = try BlockingTestClient(port: port)
                client.send("GET /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
                #expect(client.readResponse() == "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n"
                    + "Content-Length: 9\r\nConnection: keep-alive\r\n\r\nGET /a ? ")
                client.send("GET /b HTTP/1.0\r\n\r\n")
                let rest = client.readToEnd()
                #expect(String(decoding: rest.bytes, as: UTF8.self) == "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n"
                    + "Content-Length: 9\r\nConnection: close\r\n\r\nGET /b ? ")
                #expect(rest.end == .eof)
            }
        }

        @Test func http10ExpectContinueGetsNoInterimResponse() throws {
            try withServer(handler: Self.routeEcho) { _, port in
                let client = try BlockingTestClient(port: port)
                client.send("POST /p HTTP/1.0\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
                #expect(client.readOnce(timeoutMs: 100) == .failure(.init(end: .timedOut)))
                client.send("ok")
                let rest = client.readToEnd()
                #expect(String(decoding: rest.bytes, as: UTF8.self).hasPrefix("HTTP/1.0 200 OK\r\n"))
            }
        }

        @Test func tlsClientHelloOnThePlainPortIsAnsweredAndClosed() throws {
            try withServer(handler: Self.routeEcho) { server, port in
                let client = try BlockingTestClient(port: port)
                // A TLS 1.2 record header (handshake, version 3.1), then the start of a ClientHello.
                client.send([0x16, 0x03, 0x01, 0x00, 0xF0, 0x01, 0x00, 0x00, 0xEC, 0x03, 0x03])
                let body = #"{"message":"This port speaks plain HTTP, not TLS: use http:// or the TLS port","error":true,"service":"Balancer","status":400}"#
                let rest = client.readToEnd()
                #expect(String(decoding: rest.bytes, as: UTF8.self) == "HTTP/1.1 400 Bad Request\r\n"
                    + "Content-Type: text/javascript; charset=\"UTF-8\"\r\nContent-Length: \(body.utf8.count)\r\n"
                    + "Connection: close\r\n\r\n" + body)
                #expect(rest.end == .eof)
                #expect(server.connectionCloseCounts.tlsOnPlainPort == 1)
            }
        }
    }
}
