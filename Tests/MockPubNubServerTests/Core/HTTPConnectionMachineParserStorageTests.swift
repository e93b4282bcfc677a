// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore

private let ok = HTTPResponse(status: 200, body: Array("ok".utf8))

/// The machine's parser lives out of line: made when bytes arrive, dropped (by the owner, after a
/// batch of actions) while a request waits for its answer with nothing behind it, kept otherwise.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct HTTPConnectionMachineParserStorageTests {
    @Test func aParkedRequestWithNothingBehindItHoldsNoParser() {
        var h = HTTPMachineHarness()
        #expect(h.machine.parserStorage == nil)
        #expect(h.receive("GET /poll HTTP/1.1\r\n\r\n") == ["dispatch GET /poll token 1 seq 0"])
        // The owner drops it once the request is dispatched and not answered at once.
        #expect(h.machine.parserStorage != nil)
        h.machine.releaseParserWhileWaiting()
        #expect(h.machine.parserStorage == nil)
        // The next request, split across reads, is parsed by a new parser as by the old one.
        #expect(h.answer(.respond(ok)) == ["respond 200 keep-alive", "flush"])
        #expect(h.feed(.flushed) == ["idle"])
        #expect(h.receive("POST /p HTTP/1.1\r\nContent-Le") == ["idle"])
        #expect(h.machine.parserStorage != nil)
        #expect(h.receive("ngth: 3\r\n\r\nab") == ["idle"])
        #expect(h.machine.parserHasBufferedBytes)
        #expect(h.receive("c") == ["dispatch POST /p token 2 seq 1"])
        // Answered before the owner asks: kept for the next request.
        #expect(h.answer(.respond(ok)) == ["respond 200 keep-alive", "flush"])
        h.machine.releaseParserWhileWaiting()
        #expect(h.machine.parserStorage != nil)
        #expect(h.feed(.flushed) == ["idle"])
        h.machine.releaseParserWhileWaiting()
        #expect(h.machine.parserStorage != nil)
    }

    @Test func aParserWithBytesBehindTheParkedRequestIsKept() {
        var h = HTTPMachineHarness()
        #expect(h.receive("GET /poll HTTP/1.1\r\n\r\nGET /next HT") == ["dispatch GET /poll token 1 seq 0"])
        #expect(h.machine.parserStorage != nil)
        #expect(h.machine.parserBufferedByteCount == 12)
        h.machine.releaseParserWhileWaiting()
        #expect(h.machine.parserStorage != nil)
        #expect(h.receive("TP/1.1\r\n\r\n") == [])
        #expect(h.machine.queuedCount == 1)
        h.answer(.respond(ok))
        #expect(h.feed(.flushed) == ["dispatch GET /next token 2 seq 1"])
        h.machine.releaseParserWhileWaiting()
        #expect(h.machine.parserStorage == nil)
    }

    @Test func aFailedParserIsKeptAndStaysFailed() {
        var h = HTTPMachineHarness()
        #expect(h.receive("GET /poll HTTP/1.1\r\n\r\nBROKEN\r\n\r\n") == ["report 400", "dispatch GET /poll token 1 seq 0"])
        h.machine.releaseParserWhileWaiting()
        #expect(h.machine.parserStorage != nil)
        h.answer(.respond(ok))
        #expect(h.feed(.flushed) == ["error 400", "flush"])
    }
}
