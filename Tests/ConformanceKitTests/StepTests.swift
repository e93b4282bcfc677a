// SPDX-License-Identifier: MIT
import Foundation
import Synchronization
import Testing
@testable import ConformanceKit

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct StepTests {
    func run(_ testCase: ConformanceCase, script: @escaping Script) async -> (CaseResult, FakeServer) {
        let server = FakeServer()
        let client = ScriptedClient(server: server, script: script)
        let report = await ConformanceRunner(server: server, client: client, options: RunOptions(seed: 1, timeScale: await TestPacing.scale())).run([testCase])
        return (report.results[0], server)
    }

    @Test func whatAClientReportsWhileClosingIsNotPartOfTheCase() async throws {
        let testCase = ConformanceCase.test("s.t.closing", steps: [.subscribe(["c"]), .expect(.connected, within: 500)], expected: [.connected])
        let server = FakeServer()
        let client = ScriptedClient(server: server, closingEvents: [.status(StatusEvent(category: .unexpectedDisconnect))]) { _, session in
            session.emit(.status(StatusEvent(category: .connected)))
            return OperationResult()
        }
        let report = await ConformanceRunner(server: server, client: client, options: RunOptions(seed: 1, timeScale: await TestPacing.scale())).run([testCase])
        let result = try #require(report.results.first)
        #expect(result.outcome == .pass, "\(result.detail)")
        #expect(result.observed == [.connected])
        #expect(client.closedSessions.withLock { $0 } == 1)
    }

    @Test func resultDataPresenceAndPlaceholders() async {
        let testCase = ConformanceCase.test("s.t.presence", steps: [
            .perform(.hereNow(channels: ["c"])),
            .expectResult(.success(["channels": ["c": ["uuids": [["uuid": "{uuid}"]]]]], timetokenPaths: ["tt", "list.0"])),
            .subscribe(["c"], withPresence: true),
            .expectPresence(ExpectedPresence(channel: "c", action: "join", uuid: "{uuid}", occupancy: 1), withinMs: 500),
            .serverPublish(channel: "c", message: ["a": 1]),
            .serverRequest(method: "GET", path: "/v2/presence/sub-key/{sub}/channel/c/heartbeat", query: ["uuid": "{uuid}"]),
            .expectNoStatus(.unexpectedDisconnect, forMs: 20),
        ], expected: [])
        let (result, server) = await run(testCase) { operation, session in
            let uuid = session.configuration.uuid
            if case .subscribe = operation {
                session.emit(.presence(PresenceEvent(channel: "c", action: "join", uuid: uuid, occupancy: 1)))
                return OperationResult()
            }
            return OperationResult(data: ["channels": ["c": ["occupancy": 1, "uuids": [["uuid": .string(uuid), "state": [:]]]]],
                                          "tt": "17000000000000000", "list": [17_000_000_000_000_001]])
        }
        #expect(result.outcome == .pass, "\(result.detail)")
        let keys = CaseKeys(caseID: "s.t.presence")
        #expect(server.calls.withLock { $0.published.map { [$0.0, $0.1, $0.2] } } == [[keys.subscribeKey, "c", #"{"a":1}"#]])
    }

    @Test func resultMismatchesAreSpelledOut() async {
        let testCase = ConformanceCase.test("s.t.mismatch", steps: [
            .time,
            .expectResult(ExpectedResult(category: .some(nil), isError: false, statusCode: 200, data: ["timetoken": "1"], timetokenPaths: ["timetoken"])),
        ], expected: [])
        let (result, _) = await run(testCase) { _, _ in
            OperationResult(category: .timeout, isError: true, statusCode: nil, data: ["timetoken": "123"])
        }
        let spelled = """
            step 2: result category PNTimeoutCategory, expected none (result); expected success, got error PNTimeoutCategory; \
            HTTP status none, expected 200; data {"timetoken":"123"} does not contain {"timetoken":"1"}; timetoken is not a 17-digit timetoken
            unexpected: PNTimeoutCategory
            """
        // An unexpected timeout is retried alone; a client that times out every time fails again.
        #expect(result.outcome == .fail)
        #expect(result.detail == "\(spelled)\n(failed again on a serial retry; first attempt: \(spelled))")
    }

    @Test func anAbsentPathMayBeMissingOrNullButNothingElse() async {
        let testCase = ConformanceCase.test("s.t.absent", steps: [
            .perform(.messageActions(.get(channel: "c"))), .expectResult(.success(absentPaths: ["more", "gone"])),
            .perform(.messageActions(.get(channel: "c"))), .expectResult(.success(absentPaths: ["more"])),
        ], expected: [])
        let answers = Mutex([OperationResult(data: ["actions": [], "gone": .null]),
                             OperationResult(data: ["actions": [], "more": ["start": "17000000000000000"]])])
        let (result, _) = await run(testCase) { _, _ in answers.withLock { $0.removeFirst() } }
        #expect(result.outcome == .fail)
        #expect(result.detail.hasPrefix(#"step 4: result more is {"start":"17000000000000000"}, expected absent"#), "\(result.detail)")
    }

    @Test func aStatusThatMustNotAppearFails() async {
        let testCase = ConformanceCase.test("s.t.nostatus", steps: [.subscribe(["c"]), .expectNoStatus(.unexpectedDisconnect, forMs: 600)],
                                            expected: [.connected], tolerated: [.unexpectedDisconnect])
        let (result, _) = await run(testCase) { _, session in
            // Emitted before step 2 begins: it still counts, since no expect step accounted for it.
            session.emit(.status(StatusEvent(category: .connected)))
            session.emit(.status(StatusEvent(category: .unexpectedDisconnect)))
            return OperationResult()
        }
        #expect(result.outcome == .fail)
        #expect(result.detail == "step 2: PNUnexpectedDisconnectCategory observed within 600 ms, must not be")
    }

    @Test func expectStatusCountsOccurrences() async {
        let testCase = ConformanceCase.test("s.t.twice", steps: [.subscribe(["c"]), .expect(.connected, within: 100), .expect(.connected, within: 100)],
                                            expected: [.connected])
        let (result, _) = await run(testCase) { _, session in
            session.emit(.status(StatusEvent(category: .connected)))
            return OperationResult()
        }
        #expect(result.outcome == .fail)
        #expect(result.detail == "step 3: expected PNConnectedCategory, not observed")
    }

    @Test func jsonValueRoundTripsAndContainment() throws {
        let value = try JSONValue.parse(#"{"a":[1,2.5,"x",null,true],"b":{"c":17000000000000000}}"#)
        #expect(value.jsonText == #"{"a":[1,2.5,"x",null,true],"b":{"c":17000000000000000}}"#)
        #expect(value.contains(["b": [:]]))
        #expect(value.contains(["a": [1, 2.5, "x", nil, true]]))
        #expect(!value.contains(["a": [1]]))
        #expect(!value.contains(["z": nil]))
        #expect(try JSONValue.parse("\"s\"") == "s")
        #expect(throws: (any Error).self) { try JSONValue.parse("{") }
    }
}
