// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Rule targeting on a full `MockServer`: which real requests a rule faults (a 503 marks a faulted one).
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct TargetingEndToEndTests {
    private static let marker = #"{"kind":"status","status":503}"#

    /// Installs one rule for `key` and returns the status of each target, requested in order.
    private func statuses(_ key: String, match: String?, extra: String = "", _ targets: [String]) async throws -> [Int] {
        try await EndToEnd.run { server, port in
            try EndToEnd.install(server, key, EndToEnd.plan(match: match, fault: Self.marker, extra: extra))
            return try targets.map { try status(port, $0) }
        }
    }

    private static func statusCode(_ response: HTTPResponseText) -> Int {
        Int(response.statusLine.split(separator: " ").dropFirst().first ?? "") ?? -1
    }

    @Test func endpoint() async throws {
        let key = "sk-t-endpoint"
        let seen = try await statuses(key, match: #"{"endpoint":"publish"}"#, [EndToEnd.publish(key), EndToEnd.subscribe(key)])
        #expect(seen == [503, 200])
    }

    @Test func method() async throws {
        let seen = try await EndToEnd.run { server, port in
            let key = "sk-t-method"
            try EndToEnd.install(server, key, EndToEnd.plan(match: #"{"method":"POST"}"#, fault: Self.marker))
            let post = try EndToEnd.exchange(
                port: port,
                "POST /publish/pub-\(key)/\(key)/0/ch/0?uuid=u1 HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nConnection: close\r\n\r\n\"hi\"")
            return [try status(port, EndToEnd.publish(key)), Self.statusCode(HTTPResponseText(post.bytes))]
        }
        #expect(seen == [200, 503])
    }

    @Test func channel() async throws {
        let key = "sk-t-channel"
        let seen = try await statuses(
            key, match: #"{"channel":"b"}"#,
            [EndToEnd.publish(key, channel: "a"), EndToEnd.publish(key, channel: "b"), EndToEnd.subscribe(key, channels: "a,b")])
        #expect(seen == [200, 503, 503])
    }

    @Test func channelGroup() async throws {
        let key = "sk-t-group"
        let seen = try await statuses(
            key, match: #"{"channelGroup":"g"}"#,
            [EndToEnd.subscribe(key, channels: ",", extra: "&channel-group=h"), EndToEnd.subscribe(key, channels: ",", extra: "&channel-group=g")])
        #expect(seen == [200, 503])
    }

    @Test func uuid() async throws {
        let key = "sk-t-uuid"
        let seen = try await statuses(
            key, match: #"{"uuid":"bob"}"#, [EndToEnd.publish(key, uuid: "alice"), EndToEnd.publish(key, uuid: "bob")])
        #expect(seen == [200, 503])
    }

    @Test func longPollNotHandshake() async throws {
        let key = "sk-t-tt"
        let seen = try await statuses(
            key, match: #"{"endpoint":"subscribe","query":{"tt":"!0"}}"#,
            [EndToEnd.subscribe(key, tt: "0"), EndToEnd.subscribe(key, tt: "17000000000000000")])
        #expect(seen == [200, 503])
    }

    @Test func nth() async throws {
        let key = "sk-t-nth"
        let seen = try await statuses(key, match: nil, extra: #""nth":2"#, Array(repeating: EndToEnd.publish(key), count: 3))
        #expect(seen == [200, 503, 200])
    }

    @Test func afterThenTimes() async throws {
        let key = "sk-t-after"
        let seen = try await statuses(key, match: nil, extra: #""after":1,"times":2"#, Array(repeating: EndToEnd.publish(key), count: 4))
        #expect(seen == [200, 503, 503, 200])
    }

    @Test func failTwiceThenSucceed() async throws {
        let key = "sk-t-times"
        let seen = try await statuses(key, match: nil, extra: #""times":2"#, Array(repeating: EndToEnd.publish(key), count: 4))
        #expect(seen == [503, 503, 200, 200])
    }

    @Test func seededProbabilityReplaysTheSameSequence() async throws {
        let key = "sk-t-seed"
        let (first, second, seed) = try await EndToEnd.run { server, port in
            let plan = #"{"seed":42,"rules":[{"id":"r","probability":0.5,"fault":\#(Self.marker)}]}"#
            let seed = try server.installPlan(json: Array(plan.utf8), subscribeKey: key)
            let first = try (0..<20).map { _ in try status(port, EndToEnd.publish(key)) }
            _ = try server.installPlan(json: Array(plan.utf8), subscribeKey: key)
            let second = try (0..<20).map { _ in try status(port, EndToEnd.publish(key)) }
            return (first, second, seed)
        }
        #expect(seed == 42)
        #expect(first == second)
        #expect(Set(first) == [200, 503])
    }

    @Test func timeIsAttributedByUUID() async throws {
        let key = "sk-t-time"
        let (seen, journal) = try await EndToEnd.run { server, port in
            try EndToEnd.install(server, key, EndToEnd.plan(match: #"{"endpoint":"time"}"#, fault: Self.marker))
            let seen = [
                try status(port, "/time/0?uuid=carol"),
                try status(port, EndToEnd.subscribe(key, uuid: "carol")),
                try status(port, "/time/0?uuid=carol"),
            ]
            return (seen, server.journal(subscribeKey: key))
        }
        // Before carol was seen with the key, her ping belongs to nobody; afterwards it is the key's.
        #expect(seen == [200, 200, 503])
        #expect(journal.map(\.endpoint) == [.subscribe, .time])
        #expect(journal.last?.rule == "r")
        #expect(journal.last?.matchNumber == 1)
    }
}

/// The status code of a fresh GET of `target`.
func status(_ port: Int, _ target: String) throws -> Int {
    let response = try EndToEnd.response(port: port, target)
    return Int(response.statusLine.split(separator: " ").dropFirst().first ?? "") ?? -1
}
