// SPDX-License-Identifier: MIT
import BuiltInAdapter
import Foundation
import Testing
@testable import ConformanceKit

/// The access-v3 suite with the built-in client through the in-process server, and the admin
/// routes its steps use.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct AccessV3EndToEndTests {
    @Test func builtInClientPassesTheAccessV3Suite() async throws {
        let (server, stop) = try await IntegrationHarness.startServer()
        let cases = try ConformanceCatalog.select(ConformanceCatalog.all(), suites: ["access-v3"], ids: [])
        #expect(cases.count >= 18)
        let runner = ConformanceRunner(server: server, client: BuiltInClient(),
                                       options: RunOptions(seed: 11, concurrency: 4, expectations: nil, timeScale: await TestPacing.scale()))
        let report = await runner.run(cases)
        await stop()
        #expect(report.results.count == cases.count)
        let notPassed = report.results.filter { $0.outcome != .pass && $0.outcome != .flaky }.map { "\($0.id): \($0.outcome) \($0.detail)" }
        #expect(notPassed == [])
    }

    @Test func adminIssuesRevokesAndMovesTheAccessClock() async throws {
        let server = try InProcessHarnessServer.start()
        try await server.registerKeyset(subscribeKey: "sub-a3", publishKey: "pub-a3", secretKey: "sec-a3")
        // 30 minutes: long enough that a loaded machine's queueing between the steps (a minute and
        // more) never expires the token before the clock is moved on purpose.
        let body = #"{"ttl":30,"permissions":{"resources":{"channels":{"ch":2}},"patterns":{},"meta":{}}}"#
        let issued = try await server.request(method: "POST", path: "/__admin/tokens/sub-a3", query: [], body: Array(body.utf8))
        #expect(issued.status == 200)
        let token = try #require(try JSONValue.parse(issued.body)["token"]?.stringValue)
        #expect(token.hasPrefix("p0F2"))
        func publish() async throws -> Int {
            try await server.request(method: "GET", path: "/publish/pub-a3/sub-a3/0/ch/0/%22x%22",
                                     query: [("uuid", "u"), ("auth", token)], body: nil).status
        }
        #expect(try await publish() == 200)
        let moved = try await server.request(method: "POST", path: "/__admin/access-clock/sub-a3", query: [("advance", "1860")], body: nil)
        #expect(String(decoding: moved.body, as: UTF8.self) == #"{"subscribeKey":"sub-a3","offsetSeconds":1860}"#)
        #expect(try await publish() == 403)
        #expect(try await server.request(method: "POST", path: "/__admin/access-clock/sub-a3", query: [("advance", "-1")], body: nil).status == 400)
        let refused = try await server.request(method: "POST", path: "/__admin/tokens/sub-a3", query: [], body: Array(#"{"ttl":0}"#.utf8))
        #expect(refused.status == 400)
        #expect(try await server.request(method: "POST", path: "/__admin/tokens/sub-a3", query: [("revoke", "nope")], body: nil).status == 400)
        await server.shutdown()
    }
}
