// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import HarnessJSON
import Glibc
#endif
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Plans installed over `/__admin/` on the server's own port, the journal over HTTP, plan errors,
/// and two keys with different plans used in parallel.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct AdminEndToEndTests {
    /// One admin request on a fresh connection; returns the complete response.
    private static func admin(_ port: Int, _ method: String, _ path: String, body: String = "") throws -> HTTPResponseText {
        let client = try BlockingTestClient(port: port)
        client.send("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        guard let text = client.readResponse(timeoutMs: TestTime.budgetMs(3000)) else {
            throw BlockingTestClient.ClientError(description: "no answer to \(method) \(path)")
        }
        return HTTPResponseText(Array(text.utf8))
    }

    @Test func planInstalledOverHTTPFaultsTheNextRequest() async throws {
        let (installed, seen) = try await EndToEnd.run { _, port in
            let plan = #"{"seed":5,"rules":[{"id":"deny","match":{"endpoint":"publish"},"times":1,"fault":{"kind":"status","status":403}}]}"#
            let installed = try Self.admin(port, "PUT", "/__admin/plans/sk-http", body: plan)
            return (installed, [try status(port, EndToEnd.publish("sk-http")), try status(port, EndToEnd.publish("sk-http"))])
        }
        #expect(installed.statusLine == "HTTP/1.1 200 OK")
        #expect(installed.bodyText == #"{"subscribeKey":"sk-http","seed":5,"rules":1}"#)
        #expect(seen == [403, 200])
    }

    @Test func transportFaultInstalledOverHTTP() async throws {
        let seen = try await EndToEnd.run { _, port in
            _ = try Self.admin(port, "PUT", "/__admin/plans/sk-http-reset", body: EndToEnd.plan(fault: #"{"kind":"reset"}"#))
            return try EndToEnd.exchange(port: port, EndToEnd.get(EndToEnd.publish("sk-http-reset")))
        }
        #expect(seen.bytes == [])
        #expect(seen.end == .error(ECONNRESET))
    }

    @Test func journalOverHTTPShowsWhichRuleFired() async throws {
        let journal = try await EndToEnd.run { server, port in
            try EndToEnd.install(server, "sk-journal", EndToEnd.plan(fault: #"{"kind":"status","status":500}"#, extra: #""nth":2"#))
            _ = try status(port, EndToEnd.publish("sk-journal", message: "%221%22"))
            _ = try status(port, EndToEnd.publish("sk-journal", message: "%222%22"))
            return try Self.admin(port, "GET", "/__admin/journal/sk-journal")
        }
        #expect(journal.statusLine == "HTTP/1.1 200 OK")
        let json = try JSONValue.parse(journal.body)
        #expect(json["subscribeKey"] == .string("sk-journal"))
        guard case .array(let entries)? = json["entries"] else {
            Issue.record("no entries: \(journal.bodyText)")
            return
        }
        try #require(entries.count == 2)
        #expect(entries[0]["path"] == .string("/publish/pub-sk-journal/sk-journal/0/ch/0/%221%22"))
        #expect(entries[0]["rule"] == nil)
        #expect(entries[1]["rule"] == .string("r"))
        #expect(entries[1]["fault"] == .string("status"))
        #expect(entries[1]["matchNumber"] == .number("2"))
        #expect(entries[1]["endpoint"] == .string("publish"))
        #expect(entries[1]["uuid"] == .string("u1"))
    }

    @Test func invalidPlanIsRefusedNamingTheField() async throws {
        let (refused, seen) = try await EndToEnd.run { _, port in
            let refused = try Self.admin(
                port, "PUT", "/__admin/plans/sk-bad", body: #"{"rules":[{"fault":{"kind":"close"}},{"fault":{"kind":"status","status":99}}]}"#)
            return (refused, try status(port, EndToEnd.publish("sk-bad")))
        }
        #expect(refused.statusLine == "HTTP/1.1 400 Bad Request")
        #expect(
            refused.bodyText
                == #"{"error":true,"message":"rules[1].fault.status: expected an integer 100...599","status":400,"service":"Admin"}"#)
        #expect(seen == 200)  // nothing was installed
    }

    @Test func unknownMatchFieldIsNamed() async throws {
        let refused = try await EndToEnd.run { _, port in
            try Self.admin(port, "PUT", "/__admin/plans/sk-bad2", body: #"{"rules":[{"match":{"chanel":"a"},"fault":{"kind":"close"}}]}"#)
        }
        #expect(refused.statusLine == "HTTP/1.1 400 Bad Request")
        #expect(try JSONValue.parse(refused.body)["message"] == .string("rules[0].match.chanel: unknown field"))
    }

    @Test func listClearAndResetOverHTTP() async throws {
        let seen = try await EndToEnd.run { _, port in
            let plan = #"{"seed":9,"rules":[{"id":"busy","fault":{"kind":"status","status":503}}]}"#
            _ = try Self.admin(port, "PUT", "/__admin/plans/sk-admin", body: plan)
            let faulted = try status(port, EndToEnd.publish("sk-admin"))
            let listed = try Self.admin(port, "GET", "/__admin/plans/sk-admin")
            let cleared = try Self.admin(port, "DELETE", "/__admin/plans/sk-admin")
            let afterClear = try status(port, EndToEnd.publish("sk-admin"))
            let missing = try Self.admin(port, "GET", "/__admin/plans/sk-admin")
            _ = try Self.admin(port, "PUT", "/__admin/plans/sk-admin", body: plan)
            let reset = try Self.admin(port, "POST", "/__admin/reset")
            let afterReset = try status(port, EndToEnd.publish("sk-admin"))
            let journal = try Self.admin(port, "GET", "/__admin/journal/sk-admin")
            return (faulted, listed, cleared, afterClear, missing, reset, afterReset, journal)
        }
        #expect(seen.0 == 503)
        let listed = try JSONValue.parse(seen.1.body)
        #expect(listed["seed"] == .number("9"))
        guard case .array(let counters)? = listed["counters"] else {
            Issue.record("no counters: \(seen.1.bodyText)")
            return
        }
        #expect(counters.first?["rule"] == .string("busy"))
        #expect(counters.first?["matched"] == .number("1"))
        #expect(counters.first?["fired"] == .number("1"))
        #expect(seen.2.bodyText == #"{"subscribeKey":"sk-admin","cleared":true}"#)
        #expect(seen.3 == 200)
        #expect(seen.4.statusLine == "HTTP/1.1 404 Not Found")
        #expect(seen.5.bodyText == #"{"reset":true}"#)
        #expect(seen.6 == 200)  // the reset removed the reinstalled plan
        guard case .array(let entries)? = try JSONValue.parse(seen.7.body)["entries"] else {
            Issue.record("no entries: \(seen.7.bodyText)")
            return
        }
        #expect(entries.count == 1)  // the reset emptied the journal: only the last publish
    }

    @Test func twoKeysWithDifferentPlansInParallelOnOnePort() async throws {
        let (a, b, journalA) = try await EndToEnd.run { server, port in
            try EndToEnd.install(server, "sk-iso-a", EndToEnd.plan(fault: #"{"kind":"status","status":503}"#))
            try EndToEnd.install(server, "sk-iso-b", EndToEnd.plan(fault: #"{"kind":"status","status":429}"#))
            let (a, b) = ParallelRequests(port: port).run(40, "sk-iso-a", "sk-iso-b")
            return (a, b, server.journal(subscribeKey: "sk-iso-a"))
        }
        #expect(a == Array(repeating: 503, count: 40))
        #expect(b == Array(repeating: 429, count: 40))
        #expect(journalA.count == 40)
        #expect(journalA.allSatisfy { $0.subscribeKey == "sk-iso-a" && $0.rule == "r" })
    }
}
