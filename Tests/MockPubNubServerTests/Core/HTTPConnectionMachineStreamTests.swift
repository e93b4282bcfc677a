// SPDX-License-Identifier: MIT
import HarnessTesting
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore

/// Streamed answers (`ResponseAction.stream`) in the connection machine: the head, chunks as they
/// come, the last chunk, then the next request; HTTP/1.0 without chunk framing.
@Suite("HTTP connection machine: streamed answers", .timeLimit(.minutes(TestTime.limitMinutes(1))))
struct HTTPConnectionMachineStreamTests {
    @Test func chunksFollowTheHeadAndTheEndFreesThePipeline() {
        var harness = HTTPMachineHarness()
        harness.receive("POST /s HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\nGET /next HTTP/1.1\r\nHost: x\r\n\r\n")
        let stream = ResponseStream()
        #expect(harness.answer(.stream(HTTPResponse(status: 200, body: Array("o\n".utf8)), stream)) == ["stream 200 token 1 chunked keep-alive", "flush"])
        #expect(harness.feed(.flushed).isEmpty)
        #expect(harness.feed(.streamWrite(Array("a[\"x\"]\n".utf8), token: 1)) == ["write 7\r\na[\"x\"]\n\r\n", "flush"])
        // A chunk for another request, or an empty one, writes nothing.
        #expect(harness.feed(.streamWrite(Array("h\n".utf8), token: 9)).isEmpty)
        #expect(harness.feed(.streamWrite([], token: 1)).isEmpty)
        #expect(harness.feed(.flushed).isEmpty)
        #expect(harness.feed(.streamEnd(token: 1)) == ["write 0\r\n\r\n", "flush"])
        #expect(harness.feed(.flushed).first == "dispatch GET /next token 2 seq 1")
    }

    @Test func http10StreamsUnframedAndClosesAtTheEnd() {
        var harness = HTTPMachineHarness()
        harness.receive("POST /s HTTP/1.0\r\nContent-Length: 0\r\n\r\n")
        #expect(harness.answer(.stream(HTTPResponse(status: 200), ResponseStream())) == ["stream 200 token 1 close", "flush"])
        #expect(harness.feed(.streamWrite(Array("h\n".utf8), token: 1)) == ["write h\n", "flush"])
        #expect(harness.feed(.streamEnd(token: 1)) == ["write ", "flush"])
        #expect(harness.feed(.flushed).last == "fin")
    }

    @Test func chunkFraming() {
        expectSameElements(HTTPConnectionMachine.chunk(Array(repeating: 0x68, count: 2049)).prefix(5), Array("801\r\n".utf8))
        expectSameText(String(decoding: HTTPConnectionMachine.chunk(Array("o\n".utf8)), as: UTF8.self), "2\r\no\n\r\n")
    }
}
