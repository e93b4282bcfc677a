// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

extension CoreSocketTests {
    /// Bad input, limits, descriptor hygiene and shutdown.
    @Suite(.offPool, .timeLimit(.minutes(TestTime.limitMinutes(5)))) struct Robustness {
        private func errorExchange(_ request: String, configure: (inout HTTPServerConfiguration) -> Void = { _ in })
            throws -> (text: String, end: BlockingTestClient.End)
        {
            try withServer(configure: configure, handler: echoHandler) { _, port in
                let client = try BlockingTestClient(port: port)
                client.send(request)
                let result = client.readToEnd()
                return (String(decoding: result.bytes, as: UTF8.self), result.end)
            }
        }

        private func balancer(_ status: Int, _ reason: String, _ message: String) -> String {
            let body = "{\"message\":\"\(message)\",\"error\":true,\"service\":\"Balancer\",\"status\":\(status)}"
            return "HTTP/1.1 \(status) \(reason)\r\nContent-Type: text/javascript; charset=\"UTF-8\"\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        }

        @Test func longTargetGets414WithThePubNubBody() throws {
            // Over the 32 KiB target limit (the live balancer takes a 10 KB publish URI, refuses 100 KB).
            let result = try errorExchange("GET /publish/" + String(repeating: "a", count: 33_000) + " HTTP/1.1\r\n\r\n")
            let body = "{\"status\":414,\"service\":\"Balancer\",\"error\":true,\"message\":\"Request URI Too Long\"}\n"
            #expect(result.text == "HTTP/1.1 414 URI Too Long\r\nContent-Type: text/javascript; charset=UTF-8\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
            #expect(result.end == .eof)
        }

        @Test func oversizedHeadersGet431() throws {
            let result = try errorExchange("GET / HTTP/1.1\r\nX-Big: " + String(repeating: "b", count: 17000) + "\r\n\r\n")
            #expect(result.text == balancer(431, "Request Header Fields Too Large", "Request Header Fields Too Large"))
            #expect(result.end == .eof)
        }

        @Test func bodyTooLargeGets413() throws {
            let result = try errorExchange("POST / HTTP/1.1\r\nContent-Length: 2000\r\n\r\n") { $0.maxBodyBytes = 1000 }
            #expect(result.text == balancer(413, "Content Too Large", "Request Entity Too Large"))
        }

        @Test func withoutAnInjectedResponderFramingErrorsGetPlainText() throws {
            let result = try withServer(parseErrorResponse: { $0.plainResponse }, handler: echoHandler) { _, port in
                let client = try BlockingTestClient(port: port)
                client.send("NONSENSE\r\n\r\n")
                return String(decoding: client.readToEnd().bytes, as: UTF8.self)
            }
            #expect(result == "HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: 12\r\nConnection: close\r\n\r\nBad Request\n")
        }

        @Test func malformedRequestGets400AfterEarlierPipelinedResponses() throws {
            let result = try errorExchange("GET /fine HTTP/1.1\r\n\r\nNONSENSE\r\n\r\n")
            #expect(result.text == okResponse("GET /fine ") + balancer(400, "Bad Request", "Bad Request"))
            #expect(result.end == .eof)
        }

        @Test func garbageDoesNotStopTheServerServingOthers() throws {
            try withServer(handler: echoHandler) { server, port in
                let healthy = try BlockingTestClient(port: port)
                var garbage: [UInt8] = []
                var seed: UInt32 = 12345
                for _ in 0..<4096 {
                    seed = seed &* 1_103_515_245 &+ 12345
                    garbage.append(UInt8(truncatingIfNeeded: seed >> 16))
                }
                for round in 0..<20 {
                    let bad = try BlockingTestClient(port: port)
                    bad.send(Array(garbage[(round * 100)...]))
                    if round % 2 == 0 { bad.reset() }
                }
                healthy.send("GET /still HTTP/1.1\r\n\r\n")
                #expect(healthy.readResponse() == okResponse("GET /still "))
                let late = try BlockingTestClient(port: port)
                late.send("GET /late HTTP/1.1\r\n\r\n")
                #expect(late.readResponse() == okResponse("GET /late "))
                _ = server
            }
        }

        @Test func manyConnectionsLeaveNoDescriptorsBehind() throws {
            try withServer(handler: echoHandler) { server, port in
                let baseline = openDescriptorCount()
                for index in 0..<300 {
                    let client = try BlockingTestClient(port: port)
                    if index % 3 == 0 {
                        client.send("GET /x HTTP/1.1\r\nConnection: close\r\n\r\n")
                        _ = client.readToEnd()
                    } else if index % 3 == 1 {
                        client.send("GET /x HTTP/1.1\r\n\r\n")
                        _ = client.readResponse()
                    } else {
                        client.send("GET /partial")
                    }
                }
                #expect(eventually { server.openConnectionCount == 0 })
                // Only the listener is left among the sockets on the server's port.
                #expect(eventually { socketDescriptors(localPorts: [port]) == 1 })
                // A leak of any of the three kinds would add 100 for good; the slack and the longer
                // wait absorb the descriptors of tests running meanwhile (a loaded machine holds them longer).
                #expect(eventually(seconds: 20) { openDescriptorCount() < baseline + 50 })
            }
        }

        @Test func stopClosesConnectionsCancelsParkedRequestsAndJoins() throws {
            let parked = ParkedRequests()
            let handler = ClosureHandler { request, _, responder in parked.park(request, responder) }
            let server = HTTPServer(configuration: HTTPServerConfiguration(eventLoopCount: 2), handler: handler)
            let address = try server.start()
            let stalling = try server.addListener(host: "127.0.0.1", port: 0, fault: .stallOnAccept)
            let refused = try server.reserveRefusedPort()
            let stalled = try BlockingTestClient(port: stalling.port)
            let ports: Set<Int> = [address.port, stalling.port, refused.port]
            let parkedClient = try BlockingTestClient(port: address.port)
            parkedClient.send("GET /park HTTP/1.1\r\n\r\n")
            let (_, responder) = try #require(parked.next())
            let idle = try BlockingTestClient(port: address.port)
            idle.send("GET /park HTTP/1.1\r\n\r\n")
            _ = try #require(parked.next())
            // 2 listeners and 3 accepted sockets (a bound, non-listening socket is not in /proc/net/tcp).
            #expect(eventually { socketDescriptors(localPorts: ports) == 5 }, "\(socketDescriptors(localPorts: ports))")
            server.stop()
            #expect(responder.wasCancelled)
            #expect(parkedClient.readToEnd().end == .eof)
            #expect(server.openConnectionCount == 0)
            #expect(throws: BlockingTestClient.ClientError.self) { try BlockingTestClient(port: address.port) }
            #expect(socketDescriptors(localPorts: ports) == 0)
            #expect(stalled.readToEnd().end == .eof)
            server.stop()  // idempotent
        }

        @Test func schedulerRunsWorkAndHonoursCancel() throws {
            try withServer(handler: echoHandler) { server, _ in
                let ran = Mutex<[Int]>([])
                let done = DispatchSemaphore(value: 0)
                let cancelled = server.scheduler.schedule(after: .milliseconds(5)) { ran.withLock { $0.append(1) } }
                cancelled.cancel()
                server.scheduler.schedule(after: .milliseconds(20)) {
                    ran.withLock { $0.append(2) }
                    done.signal()
                }
                #expect(done.wait(timeout: .now() + TestTime.budget(5)) == .success)
                #expect(ran.withLock { $0 } == [2])
            }
        }
    }
}

extension CoreSocketTests {
    @Suite(.offPool, .timeLimit(.minutes(TestTime.limitMinutes(5)))) struct AsyncShutdown {
        @Test func shutdownFromAsyncCodeClosesConnections() async throws {
            let server = HTTPServer(configuration: HTTPServerConfiguration(eventLoopCount: 1), handler: echoHandler)
            let address = try server.start()
            let client = try BlockingTestClient(port: address.port)
            client.send("GET /a HTTP/1.1\r\n\r\n")
            #expect(client.readResponse() == okResponse("GET /a "))
            await server.shutdown()
            #expect(server.openConnectionCount == 0)
            #expect(client.readToEnd().end == .eof)
        }
    }
}

extension CoreSocketTests {
    @Suite(.offPool, .timeLimit(.minutes(TestTime.limitMinutes(5)))) struct StartErrors {
        @Test func busyPortNonNumericHostAndDoubleStartAreTypedErrors() throws {
            try withServer(handler: echoHandler) { server, port in
                #expect(throws: HTTPServerError.self) { try server.start() }
                let second = HTTPServer(configuration: HTTPServerConfiguration(port: port, eventLoopCount: 1), handler: echoHandler)
                let busy = #expect(throws: HTTPServerError.self) { try second.start() }
                #expect(busy?.errno == EADDRINUSE)
                second.stop()
                let named = #expect(throws: HTTPServerError.self) {
                    try server.addListener(host: "localhost", port: 0)
                }
                #expect(named?.description == "not a numeric IP address: localhost")
            }
        }
    }
}

extension CoreSocketTests.StartErrors {
    @Test func handlerBuiltWithTheServersSchedulerCanUseIt() throws {
        let server = HTTPServer(configuration: HTTPServerConfiguration(eventLoopCount: 1)) { scheduler in
            ClosureHandler { _, _, responder in
                scheduler.schedule(after: .milliseconds(1)) {
                    responder.send(.respond(HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array("timer".utf8))))
                }
            }
        }
        let address = try server.start()
        defer { server.stop() }
        let client = try BlockingTestClient(port: address.port)
        client.send("GET / HTTP/1.1\r\n\r\n")
        #expect(client.readResponse() == okResponse("timer"))
    }
}
