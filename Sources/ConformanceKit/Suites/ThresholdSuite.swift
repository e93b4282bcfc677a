// SPDX-License-Identifier: MIT
import HarnessJSON

/// requestMessageCountThreshold (spec §11.3): PNRequestMessageCountExceededCategory when one
/// subscribe response carries at least the threshold of messages.
enum ThresholdSuite {
    static func burst(_ count: Int) -> JSONValue {
        PlanBuilder.onFirstLongPoll(["kind": "messages", "count": .int(count), "channel": "ch-n"])
    }

    static func burstCase(_ name: String, _ title: String, count: Int, threshold: Int, exceeded: Bool) -> ConformanceCase {
        var steps: [CaseStep] = [.subscribe(["ch-n"]), .expect(.connected)]
        steps += exceeded ? [.expect(.requestMessageCountExceeded, within: 1_000), .expectMessageCount(count, withinMs: 1_000)]
            : [.expectMessageCount(count, withinMs: 1_000), .expectNoStatus(.requestMessageCountExceeded, forMs: 100)]
        return ConformanceCase(
            "threshold.\(name)", title, spec: "§11.3", plan: burst(count),
            client: ClientOverrides(requestMessageCountThreshold: threshold), steps: steps,
            expected: exceeded ? [.connected, .requestMessageCountExceeded] : [.connected])
    }

    static var cases: [ConformanceCase] {
        [
            burstCase("exceeded.at-threshold", "5 messages with threshold 5 → PNRequestMessageCountExceededCategory, all delivered", count: 5, threshold: 5, exceeded: true),
            burstCase("exceeded.above", "8 messages with threshold 5 → PNRequestMessageCountExceededCategory", count: 8, threshold: 5, exceeded: true),
            burstCase("below.no-status", "4 messages with threshold 5 → no status", count: 4, threshold: 5, exceeded: false),
            burstCase("off.zero", "Threshold 0 is off: 100 messages → no status", count: 100, threshold: 0, exceeded: false),
            burstCase("exceeded.one", "Threshold 1: a single message already reaches it", count: 1, threshold: 1, exceeded: true),
        ]
    }
}
