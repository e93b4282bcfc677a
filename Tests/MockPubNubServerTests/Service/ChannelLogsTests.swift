// SPDX-License-Identifier: MIT
import Testing
@testable import MockPubNubServer

/// A keyspace's channel logs: the channel written last remembered with its position, every
/// other channel found by name.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ChannelLogsTests {
    static func message(_ timetoken: UInt64, on channel: String) -> StoredMessage {
        StoredMessage(
            timetoken: timetoken, channel: channel, kind: .message, payload: "\(timetoken)", meta: nil, publisher: "u",
            sequence: nil, customMessageType: nil, originTimetoken: nil, inHistory: true, live: true, expiresAt: nil)
    }

    static func timetokens(_ logs: ChannelLogs, _ channel: String) -> [UInt64]? {
        logs[channel].map { $0.messages.map(\.timetoken) }
    }

    @Test func appendsAlternatingBetweenChannelsLandInTheirOwnLogs() {
        // Short names, a non-ASCII one, a long one (not a small string) and two that share a prefix.
        let names = ["a", "ch-é", String(repeating: "long-channel-", count: 10), "bench-ch", "bench-ch2"]
        var logs = ChannelLogs()
        var expected: [String: [UInt64]] = [:]
        var timetoken: UInt64 = 1
        for round in 0..<4 {
            for (index, name) in names.enumerated() where round == 0 || index % 2 == round % 2 {
                // The same channel twice in a row, then the next one.
                for _ in 0..<2 {
                    logs.append(Self.message(timetoken, on: name), to: name, limit: 100)
                    expected[name, default: []].append(timetoken)
                    timetoken += 1
                }
            }
        }
        for name in names {
            #expect(Self.timetokens(logs, name) == expected[name])
        }
        #expect(Set(logs.channels) == Set(names))
        #expect(logs["missing"] == nil)
        #expect(logs[""] == nil)
    }

    @Test func theLimitHoldsPerChannel() {
        var logs = ChannelLogs()
        for timetoken in UInt64(1)...300 {
            let channel = timetoken % 3 == 0 ? "x" : "y"
            logs.append(Self.message(timetoken, on: channel), to: channel, limit: 10)
        }
        #expect(Self.timetokens(logs, "x") == Array(stride(from: UInt64(273), through: 300, by: 3)))
        #expect(Self.timetokens(logs, "y")?.count == 10)
        #expect(Self.timetokens(logs, "y")?.last == 299)
    }

    @Test func removalKeepsTheChannelAndTouchesNoOther() {
        var logs = ChannelLogs()
        for timetoken in UInt64(1)...6 {
            let channel = timetoken <= 3 ? "x" : "y"
            logs.append(Self.message(timetoken, on: channel), to: channel, limit: 100)
        }
        logs.removeAll(in: "x") { $0.timetoken == 2 }
        logs.removeAll(in: "missing") { _ in true }
        #expect(Self.timetokens(logs, "x") == [1, 3])
        #expect(Self.timetokens(logs, "y") == [4, 5, 6])
        logs.removeAll(in: "y") { _ in true }
        #expect(Self.timetokens(logs, "y") == [])
        // The remembered channel ("y") and the other one still take appends.
        logs.append(Self.message(7, on: "y"), to: "y", limit: 100)
        logs.append(Self.message(8, on: "x"), to: "x", limit: 100)
        #expect(Self.timetokens(logs, "y") == [7])
        #expect(Self.timetokens(logs, "x") == [1, 3, 8])
        #expect(Array(logs.channels).sorted() == ["x", "y"])
    }
}
