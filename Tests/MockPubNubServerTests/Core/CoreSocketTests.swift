// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization
import Testing
import CPosix
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Socket tests over loopback; serialized so that their blocking clients occupy one worker at a time.
@Suite(.serialized, .offPool, .timeLimit(.minutes(TestTime.limitMinutes(5)))) enum CoreSocketTests {}

/// Waits (bounded: `seconds` of wall time, 5 s unless told) until `condition` holds, checking every 2 ms.
func eventually(seconds: UInt64 = 5, _ condition: () -> Bool) -> Bool {
    let deadline = cposix_monotonic_nanos() + seconds * 1_000_000_000
    while cposix_monotonic_nanos() < deadline {
        if condition() { return true }
        poll(nil, 0, 2)
    }
    return condition()
}

extension CoreSocketTests {
    @Suite(.offPool, .timeLimit(.minutes(TestTime.limitMinutes(5)))) struct KeepAliveAndPipelining {
        @Test func keepAliveServesSeveralRequestsOnOneConnection() throws {
            try withServer(handler: echoHandler) { _, port in
                let client = try BlockingTestClient(port: port)
                for index in 0..<3 {
                    client.send("GET /n/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
                    #expect(client.readResponse() == okResponse("GET /n/\(index) "))
                }
                client.send("POST /p HTTP/1.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n3\r\nabc\r\n0\r\n\r\n")
                let rest = client.readToEnd()
                #expect(String(decoding: rest.bytes, as: UTF8.self) == okResponse("POST /p abc", close: true))
                #expect(rest.end == .eof)
            }
        }

        @Test func http10ClosesAfterTheResponse() throws {
            try withServer(handler: echoHandler) { _, port in
                let client = try BlockingTestClient(port: port)
                client.send("GET /old HTTP/1.0\r\n\r\n")
                let rest = client.readToEnd()
                #expect(String(decoding: rest.bytes, as: UTF8.self)
                    == "HTTP/1.0" + okResponse("GET /old ", close: true).dropFirst(8))
                #expect(rest.end == .eof)
            }
        }

        @Test func pipelinedRequestsAreAnsweredInOrderAfterAParkedOne() throws {
            let parked = ParkedRequests()
            let handler = ClosureHandler { request, context, responder in
                if request.rawPath == "/park" {
                    parked.park(request, responder)
                } else {
                    responder.send(.respond(HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"],
                        body: Array("\(request.rawPath) #\(context.sequenceOnConnection)".utf8))))
                }
            }
            try withServer(handler: handler) { _, port in
                let client = try BlockingTestClient(port: port)
                client.send("GET /park HTTP/1.1\r\n\r\nGET /a HTTP/1.1\r\n\r\nGET /b HTTP/1.1\r\n\r\n")
                let (request, responder) = try #require(parked.next())
                #expect(request.rawPath == "/park")
                #expect(client.readOnce(timeoutMs: 100) == .failure(.init(end: .timedOut)))
                // Answer from a thread that is not the loop's.
                let answered = DispatchSemaphore(value: 0)
                OtherThread.detach {
                    responder.send(.respond(HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array("late".utf8))))
                    answered.signal()
                }
                #expect(answered.wait(timeout: .now() + TestTime.budget(5)) == .success)
                #expect(client.readResponse() == okResponse("late"))
                #expect(client.readResponse() == okResponse("/a #1"))
                #expect(client.readResponse() == okResponse("/b #2"))
            }
        }

        @Test func answersGivenOnBehalfOfAnotherRequestAreWrittenAfterItsOwn() throws {
            // One loop: the parked request and the releasing one share the thread. The release
            // handler answers the parked request first, then peeks at the parked client's socket:
            // nothing may have arrived yet, because writes made for other connections wait until
            // the current request is handled (so one publish hands every loop its share first).
            let parked = ParkedRequests()
            let peeked = Mutex<Int?>(nil)
            let waiting = Mutex<Int32>(-1)
            let handler = ClosureHandler { request, _, responder in
                if request.rawPath == "/park" {
                    parked.park(request, responder)
                    return
                }
                if let (_, other) = parked.next() {
                    other.send(.respond(HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array("released".utf8))))
                    var byte: UInt8 = 0
                    let fd = waiting.withLock { $0 }
                    let count = recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT))
                    peeked.withLock { $0 = count }
                }
                responder.send(.respond(HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array("done".utf8))))
            }
            try withServer(loops: 1, handler: handler) { _, port in
                let sleeper = try BlockingTestClient(port: port)
                waiting.withLock { $0 = sleeper.fd }
                sleeper.send("GET /park HTTP/1.1\r\n\r\n")
                #expect(eventually { parked.count == 1 })
                let releaser = try BlockingTestClient(port: port)
                releaser.send("GET /release HTTP/1.1\r\n\r\n")
                #expect(releaser.readResponse() == okResponse("done"))
                #expect(sleeper.readResponse() == okResponse("released"))
                #expect(peeked.withLock { $0 } == -1)
            }
        }

        @Test func clientDisconnectWhileParkedCancelsTheResponder() throws {
            let parked = ParkedRequests()
            let handler = ClosureHandler { request, _, responder in parked.park(request, responder) }
            try withServer(handler: handler) { server, port in
                let client = try BlockingTestClient(port: port)
                client.send("GET /v2/subscribe/k/c/0?tt=1 HTTP/1.1\r\n\r\n")
                let (_, responder) = try #require(parked.next())
                #expect(server.openConnectionCount == 1)
                client.shutdownWrite()
                #expect(parked.waitForCancellation())
                #expect(responder.wasCancelled)
                #expect(responder.send(.close(.fin)) == false)
                #expect(eventually { server.openConnectionCount == 0 })
            }
        }

        @Test func clientResetWhileParkedCancelsTheResponder() throws {
            let parked = ParkedRequests()
            let handler = ClosureHandler { request, _, responder in parked.park(request, responder) }
            try withServer(handler: handler) { server, port in
                let client = try BlockingTestClient(port: port)
                client.send("GET /park HTTP/1.1\r\n\r\n")
                _ = try #require(parked.next())
                client.reset()
                #expect(parked.waitForCancellation())
                #expect(eventually { server.openConnectionCount == 0 })
            }
        }

        @Test func expectContinueGetsAnInterimResponse() throws {
            try withServer(handler: echoHandler) { _, port in
                let client = try BlockingTestClient(port: port)
                client.send("POST /c HTTP/1.1\r\nExpect: 100-continue\r\nContent-Length: 2\r\n\r\n")
                #expect(String(decoding: client.read(count: 25), as: UTF8.self) == "HTTP/1.1 100 Continue\r\n\r\n")
                client.send("ok")
                #expect(client.readResponse() == okResponse("POST /c ok"))
            }
        }
    }
}

/// Runs `body` on a new detached thread.
enum OtherThread {
    static func detach(_ body: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async(execute: body)
    }
}

extension CoreSocketTests.KeepAliveAndPipelining {
    @Test func aLongPipelineBeyondTheQueueLimitIsAnsweredCompletelyInOrder() throws {
        try withServer(configure: { $0.maxPipelinedRequests = 4 }, handler: echoHandler) { _, port in
            let client = try BlockingTestClient(port: port)
            client.send((0..<100).map { "GET /p/\($0) HTTP/1.1\r\n\r\n" }.joined())
            for index in 0..<100 {
                #expect(client.readResponse() == okResponse("GET /p/\(index) "))
            }
        }
    }
}
