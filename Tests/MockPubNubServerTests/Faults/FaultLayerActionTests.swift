// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Each fault kind, applied through the layer, produces exactly this `ResponseAction`.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct FaultLayerActionTests {
    private let publish = "/publish/pk/sk/0/ch1/0/%22hi%22?uuid=bob"
    private let pubNubType = "text/javascript; charset=\"UTF-8\""
    /// The head the fake service's publish answer gets when written by hand.
    private let sentHead = "HTTP/1.1 200 OK\r\nContent-Type: text/javascript; charset=\"UTF-8\"\r\nContent-Length: 30\r\n\r\n"
    private let sentBody = "[1,\"Sent\",\"17000000000000000\"]"

    /// The action the layer sends for one request to `target` under a plan with the single `fault`.
    private func action(
        _ fault: Fault, target: String? = nil, upstream: HTTPResponse? = FaultFixtures.sent,
        encryptor: ForeignMessageEncryptor? = nil
    ) throws -> ResponseAction? {
        let layer = FaultLayer(
            upstream: FakeUpstream(response: upstream), scheduler: ManualScheduler(), encryptor: encryptor)
        try layer.installPlan(FaultFixtures.plan([FaultRule(id: "r", fault: fault)]), for: "sk")
        let sink = ActionSink()
        let responder = sink.responder()
        // Ends a request still open (a parked upstream, a timer never run) as a client going away
        // would: its cancel handlers run and are dropped, so nothing it holds outlives the test.
        defer { responder.cancel() }
        layer.handle(FaultFixtures.request("GET", target ?? publish), context: FaultFixtures.context(), responder: responder)
        #expect(sink.all.count <= 1)
        return sink.all.first
    }

    private func response(_ status: Int, _ type: String, _ body: String, _ extra: [(String, String)] = []) -> ResponseAction {
        var headers = HTTPHeaders([("Content-Type", type)])
        for (name, value) in extra { headers.add(name, value) }
        return .respond(HTTPResponse(status: status, headers: headers, body: Array(body.utf8)))
    }

    @Test func sentBodyIsThirtyBytes() {
        #expect(FaultFixtures.sent.body.count == 30)
        #expect(FaultFixtures.text(FaultFixtures.sent.body) == sentBody)
    }

    @Test func statusFaultsUseTheSpecBodies() throws {
        let subscribe = "/v2/subscribe/sk/a,b/0?channel-group=g&tt=0&uuid=u"
        #expect(try action(.status(StatusFault(status: 403)), target: subscribe) == response(403, pubNubType,
            "{\"message\":\"Forbidden\",\"payload\":{\"channels\":[\"a\",\"b\"],\"channel-groups\":[\"g\"]},\"error\":true,\"service\":\"Access Manager\",\"status\":403}\n"))
        #expect(try action(.status(StatusFault(status: 400))) == response(400, pubNubType, "[0,\"Invalid Key\",\"17000000002500000\"]"))
        #expect(try action(.status(StatusFault(status: 400)), target: subscribe) == response(400, pubNubType,
            "{\"message\":\"Could Not Parse Request\",\"error\":true,\"service\":\"Access Manager\",\"status\":400}"))
        #expect(try action(.status(StatusFault(status: 404))) == response(404, pubNubType,
            "{\"message\": \"Not found: '/publish/pk/sk/0/ch1/0/%22hi%22'\",\"error\": 1,\"service\": \"Presence\"}"))
        #expect(try action(.status(StatusFault(status: 414))) == response(414, pubNubType,
            "{\"message\":\"Request URI Too Long\",\"error\":true,\"service\":\"Balancer\",\"status\":414}"))
        #expect(try action(.status(StatusFault(status: 429))) == response(429, pubNubType,
            "{\"status\": 429, \"error\": {\"message\": \"You have exceeded the maximum number of requests per second allowed for your subscriber key.\", \"source\": \"objects\"}}",
            [("Retry-After", "1")]))
        #expect(try action(.status(StatusFault(status: 481))) == response(481, pubNubType, "{}"))
        #expect(try action(.status(StatusFault(status: 500))) == response(500, pubNubType, "{}"))
        #expect(try action(.status(StatusFault(status: 502))) == response(502, "text/html; charset=UTF-8", FaultStatusBodies.badGatewayPage))
        #expect(try action(.status(StatusFault(status: 503))) == response(503, pubNubType,
            "{\"service\":\"Access Manager\",\"status\":503,\"error\":true,\"message\":\"Service Unavailable\"}"))
        #expect(try action(.status(StatusFault(status: 504))) == response(504, pubNubType,
            "{\"service\":\"Access Manager\",\"status\":504,\"error\":true,\"message\":\"Service Unavailable\"}"))
        #expect(try action(.status(StatusFault(status: 418))) == response(418, pubNubType,
            "{\"status\":418,\"error\":true,\"message\":\"Unknown\",\"service\":\"Mock\"}"))
    }

    @Test func statusOverridesBodyTypeAndHeaders() throws {
        let fault = StatusFault(
            status: 429, body: "slow down", contentType: "text/plain",
            headers: [HeaderField(name: "X-Trace", value: "1"), HeaderField(name: "Retry-After", value: "9")], retryAfter: 2)
        #expect(try action(.status(fault)) == response(429, "text/plain", "slow down", [("X-Trace", "1"), ("Retry-After", "9")]))
    }

    @Test func bodyFaultsAnsweredDirectly() throws {
        #expect(try action(.wrongShape(body: nil)) == response(200, pubNubType, "{\"status\":200,\"message\":\"OK\",\"service\":\"Balancer\"}"))
        #expect(try action(.wrongShape(body: nil), target: "/v2/subscribe/sk/c/0?tt=0") == response(200, pubNubType, "[1,\"OK\",{\"t\":\"0\"}]"))
        #expect(try action(.wrongShape(body: "[]")) == response(200, pubNubType, "[]"))
        #expect(try action(.html(body: nil)) == response(200, "text/html; charset=UTF-8", FaultStatusBodies.captivePortal))
        #expect(try action(.emptyBody(status: 200)) == response(200, pubNubType, ""))
        #expect(try action(.emptyBody(status: 503)) == response(503, pubNubType, ""))
    }

    @Test func connectionFaultsSendNothing() throws {
        #expect(try action(.hang) == .hang)
        #expect(try action(.close) == .close(.fin))
        #expect(try action(.reset) == .close(.reset))
    }

    @Test func transformsOfTheServiceAnswer() throws {
        #expect(try action(.malformedJSON) == response(200, pubNubType, "{" + sentBody))
        #expect(try action(.truncatedJSON(bytes: nil)) == response(200, pubNubType, String(sentBody.prefix(15))))
        #expect(try action(.truncatedJSON(bytes: 4)) == response(200, pubNubType, "[1,\""))
        #expect(try action(.truncatedJSON(bytes: 500)) == response(200, pubNubType, String(sentBody.prefix(29))))
        #expect(try action(.wrongContentType(contentType: "text/plain")) == response(200, "text/plain", sentBody))
    }

    @Test func framingFaultsWriteExactBytes() throws {
        let chunkedHead = "HTTP/1.1 200 OK\r\nContent-Type: text/javascript; charset=\"UTF-8\"\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n"
        #expect(try action(.invalidChunked) == .raw(Array((chunkedHead + "zz\r\n" + sentBody + "\r\n0\r\n\r\n").utf8), then: .fin))
        #expect(try action(.resetAfterHeaders) == .raw(Array(sentHead.utf8), then: .reset))
        #expect(try action(.resetAfterBodyBytes(bytes: 5)) == .raw(Array((sentHead + "[1,\"S").utf8), then: .reset))
        #expect(try action(.resetAfterBodyBytes(bytes: 0)) == .raw(Array(sentHead.utf8), then: .reset))
        #expect(try action(.truncatedBody(bytes: 10, contentLength: .full))
            == .raw(Array((sentHead + "[1,\"Sent\",").utf8), then: .fin))
        let correctHead = "HTTP/1.1 200 OK\r\nContent-Type: text/javascript; charset=\"UTF-8\"\r\nContent-Length: 10\r\nConnection: close\r\n\r\n"
        #expect(try action(.truncatedBody(bytes: 10, contentLength: .correct))
            == .raw(Array((correctHead + "[1,\"Sent\",").utf8), then: .fin))
        #expect(try action(.drip(chunkSize: 3, intervalMs: 40))
            == .drip(Array((sentHead + sentBody).utf8), chunkSize: 3, interval: .milliseconds(40), then: .keepAlive))
    }

    @Test func delaysWrapTheServiceAnswerOrAnotherFault() throws {
        #expect(try action(.delay(ms: 250, then: nil)) == .delay(.milliseconds(250), then: .respond(FaultFixtures.sent)))
        #expect(try action(.delay(ms: 250, then: .reset)) == .delay(.milliseconds(250), then: .close(.reset)))
        #expect(try action(.delay(ms: 10, then: .truncatedJSON(bytes: 2)))
            == .delay(.milliseconds(10), then: response(200, pubNubType, "[1")))
        #expect(try action(.malformedJSON, upstream: nil) == nil)  // the service parked it: nothing yet
    }
}
