// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Status and body faults on a full `MockServer`, observed as the exact response a raw client reads.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct BodyFaultEndToEndTests {
    private static let pubNubType = #"text/javascript; charset="UTF-8""#

    private func answer(_ key: String, fault: String, target: String? = nil) async throws -> HTTPResponseText {
        try await EndToEnd.run { server, port in
            try EndToEnd.install(server, key, EndToEnd.plan(fault: fault))
            return try EndToEnd.response(port: port, target ?? EndToEnd.publish(key))
        }
    }

    @Test func forbiddenNamesTheRequestChannels() async throws {
        let response = try await answer(
            "sk-403", fault: #"{"kind":"status","status":403}"#, target: EndToEnd.subscribe("sk-403", channels: "a,b"))
        #expect(response.statusLine == "HTTP/1.1 403 Forbidden")
        #expect(response.header("Content-Type") == Self.pubNubType)
        #expect(
            response.bodyText
                == #"{"message":"Forbidden","payload":{"channels":["a","b"]},"error":true,"service":"Access Manager","status":403}"# + "\n")
    }

    @Test func tooManyRequestsCarriesRetryAfter() async throws {
        let response = try await answer("sk-429", fault: #"{"kind":"status","status":429,"retryAfter":7}"#)
        #expect(response.statusLine == "HTTP/1.1 429 Too Many Requests")
        #expect(response.header("Retry-After") == "7")
        #expect(
            response.bodyText
                == #"{"status": 429, "error": {"message": "You have exceeded the maximum number of requests per second allowed for your subscriber key.", "source": "objects"}}"#
        )
    }

    @Test func tooManyRequestsDefaultsToOneSecond() async throws {
        let response = try await answer("sk-429d", fault: #"{"kind":"status","status":429}"#)
        #expect(response.header("Retry-After") == "1")
    }

    @Test func uriTooLongAndGatewayTimeoutBodies() async throws {
        let tooLong = try await answer("sk-414", fault: #"{"kind":"status","status":414}"#)
        #expect(tooLong.statusLine == "HTTP/1.1 414 URI Too Long")
        #expect(tooLong.bodyText == #"{"message":"Request URI Too Long","error":true,"service":"Balancer","status":414}"#)
        let timeout = try await answer("sk-504", fault: #"{"kind":"status","status":504}"#)
        #expect(timeout.statusLine == "HTTP/1.1 504 Gateway Timeout")
        #expect(timeout.bodyText == #"{"service":"Access Manager","status":504,"error":true,"message":"Service Unavailable"}"#)
    }

    @Test func badGatewayIsAnHTMLPage() async throws {
        let response = try await answer("sk-502", fault: #"{"kind":"status","status":502}"#)
        #expect(response.statusLine == "HTTP/1.1 502 Bad Gateway")
        #expect(response.header("Content-Type") == "text/html; charset=UTF-8")
        #expect(response.bodyText.contains("502 Bad Gateway"))
    }

    @Test func customStatusBodyAndHeaders() async throws {
        let response = try await answer(
            "sk-500", fault: #"{"kind":"status","status":500,"body":"{\"e\":1}","contentType":"application/json","headers":{"X-Trace":"9"}}"#)
        #expect(response.statusLine == "HTTP/1.1 500 Internal Server Error")
        #expect(response.header("Content-Type") == "application/json")
        #expect(response.header("X-Trace") == "9")
        #expect(response.bodyText == #"{"e":1}"#)
    }

    @Test func malformedJSONPrefixesTheServiceAnswer() async throws {
        let response = try await answer("sk-malformed", fault: #"{"kind":"malformed-json"}"#)
        #expect(response.statusLine == "HTTP/1.1 200 OK")
        #expect(response.body.count == 31)
        #expect(response.header("Content-Length") == "31")
        #expect(response.bodyText.hasPrefix(#"{[1,"Sent",""#))
    }

    @Test func truncatedJSONIsWellFramed() async throws {
        let response = try await answer("sk-tjson", fault: #"{"kind":"truncated-json","bytes":10}"#)
        #expect(response.statusLine == "HTTP/1.1 200 OK")
        #expect(response.header("Content-Length") == "10")
        #expect(response.header("Connection") == "keep-alive")
        #expect(response.bodyText == #"[1,"Sent","#)
    }

    @Test func wrongShapeOnPublishIsAnObject() async throws {
        let response = try await answer("sk-shape", fault: #"{"kind":"wrong-shape"}"#)
        #expect(response.statusLine == "HTTP/1.1 200 OK")
        #expect(response.bodyText == #"{"status":200,"message":"OK","service":"Balancer"}"#)
    }

    @Test func captivePortalIsA200HTMLPage() async throws {
        // /time/0 names no key and no known uuid: only the `*` plan applies to it.
        let portal = try await EndToEnd.run { server, port in
            try EndToEnd.install(server, "*", EndToEnd.plan(fault: #"{"kind":"html","body":"<html>sign in</html>"}"#))
            return try EndToEnd.response(port: port, "/time/0")
        }
        #expect(portal.statusLine == "HTTP/1.1 200 OK")
        #expect(portal.header("Content-Type") == "text/html; charset=UTF-8")
        #expect(portal.bodyText == "<html>sign in</html>")
    }

    @Test func emptyBodyKeepsTheStatus() async throws {
        let response = try await answer("sk-empty", fault: #"{"kind":"empty-body","status":503}"#)
        #expect(response.statusLine == "HTTP/1.1 503 Service Unavailable")
        #expect(response.header("Content-Type") == Self.pubNubType)
        #expect(response.header("Content-Length") == "0")
        #expect(response.body == [])
    }

    @Test func wrongContentTypeKeepsTheBody() async throws {
        let response = try await answer("sk-ctype", fault: #"{"kind":"wrong-content-type"}"#)
        #expect(response.statusLine == "HTTP/1.1 200 OK")
        #expect(response.header("Content-Type") == "text/plain; charset=UTF-8")
        #expect(response.body.count == 30)
        #expect(response.bodyText.hasPrefix(#"[1,"Sent",""#))
    }
}
