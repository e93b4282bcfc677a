// SPDX-License-Identifier: MIT
import Dispatch
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct FaultLayerConcurrencyTests {
    @Test func budgetsAndSequencesHoldUnderConcurrentRequests() throws {
        let faults = FaultLayer(upstream: FakeUpstream(response: FaultFixtures.sent), scheduler: ManualScheduler())
        try faults.installPlan(FaultFixtures.plan([FaultRule(id: "fifty", times: 50, fault: .close)]), for: "sk")
        let sinks = (0..<400).map { _ in ActionSink() }
        DispatchQueue.concurrentPerform(iterations: sinks.count) { index in
            let key = index % 2 == 0 ? "sk" : "other"
            faults.handle(
                FaultFixtures.request("GET", "/v2/subscribe/\(key)/c/0?tt=\(index)"),
                context: FaultFixtures.context(connection: UInt64(index)), responder: sinks[index].responder())
        }
        let actions = sinks.flatMap(\.all)
        #expect(actions.count == 400)
        #expect(actions.filter { $0 == .close(.fin) }.count == 50)
        let entries = faults.journal(for: "sk") + faults.journal(for: "other")
        #expect(Set(entries.map(\.sequence)) == Set(1...400))
        #expect(entries.filter { $0.rule == "fifty" }.count == 50)
        #expect(entries.filter { $0.rule == "fifty" }.allSatisfy { $0.subscribeKey == "sk" })
        #expect(faults.installedPlans().first?.counters == [RuleCounter(matched: 200, fired: 50)])
    }
}
