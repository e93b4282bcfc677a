// SPDX-License-Identifier: MIT
import HarnessTesting
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// The cross-origin fields, `Cache-Control` and `Date` on every kind of answer, exact heads, and
/// the two browser-only faults (`no-cors`, `preflight-failure`).
@Suite(.offPool, .timeLimit(.minutes(TestTime.limitMinutes(5)))) struct AnswerFieldsEndToEndTests {
    @Test func aPublishAckAndTheTime() async throws {
        try await EndToEnd.run { _, port in
            let publish = try EndToEnd.response(port: port, EndToEnd.publish("sub-k"))
            let expected = [
                "HTTP/1.1 200 OK", "Content-Type: text/javascript; charset=UTF-8", "Access-Control-Allow-Origin: *",
                "Access-Control-Allow-Methods: GET", "Cache-Control: no-cache",
                "Content-Length: \(publish.body.count)", "Connection: keep-alive",
            ].joined(separator: "\r\n")
            #expect(CrossOrigin.undated(publish.head) == expected)
            let time = try EndToEnd.response(port: port, "/time/0")
            #expect(time.header("Access-Control-Allow-Methods") == "GET")
            #expect(time.header("Content-Encoding") == nil)
        }
    }

    @Test func errorAnswersAndUnknownPathsCarryTheFields() async throws {
        try await EndToEnd.run { _, port in
            let unknown = try EndToEnd.response(port: port, "/nowhere/at/all")
            #expect(unknown.status == 404)
            #expect(unknown.header("Access-Control-Allow-Origin") == "*")
            _ = CrossOrigin.undated(unknown.head)
            let badGrant = try EndToEnd.response(port: port, "/v3/pam/sub-k/grant")
            #expect(badGrant.status >= 400)
            #expect(badGrant.header("Access-Control-Allow-Credentials") == "true")
            #expect(badGrant.header("Cache-Control") == "no-cache, no-store, must-revalidate")
        }
    }

    @Test func aStatusFaultAndA204() async throws {
        try await EndToEnd.run { server, port in
            try EndToEnd.install(server, "sub-k", EndToEnd.plan(fault: #"{"kind":"status","status":503}"#))
            let faulted = try EndToEnd.response(port: port, EndToEnd.publish("sub-k"))
            #expect(faulted.status == 503)
            #expect(faulted.header("Access-Control-Allow-Origin") == "*")
            #expect(faulted.header("Access-Control-Allow-Methods") == "GET")
            _ = CrossOrigin.undated(faulted.head)
            try EndToEnd.install(server, "sub-k", EndToEnd.plan(fault: #"{"kind":"empty-body","status":204}"#))
            let empty = try EndToEnd.response(port: port, "/v2/presence/sub-key/sub-k/channel/ch/leave?uuid=u1")
            #expect(empty.status == 204)
            #expect(empty.header("Access-Control-Allow-Methods") == "OPTIONS, GET, POST")
            _ = CrossOrigin.undated(empty.head)
        }
    }

    @Test func handWrittenFaultHeadsCarryTheFieldsToo() async throws {
        try await EndToEnd.run { server, port in
            try EndToEnd.install(server, "sub-k", EndToEnd.plan(fault: #"{"kind":"truncated-body","contentLength":"correct"}"#))
            let (cut, _) = try EndToEnd.exchange(port: port, EndToEnd.get(EndToEnd.publish("sub-k")))
            let head = HTTPResponseText(cut)
            #expect(head.header("Access-Control-Allow-Origin") == "*")
            #expect(head.header("Cache-Control") == "no-cache")
            _ = CrossOrigin.undated(head.head)
        }
    }

    @Test func theDownloadRedirectAndTheStorageAnswers() async throws {
        try await EndToEnd.run { _, port in
            let redirect = try EndToEnd.response(port: port, "/v1/files/sub-k/channels/ch/files/0f1e/a.txt?uuid=u1")
            #expect(redirect.status == 307)
            // The handler's own Cache-Control stays; the rule's fields follow the handler's.
            #expect(redirect.header("Cache-Control")?.hasPrefix("public, max-age=") == true)
            #expect(redirect.header("Access-Control-Allow-Origin") == "*")
            #expect(redirect.header("Access-Control-Allow-Credentials") == "true")
            #expect(redirect.header("Access-Control-Expose-Headers") == "*")
            _ = CrossOrigin.undated(redirect.head)
            let location = try #require(redirect.header("Location"))
            let missing = try EndToEnd.response(port: port, String(location.drop { $0 != "/" }.dropFirst(2).drop { $0 != "/" }))
            #expect(missing.status == 404)
            #expect(missing.header("Access-Control-Allow-Methods") == "GET, HEAD, POST, PUT")
            #expect(missing.header("Access-Control-Expose-Headers") == "*")
            _ = CrossOrigin.undated(missing.head)
        }
    }

    @Test func anAnswerToARequestThatDidNotParseCarriesTheFallbackFields() async throws {
        try await EndToEnd.run { _, port in
            let tooLong = "GET /publish/p/s/0/ch/0/" + String(repeating: "1", count: 40_000) + " HTTP/1.1\r\nHost: x\r\n\r\n"
            let answer = try CrossOrigin.send(port: port, tooLong)
            #expect(answer.status == 414)
            #expect(answer.header("Access-Control-Allow-Origin") == "*")
            #expect(answer.header("Access-Control-Allow-Methods") == PubNubCORS.fallback.allowMethods)
            _ = CrossOrigin.undated(answer.head)
        }
    }

    @Test func noCORSLeavesOutOnlyTheCrossOriginFields() async throws {
        try await EndToEnd.run { server, port in
            try EndToEnd.install(server, "sub-k", EndToEnd.plan(fault: #"{"kind":"no-cors"}"#))
            let answer = try EndToEnd.response(port: port, EndToEnd.publish("sub-k"))
            #expect(answer.status == 200)
            let expected = [
                "HTTP/1.1 200 OK", "Content-Type: text/javascript; charset=UTF-8", "Cache-Control: no-cache",
                "Content-Length: \(answer.body.count)",
            ].joined(separator: "\r\n")
            #expect(CrossOrigin.undated(answer.head) == expected)
            // Preflights are not the no-cors fault's: they still pass.
            let preflight = try CrossOrigin.send(port: port, CrossOrigin.preflight(EndToEnd.publish("sub-k"), method: "POST", headers: nil))
            #expect(preflight.status == 204)
        }
    }

    @Test(arguments: [
        (#"{"kind":"preflight-failure"}"#, 403, true, true),
        (#"{"kind":"preflight-failure","omit":"method"}"#, 204, false, true),
        (#"{"kind":"preflight-failure","omit":"headers"}"#, 204, true, false),
        (#"{"kind":"preflight-failure","omit":"origin","status":200}"#, 200, true, true),
    ])
    func preflightFailures(fault: String, status: Int, admitsPatch: Bool, echoes: Bool) async throws {
        try await EndToEnd.run { server, port in
            try EndToEnd.install(server, "sub-k", EndToEnd.plan(fault: fault))
            // The actual request is not the fault's: it passes.
            let time = try EndToEnd.response(port: port, "/v2/objects/sub-k/uuids/u1?uuid=u1")
            #expect(time.status != 403)
            let answer = try CrossOrigin.send(port: port, CrossOrigin.preflight("/v2/objects/sub-k/uuids/u1?uuid=u1", method: "PATCH", headers: "If-Match"))
            #expect(answer.status == status)
            _ = CrossOrigin.undated(answer.head)
            if status == 403 {
                #expect(answer.header("Access-Control-Allow-Methods") == nil)
            } else {
                #expect((answer.header("Access-Control-Allow-Methods")?.contains("PATCH") ?? false) == admitsPatch)
                #expect((answer.header("Access-Control-Allow-Headers") == "If-Match") == echoes)
            }
            #expect((answer.header("Access-Control-Allow-Origin") != nil) == !fault.contains("origin"))
            #expect(server.installedPlan(subscribeKeyFor: "sub-k") == 1)
        }
    }

    @Test func withoutCrossOriginTheBytesAreAsBefore() async throws {
        try await EndToEnd.run(configure: { $0.responses.crossOrigin = false }) { _, port in
            let time = try EndToEnd.response(port: port, "/time/0")
            #expect(time.header("Date") == nil)
            #expect(time.header("Access-Control-Allow-Origin") == nil)
            let preflight = try CrossOrigin.send(port: port, CrossOrigin.preflight("/time/0", method: "GET", headers: nil))
            #expect(preflight.status == 404 || preflight.status == 405 || preflight.status == 400)
        }
    }
}

extension MockServer {
    /// How many times the rule `r` of `key`'s plan fired.
    fileprivate func installedPlan(subscribeKeyFor key: String) -> Int {
        faults.installedPlan(for: key)?.counters.first?.fired ?? -1
    }
}
