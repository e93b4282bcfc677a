// SPDX-License-Identifier: MIT
import Foundation
import Testing
@testable import ConformanceKit

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct JournalCheckTests {
    static func entry(_ endpoint: String, _ query: [String: String] = [:], at time: Double = 0, path: String = "/p") -> JournalEntry {
        JournalEntry(method: "GET", path: path, query: query, arrivalTime: time, endpoint: endpoint)
    }

    let loop = [
        entry("subscribe", ["tt": "0"], at: 1.0, path: "/v2/subscribe/s/a,b/0"),
        entry("subscribe", ["tt": "111", "tr": "1"], at: 1.1),
        entry("time", at: 1.2), entry("time", at: 1.31), entry("time", at: 1.40),
        entry("subscribe", ["tt": "0"], at: 1.5),
        entry("subscribe", ["tt": "111"], at: 1.6),
    ]

    @Test func counts() {
        #expect(JournalCheck.holds(.count(endpoint: "subscribe", query: ["tt": "!0"], atLeast: 2, atMost: 2), in: loop))
        #expect(!JournalCheck.holds(.count(endpoint: "subscribe", query: ["tt": "!0"], atLeast: 3), in: loop))
        #expect(JournalCheck.holds(.count(endpoint: "subscribe", query: ["tr": "*"], atLeast: 1, atMost: 1), in: loop))
        #expect(JournalCheck.holds(.count(endpoint: "subscribe", query: ["tr": "!"], atLeast: 3, atMost: 3), in: loop))
        #expect(!JournalCheck.holds(.count(endpoint: "time", atLeast: 1, atMost: 2), in: loop))
    }

    @Test func spacingAllowsTenPercentJitter() {
        // Intervals 110 ms and 90 ms: 90 ≥ 0.9 × 100 holds, 90 < 0.9 × 110 fails.
        #expect(JournalCheck.holds(.spacing(endpoint: "time", count: 3, minimumIntervalMs: 100), in: loop))
        #expect(!JournalCheck.holds(.spacing(endpoint: "time", count: 3, minimumIntervalMs: 110), in: loop))
        #expect(!JournalCheck.holds(.spacing(endpoint: "time", count: 4, minimumIntervalMs: 10), in: loop))
    }

    @Test func orderAndCursor() {
        #expect(JournalCheck.holds(.followedBy(after: "time", afterQuery: [:], endpoint: "subscribe", query: ["tt": "0"]), in: loop))
        #expect(!JournalCheck.holds(.followedBy(after: "subscribe", afterQuery: ["tt": "!0"], endpoint: "leave", query: [:]), in: loop))
        #expect(JournalCheck.holds(.noneAfter(after: "time", afterQuery: [:], endpoint: "leave", query: [:]), in: loop))
        #expect(!JournalCheck.holds(.noneAfter(after: "time", afterQuery: [:], endpoint: "subscribe", query: [:]), in: loop))
        #expect(!JournalCheck.holds(.noneAfter(after: "heartbeat", afterQuery: [:], endpoint: "subscribe", query: [:]), in: loop))
        #expect(JournalCheck.holds(.cursorReused(true), in: loop))
        #expect(!JournalCheck.holds(.cursorReused(false), in: loop))
        #expect(JournalCheck.holds(.cursorReused(false), in: Array(loop.prefix(6))))
        #expect(JournalCheck.holds(.pathContains(endpoint: "subscribe", substring: "a,b", true), in: loop))
        #expect(!JournalCheck.holds(.pathContains(endpoint: "subscribe", substring: "a,b", false), in: loop))
    }

    @Test func entriesTravelAsTheAdminAPIWritesThem() throws {
        let entry = JournalEntry(method: "GET", path: "/time/0", query: ["uuid": "u"], arrivalTime: 1.5, endpoint: "time",
                                 subscribeKey: "s", uuid: "u", rule: "r1")
        let decoded = try JSONDecoder().decode(JournalEntry.self, from: Data(entry.json.jsonBytes))
        #expect(decoded == entry)
        #expect(decoded.line == "GET /time/0?uuid=u  [rule r1]")
        #expect(decoded.endpointName == "time")
    }
}

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct VerdictTests {
    let base = ConformanceCase.test("v.v.v", steps: [], expected: [.connected, .unexpectedDisconnect], alternatives: [
        Alternative([.connected], reason: "silent restart")], tolerated: [.reconnected])

    @Test func toleratedAndCancelledDoNotFail() {
        #expect(Verdict.decide(base, failures: [], observed: [.connected, .cancelled, .unexpectedDisconnect, .reconnected]) == (.pass, ""))
    }

    @Test func missingStatusMatchingAnAlternativeIsNonStrict() {
        let verdict = Verdict.decide(base, failures: [.missingStatus(.unexpectedDisconnect, step: 3)], observed: [.connected])
        #expect(verdict == (.nonStrict, "alternative: silent restart"))
    }

    @Test func hardFailuresAreNeverExcused() {
        let verdict = Verdict.decide(base, failures: [.failed("step 4: boom")], observed: [.connected])
        #expect(verdict == (.fail, "step 4: boom\nmissing: PNUnexpectedDisconnectCategory"))
    }

    @Test func unexpectedCategoriesFail() {
        let verdict = Verdict.decide(base, failures: [], observed: [.connected, .unexpectedDisconnect, .networkIssues])
        #expect(verdict == (.fail, "unexpected: PNNetworkIssuesCategory"))
    }

    @Test func unsupportedWinsAndSkips() {
        let verdict = Verdict.decide(base, failures: [.failed("x"), .unsupported("client does not support hereNow")], observed: [])
        #expect(verdict == (.skipped, "client does not support hereNow"))
    }
}
