// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore

/// Drives an `HTTPConnectionMachine` without sockets and reads its actions as short lines.
struct HTTPMachineHarness {
    var machine: HTTPConnectionMachine

    init(maxQueuedRequests: Int = 16, upgradesPossible: Bool = false) {
        machine = HTTPConnectionMachine(
            limits: HTTPRequestParser.Limits(), maxQueuedRequests: maxQueuedRequests, upgradesPossible: upgradesPossible)
        _ = machine.handle(.handshakeCompleted)
    }

    /// The request the last `receive` asked to route as an upgrade.
    var routed: HTTPRequest?

    @discardableResult
    mutating func receive(_ text: String) -> [String] {
        let actions = machine.received(text)
        for case .routeUpgrade(let request, _, _, _) in actions { routed = request }
        return actions.map(Self.line)
    }

    @discardableResult
    mutating func feed(_ input: HTTPConnectionInput) -> [String] { machine.handle(input).map(Self.line) }

    /// Answers the request in flight with `action` and reports the flush of what it wrote.
    @discardableResult
    mutating func answer(_ action: ResponseAction) -> [String] {
        let token = machine.current?.token ?? 0
        return feed(.delivered(action, token: token))
    }

    static func line(_ action: HTTPConnectionAction) -> String {
        switch action {
        case .dispatch(let request, let token, _, let sequence): "dispatch \(request.method) \(request.target) token \(token) seq \(sequence)"
        case .routeUpgrade(let request, let token, _, _): "route \(request.target) token \(token)"
        case .writeResponse(let response, let keepAlive, let headRequest, let http10):
            "respond \(response.status)\(keepAlive ? " keep-alive" : " close")\(headRequest ? " head" : "")\(http10 ? " 1.0" : "")"
        case .write(let bytes): "write \(String(decoding: bytes, as: UTF8.self))"
        case .writeErrorResponse(let error): "error \(error.status)"
        case .flush: "flush"
        case .reportParseError(let error): "report \(error.status)"
        case .schedule(.delay(let token, _), let nanos): "delay token \(token) \(nanos / 1_000_000) ms"
        case .schedule(.dripNext, let nanos): "drip pause \(nanos / 1_000_000) ms"
        case .cancelRequest(let token): "cancel token \(token)"
        case .shutdownWrite: "fin"
        case .resetAfterSendQueueDrains: "reset"
        case .close: "close"
        case .pipelineIdle: "idle"
        case .resumeReading: "resume"
        case .startStream(let response, _, let token, let chunked, let keepAlive):
            "stream \(response.status) token \(token)\(chunked ? " chunked" : "")\(keepAlive ? " keep-alive" : " close")"
        }
    }
}

private let ok = HTTPResponse(status: 200, body: Array("ok".utf8))

