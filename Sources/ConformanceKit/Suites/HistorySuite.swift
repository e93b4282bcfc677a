// SPDX-License-Identifier: MIT

/// Message persistence (spec §7): history v2, fetch v3, message counts, delete.
enum HistorySuite {
    static func published(_ channel: String, _ count: Int) -> [CaseStep] {
        (1...count).map { .serverPublish(channel: channel, message: .string("m\($0)")) }
    }

    static func messages(_ names: [String]) -> JSONValue {
        .array(names.map { ["message": .string($0)] })
    }

    static var cases: [ConformanceCase] {
        let history: Set<Capability> = [.history]
        return [
            ConformanceCase(
                "history.v2.basic", "History returns published messages oldest first", spec: "§7.1",
                steps: published("ch-h", 3) + [.perform(.history(channel: "ch-h")),
                                               .expectResult(.success(["messages": messages(["m1", "m2", "m3"])]))],
                expected: [], requires: history),
            ConformanceCase(
                "history.v2.count", "count limits history to the newest messages", spec: "§7.1",
                steps: published("ch-h", 5) + [.perform(.history(channel: "ch-h", count: 2)),
                                               .expectResult(.success(["messages": messages(["m4", "m5"])]))],
                expected: [], requires: history),
            ConformanceCase(
                "history.v2.reverse", "reverse=true with count returns the oldest messages", spec: "§7.1",
                steps: published("ch-h", 5) + [.perform(.history(channel: "ch-h", count: 2, reverse: true)),
                                               .expectResult(.success(["messages": messages(["m1", "m2"])]))],
                expected: [], requires: history),
            ConformanceCase(
                "history.v2.timetokens", "include_token gives each message a 17-digit timetoken, and the range bounds are timetokens", spec: "§7.1",
                steps: published("ch-h", 2) + [.perform(.history(channel: "ch-h", includeTimetoken: true)),
                                               .expectResult(.success(["messages": messages(["m1", "m2"])], timetokenPaths: ["messages.0.timetoken", "messages.1.timetoken", "start", "end"]))],
                expected: [], requires: history),
            ConformanceCase(
                "history.v2.start-in-future", "A start timetoken in the future includes every message", spec: "§7.1",
                steps: published("ch-h", 2) + [.perform(.history(channel: "ch-h", start: "99999999999999999")),
                                               .expectResult(.success(["messages": messages(["m1", "m2"])]))],
                expected: [], requires: history),
            ConformanceCase(
                "history.v2.end-in-future", "An end timetoken in the future selects nothing", spec: "§7.1",
                steps: published("ch-h", 2) + [.perform(.history(channel: "ch-h", end: "99999999999999999")),
                                               .expectResult(.success(["messages": []]))],
                expected: [], requires: history),
            ConformanceCase(
                "history.v2.empty", "History of an empty channel is an empty list", spec: "§7.1",
                steps: [.perform(.history(channel: "ch-none")), .expectResult(.success(["messages": []]))],
                expected: [], requires: history),
            ConformanceCase(
                "history.v2.object-messages", "Object and unicode messages come back unchanged", spec: "§7.1",
                steps: [.serverPublish(channel: "ch-h", message: ["a": [1, 2], "t": "ü✓"]),
                        .perform(.history(channel: "ch-h")),
                        .expectResult(.success(["messages": [["message": ["a": [1, 2], "t": "ü✓"]]]]))],
                expected: [], requires: history),
            ConformanceCase(
                "history.v2.not-stored", "A message published with store=0 is not in history", spec: "§4.1",
                steps: [.perform(.publish(channel: "ch-h", message: "kept")),
                        .perform(.publish(channel: "ch-h", message: "skipped", storeInHistory: false)),
                        .perform(.history(channel: "ch-h")), .expectResult(.success(["messages": messages(["kept"])]))],
                expected: [.acknowledgment], requires: history),
            ConformanceCase(
                "history.v3.multi-channel", "Fetch messages returns each channel's messages", spec: "§7.2",
                steps: [.serverPublish(channel: "ch-x", message: "x1"), .serverPublish(channel: "ch-y", message: "y1"),
                        .perform(.fetchMessages(channels: ["ch-x", "ch-y"])),
                        .expectResult(.success(["channels": ["ch-x": messages(["x1"]), "ch-y": messages(["y1"])]]))],
                expected: [], requires: history),
            ConformanceCase(
                "history.v3.max", "Fetch messages with max=1 returns the newest message per channel", spec: "§7.2",
                steps: published("ch-x", 3) + [.perform(.fetchMessages(channels: ["ch-x"], max: 1)),
                                               .expectResult(.success(["channels": ["ch-x": messages(["m3"])]]))],
                expected: [], requires: history),
            ConformanceCase(
                "history.v3.timetokens", "Fetch messages gives string timetokens", spec: "§7.2",
                steps: published("ch-x", 1) + [.perform(.fetchMessages(channels: ["ch-x"])),
                                               .expectResult(.success(timetokenPaths: ["channels.ch-x.0.timetoken"]))],
                expected: [], requires: history),
            ConformanceCase(
                "history.counts.since", "Message counts count the messages after a timetoken", spec: "§7.4",
                steps: published("ch-c", 3) + [.perform(.messageCounts(channels: ["ch-c"], timetokens: ["10000000000000000"])),
                                               .expectResult(.success(["channels": ["ch-c": 3]]))],
                expected: [], requires: history),
            ConformanceCase(
                "history.counts.future", "Message counts after a future timetoken are zero", spec: "§7.4",
                steps: published("ch-c", 2) + [.perform(.messageCounts(channels: ["ch-c"], timetokens: ["99999999999999999"])),
                                               .expectResult(.success(["channels": ["ch-c": 0]]))],
                expected: [], requires: history),
            ConformanceCase(
                "history.delete.all", "Deleting a channel's messages empties its history", spec: "§7.3",
                steps: published("ch-d", 2) + [.perform(.deleteMessages(channel: "ch-d")),
                                               .expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false)),
                                               .perform(.history(channel: "ch-d")), .expectResult(.success(["messages": []]))],
                expected: [.acknowledgment], requires: history),
        ]
    }
}
