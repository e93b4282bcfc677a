// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Transport faults of a plan, installed in-process on a full `MockServer` and observed by a raw client.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct TransportFaultEndToEndTests {
    /// Publish answers are `[1,"Sent","<17-digit timetoken>"]`: 30 bytes whose first 10 are fixed.
    private let publishPrefix = #"[1,"Sent","#

    @Test func closeIsACleanEOFWithoutAByte() async throws {
        let seen = try await EndToEnd.run { server, port in
            try EndToEnd.install(server, "sk-close", EndToEnd.plan(fault: #"{"kind":"close"}"#))
            return try EndToEnd.exchange(port: port, EndToEnd.get(EndToEnd.publish("sk-close")))
        }
        #expect(seen.bytes == [])
        #expect(seen.end == .eof)
    }

    @Test func resetIsECONNRESETWithoutAByte() async throws {
        let seen = try await EndToEnd.run { server, port in
            try EndToEnd.install(server, "sk-reset", EndToEnd.plan(fault: #"{"kind":"reset"}"#))
            return try EndToEnd.exchange(port: port, EndToEnd.get(EndToEnd.publish("sk-reset")))
        }
        #expect(seen.bytes == [])
        #expect(seen.end == .error(ECONNRESET))
    }

    @Test func hangSendsNothingUntilTheClientGivesUp() async throws {
        let seen = try await EndToEnd.run { server, port in
            try EndToEnd.install(server, "sk-hang", EndToEnd.plan(fault: #"{"kind":"hang"}"#))
            return try EndToEnd.exchange(port: port, EndToEnd.get(EndToEnd.publish("sk-hang")), silenceMs: 300)
        }
        #expect(seen.bytes == [])
        #expect(seen.end == .timedOut)
    }

    @Test func delayKeepsSilentThenAnswersNormally() async throws {
        let (early, late) = try await EndToEnd.run { server, port in
            try EndToEnd.install(server, "sk-delay", EndToEnd.plan(fault: #"{"kind":"delay","ms":400}"#))
            let client = try BlockingTestClient(port: port)
            client.send(EndToEnd.get(EndToEnd.publish("sk-delay")))
            let early = client.readOnce(timeoutMs: 100)
            return (early, client.readResponse(timeoutMs: TestTime.budgetMs(3000)))
        }
        #expect(early == .failure(.init(end: .timedOut)))
        let response = HTTPResponseText(Array(try #require(late).utf8))
        #expect(response.statusLine == "HTTP/1.1 200 OK")
        #expect(response.body.count == 30)
        #expect(response.bodyText.hasPrefix(publishPrefix))
    }

    @Test func delayThenAnotherFault() async throws {
        let response = try await EndToEnd.run { server, port in
            try EndToEnd.install(
                server, "sk-delay-then", EndToEnd.plan(fault: #"{"kind":"delay","ms":50,"then":{"kind":"status","status":500}}"#))
            return try EndToEnd.response(port: port, EndToEnd.publish("sk-delay-then"))
        }
        #expect(response.statusLine == "HTTP/1.1 500 Internal Server Error")
        #expect(response.bodyText == "{}")
    }

    @Test func dripArrivesInSeveralReadsAsACompleteResponse() async throws {
        let (reads, bytes) = try await EndToEnd.run { server, port in
            try EndToEnd.install(server, "sk-drip", EndToEnd.plan(fault: #"{"kind":"drip","chunkSize":16,"intervalMs":15}"#))
            let client = try BlockingTestClient(port: port)
            client.send(EndToEnd.get(EndToEnd.publish("sk-drip")))
            var reads: [[UInt8]] = []
            for _ in 0..<200 {
                guard case .success(let chunk) = client.readOnce(timeoutMs: TestTime.budgetMs(1000)) else { break }
                reads.append(chunk)
                let parsed = HTTPResponseText(reads.flatMap { $0 })
                if parsed.body.count >= 30 { break }
            }
            return (reads.count, reads.flatMap { $0 })
        }
        let response = HTTPResponseText(bytes)
        #expect(reads > 1)
        #expect(response.statusLine == "HTTP/1.1 200 OK")
        #expect(response.header("Content-Length") == "30")
        #expect(response.body.count == 30)
        #expect(response.bodyText.hasPrefix(publishPrefix))
    }

    @Test func truncatedBodyDeclaringTheFullLengthEndsEarlyWithFIN() async throws {
        let seen = try await EndToEnd.run { server, port in
            try EndToEnd.install(
                server, "sk-trunc-full", EndToEnd.plan(fault: #"{"kind":"truncated-body","bytes":10,"contentLength":"full"}"#))
            return try EndToEnd.exchange(port: port, EndToEnd.get(EndToEnd.publish("sk-trunc-full")))
        }
        let response = HTTPResponseText(seen.bytes)
        #expect(response.header("Content-Length") == "30")
        #expect(response.bodyText == publishPrefix)
        #expect(seen.end == .eof)
    }

    @Test func truncatedBodyWithCorrectLengthIsACompleteExchange() async throws {
        let seen = try await EndToEnd.run { server, port in
            try EndToEnd.install(
                server, "sk-trunc-ok", EndToEnd.plan(fault: #"{"kind":"truncated-body","bytes":10,"contentLength":"correct"}"#))
            return try EndToEnd.exchange(port: port, EndToEnd.get(EndToEnd.publish("sk-trunc-ok")))
        }
        let response = HTTPResponseText(seen.bytes)
        #expect(response.header("Content-Length") == "10")
        #expect(response.header("Connection") == "close")
        #expect(response.bodyText == publishPrefix)
        #expect(seen.end == .eof)
    }

    @Test func resetAfterHeadersDeliversTheHeadThenECONNRESET() async throws {
        let seen = try await EndToEnd.run { server, port in
            try EndToEnd.install(server, "sk-rah", EndToEnd.plan(fault: #"{"kind":"reset-after-headers"}"#))
            return try EndToEnd.exchange(port: port, EndToEnd.get(EndToEnd.publish("sk-rah")))
        }
        let response = HTTPResponseText(seen.bytes)
        #expect(response.statusLine == "HTTP/1.1 200 OK")
        #expect(response.header("Content-Length") == "30")
        #expect(response.body == [])
        #expect(seen.end == .error(ECONNRESET))
    }

    @Test func resetAfterBodyBytesDeliversThatManyThenECONNRESET() async throws {
        let seen = try await EndToEnd.run { server, port in
            try EndToEnd.install(server, "sk-rabb", EndToEnd.plan(fault: #"{"kind":"reset-after-body-bytes","bytes":5}"#))
            return try EndToEnd.exchange(port: port, EndToEnd.get(EndToEnd.publish("sk-rabb")))
        }
        let response = HTTPResponseText(seen.bytes)
        #expect(response.header("Content-Length") == "30")
        #expect(response.bodyText == #"[1,"S"#)
        #expect(seen.end == .error(ECONNRESET))
    }

    @Test func invalidChunkedHasANonHexChunkSize() async throws {
        let seen = try await EndToEnd.run { server, port in
            try EndToEnd.install(server, "sk-chunk", EndToEnd.plan(fault: #"{"kind":"invalid-chunked"}"#))
            return try EndToEnd.exchange(port: port, EndToEnd.get(EndToEnd.publish("sk-chunk")))
        }
        let response = HTTPResponseText(seen.bytes)
        #expect(response.header("Transfer-Encoding") == "chunked")
        #expect(response.header("Content-Length") == nil)
        let body = response.bodyText
        #expect(body.hasPrefix("zz\r\n" + publishPrefix))
        #expect(body.hasSuffix("\"]\r\n0\r\n\r\n"))
        #expect(body.utf8.count == 4 + 30 + 7)
        #expect(seen.end == .eof)
    }

    @Test(arguments: [("fin", BlockingTestClient.End.eof), ("reset", .error(ECONNRESET))])
    func closeLongPollEndsAParkedSubscribe(mode: String, expected: BlockingTestClient.End) async throws {
        let (handshake, seen) = try await EndToEnd.run { server, port in
            try EndToEnd.install(
                server, "sk-clp",
                EndToEnd.plan(match: #"{"query":{"tt":"!0"}}"#, fault: #"{"kind":"close-long-poll","afterMs":100,"mode":"\#(mode)"}"#))
            let handshake = try EndToEnd.response(port: port, EndToEnd.subscribe("sk-clp"))
            let cursor = try SubscribeBody.cursor(handshake.body)
            let seen = try EndToEnd.exchange(port: port, EndToEnd.get(EndToEnd.subscribe("sk-clp", tt: cursor)), silenceMs: 3000)
            return (handshake, seen)
        }
        #expect(handshake.statusLine == "HTTP/1.1 200 OK")
        #expect(seen.bytes == [])
        #expect(seen.end == expected)
    }
}