/// The HTTP connection's decisions without a socket: pipelining, 100-continue, keep-alive and
/// close, HEAD and HTTP/1.0 framing, drips, delays, FIN, peer closes, timeouts, the upgrade hold.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct HTTPConnectionMachineTests {
    @Test func pipelinedRequestsAreHandedOutOneAtATimeInOrder() {
        var h = HTTPMachineHarness()
        #expect(h.receive("GET /a HTTP/1.1\r\n\r\nGET /b HTTP/1.1\r\n\r\nGET /c HTTP/1.1\r\n\r\n") == ["dispatch GET /a token 1 seq 0"])
        #expect(h.machine.queuedCount == 2)
        #expect(h.answer(.respond(ok)) == ["respond 200 keep-alive", "flush"])
        // The next request only once the answer is written.
        #expect(h.machine.outputPending)
        #expect(h.feed(.flushed) == ["dispatch GET /b token 2 seq 1"])
        // A late answer for an earlier request is ignored.
        #expect(h.feed(.delivered(.respond(ok), token: 1)) == [])
        h.answer(.respond(ok))
        #expect(h.feed(.flushed) == ["dispatch GET /c token 3 seq 2"])
        h.answer(.respond(ok))
        #expect(h.feed(.flushed) == ["idle"])
        #expect(h.machine.current == nil)
    }

    @Test func connectionCloseAndHTTP10EndWithFINAfterTheAnswer() {
        var h = HTTPMachineHarness()
        h.receive("GET /a HTTP/1.1\r\nConnection: close\r\n\r\nGET /dropped HTTP/1.1\r\n\r\n")
        #expect(h.answer(.respond(ok)) == ["respond 200 close", "flush"])
        #expect(h.feed(.flushed) == ["cancel token 1", "fin"])
        #expect(h.machine.phase == .draining)
        #expect(h.machine.queuedCount == 0)
        // While draining, input is discarded.
        #expect(h.receive("GET /late HTTP/1.1\r\n\r\n") == [])
        #expect(h.feed(.peerClosed) == ["close"])

        var old = HTTPMachineHarness()
        old.receive("GET /a HTTP/1.0\r\n\r\n")
        #expect(old.answer(.respond(ok)) == ["respond 200 close 1.0", "flush"])
        var kept = HTTPMachineHarness()
        kept.receive("HEAD /a HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(kept.answer(.respond(ok)) == ["respond 200 keep-alive head 1.0", "flush"])
        #expect(kept.feed(.flushed) == ["idle"])
    }

    @Test func continueIsSentOnceNothingIsInFlightBeforeTheRequest() {
        var h = HTTPMachineHarness()
        let expecting = "POST /p HTTP/1.1\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n"
        // Nothing in flight: the 100 goes out, and the watchdog is told (a request is arriving).
        #expect(h.receive(expecting) == ["write HTTP/1.1 100 Continue\r\n\r\n", "flush", "idle"])
        h.feed(.flushed)
        #expect(h.receive("abc") == ["dispatch POST /p token 1 seq 0"])

        // The body came with the head: no 100.
        var withBody = HTTPMachineHarness()
        #expect(withBody.receive(expecting + "abc") == ["dispatch POST /p token 1 seq 0"])

        // Behind a parked request: only once that one is answered.
        var behind = HTTPMachineHarness()
        #expect(behind.receive("GET /parked HTTP/1.1\r\n\r\n" + expecting) == ["dispatch GET /parked token 1 seq 0"])
        behind.answer(.respond(ok))
        #expect(behind.feed(.flushed) == ["idle", "write HTTP/1.1 100 Continue\r\n\r\n", "flush"])

        // Never to HTTP/1.0.
        var old = HTTPMachineHarness()
        #expect(old.receive("POST /p HTTP/1.0\r\nContent-Length: 3\r\nExpect: 100-continue\r\n\r\n") == ["idle"])
    }

    @Test func aFramingErrorIsAnsweredAfterEveryRequestBeforeIt() {
        var h = HTTPMachineHarness()
        #expect(h.receive("GET /a HTTP/1.1\r\n\r\nGET /b HTTP/9.9\r\n\r\n") == ["report 505", "dispatch GET /a token 1 seq 0"])
        #expect(!h.machine.readingAllowed)
        h.answer(.respond(ok))
        #expect(h.feed(.flushed) == ["error 505", "flush"])
        #expect(h.feed(.flushed) == ["fin"])
    }

    @Test func aDripWritesChunksWithPausesThenGoesOn() {
        var h = HTTPMachineHarness()
        h.receive("GET /drip HTTP/1.1\r\n\r\n")
        #expect(h.answer(.drip(Array("abcde".utf8), chunkSize: 2, interval: .milliseconds(10), then: .keepAlive)) == ["write ab", "flush"])
        #expect(h.feed(.flushed) == ["drip pause 10 ms"])
        #expect(h.feed(.timerFired(.dripNext)) == ["write cd", "flush"])
        h.feed(.flushed)
        #expect(h.feed(.timerFired(.dripNext)) == ["write e", "flush"])
        #expect(h.feed(.flushed) == ["idle"])

        var closing = HTTPMachineHarness()
        closing.receive("GET /drip HTTP/1.1\r\n\r\n")
        closing.answer(.drip(Array("ab".utf8), chunkSize: 8, interval: .milliseconds(10), then: .reset))
        #expect(closing.feed(.flushed) == ["reset"])
    }

    @Test func aDelayExecutesItsActionOnlyForItsOwnRequest() {
        var h = HTTPMachineHarness()
        h.receive("GET /slow HTTP/1.1\r\n\r\n")
        #expect(h.answer(.delay(.milliseconds(250), then: .respond(ok))) == ["delay token 1 250 ms"])
        #expect(h.feed(.timerFired(.delay(token: 7, then: .respond(ok)))) == [])
        #expect(h.feed(.timerFired(.delay(token: 1, then: .respond(ok)))) == ["respond 200 keep-alive", "flush"])
        // close(.keepAlive) sends nothing and goes on; hang does nothing.
        h.feed(.flushed)
        h.receive("GET /x HTTP/1.1\r\n\r\nGET /y HTTP/1.1\r\n\r\n")
        #expect(h.answer(.close(.keepAlive)) == ["dispatch GET /y token 3 seq 2"])
        #expect(h.answer(.hang) == [])
        #expect(h.machine.current?.token == 3)
    }

    @Test func aPeerCloseAbandonsTheRequestButFinishesAnAnswerGoingOut() {
        var parked = HTTPMachineHarness()
        parked.receive("GET /parked HTTP/1.1\r\n\r\n")
        #expect(parked.feed(.peerClosed) == ["close"])

        var writing = HTTPMachineHarness()
        writing.receive("GET /a HTTP/1.1\r\n\r\nGET /b HTTP/1.1\r\n\r\n")
        writing.answer(.respond(ok))
        #expect(writing.feed(.peerClosed) == ["cancel token 1"])
        #expect(writing.feed(.flushed) == ["cancel token 1", "fin"])
    }

    @Test func theQueueStopsReadingAtItsLimitAndResumesOnceItShrinks() {
        var h = HTTPMachineHarness(maxQueuedRequests: 2)
        // One read brings three requests: the first is handed out, two wait, reading stops.
        h.receive("GET /1 HTTP/1.1\r\n\r\nGET /2 HTTP/1.1\r\n\r\nGET /3 HTTP/1.1\r\n\r\n")
        #expect(h.machine.queuedCount == 2)
        #expect(!h.machine.readingAllowed)
        #expect(h.feed(.readingRefused(peerHungUp: false)) == [])
        h.answer(.respond(ok))
        #expect(h.feed(.flushed) == ["dispatch GET /2 token 2 seq 1", "resume"])
        #expect(h.machine.readingAllowed)
    }

    @Test func timeoutsAnswer408ToAPartialRequestAndCloseAnIdleOne() {
        var partial = HTTPMachineHarness()
        partial.receive("GET /slo")
        #expect(partial.feed(.requestTimedOut) == ["error 408", "flush"])
        #expect(partial.feed(.flushed) == ["fin"])

        var silent = HTTPMachineHarness()
        #expect(silent.feed(.requestTimedOut) == ["fin"])

        var idle = HTTPMachineHarness()
        idle.receive("GET /a HTTP/1.1\r\n\r\n")
        idle.answer(.respond(ok))
        idle.feed(.flushed)
        #expect(idle.feed(.idleTimedOut) == ["fin"])
    }

    @Test func anUpgradeRequestHoldsTheBytesBehindItUntilRouted() throws {
        let upgrade = "GET /ws HTTP/1.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n"
        var taken = HTTPMachineHarness(upgradesPossible: true)
        #expect(taken.receive(upgrade + "\u{81}\u{05}frame") == ["route /ws token 1"])
        #expect(!taken.machine.readingAllowed)
        #expect(taken.machine.takeBufferedBytes() == Array("\u{81}\u{05}frame".utf8))
        #expect(taken.feed(.upgradeAccepted) == [])
        #expect(taken.machine.phase == .closed)

        var declined = HTTPMachineHarness(upgradesPossible: true)
        declined.receive(upgrade + "GET /next HTTP/1.1\r\n\r\n")
        let held = try #require(declined.routed)
        #expect(declined.feed(.upgradeDeclined(held, arrival: 0)) == ["dispatch GET /ws token 1 seq 0"])
        // Handed back twice: once is enough.
        #expect(declined.feed(.upgradeDeclined(held, arrival: 0)) == [])
        declined.answer(.respond(ok))
        #expect(declined.feed(.flushed) == ["dispatch GET /next token 2 seq 1"])

        var refused = HTTPMachineHarness(upgradesPossible: true)
        refused.receive(upgrade + "GET /never HTTP/1.1\r\n\r\n")
        #expect(refused.feed(.upgradeRefused(HTTPResponse(status: 400))) == ["respond 400 close", "flush"])
        #expect(refused.feed(.flushed) == ["cancel token 1", "fin"])

        // Without a router an upgrade request is an ordinary one.
        var plain = HTTPMachineHarness()
        #expect(plain.receive(upgrade) == ["dispatch GET /ws token 1 seq 0"])
    }
}
