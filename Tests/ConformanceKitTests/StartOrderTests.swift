// SPDX-License-Identifier: MIT
import HarnessJSON
import HarnessTesting
import Synchronization
import Testing
@testable import ConformanceKit

/// The order a run starts its cases in (``StartOrder``: seeded shuffle, longest first) and how
/// many it starts at once for a driver with and without warm processes.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct StartOrderTests {
    static let short = (0..<12).map { ConformanceCase.test("s.g.short-\($0)", steps: [.publish("c", 1)], expected: [.acknowledgment]) }
    /// Waits 3 s whatever the client does.
    static let waits = ConformanceCase.test("s.g.waits", steps: [.subscribe(["c"]), .wait(ms: 3_000)], expected: [])
    /// The client may legitimately never report the awaited status: the 2 s window runs out.
    static let silent = ConformanceCase.test("s.g.silent", steps: [.subscribe(["c"]), .expect(.unexpectedDisconnect, within: 2_000)],
                                             expected: [.unexpectedDisconnect], alternatives: [Alternative([], reason: "silent restart")])
    /// A long budget (10 s of windows in which something must happen), nothing certain.
    static let roomy = ConformanceCase.test("s.g.roomy", steps: [.subscribe(["c"]), .expect(.connected, within: 10_000)], expected: [.connected])

    @Test func theLongestCasesStartFirstWhateverTheSeed() {
        let cases = Self.short + [Self.roomy, Self.silent, Self.waits]
        for seed in UInt64(1)...20 {
            let order = ConformanceRunner.executionOrder(of: cases, seed: seed)
            #expect(Array(order.prefix(3)) == ["s.g.waits", "s.g.silent", "s.g.roomy"], "seed \(seed): \(order)")
            #expect(Set(order) == Set(cases.map(\.id)))
        }
    }

    @Test func casesOfEqualLengthKeepTheSeededShuffle() {
        var generator = SeededGenerator(seed: 99)
        let shuffled = Self.short.map(\.id).shuffled(using: &generator)
        #expect(ConformanceRunner.executionOrder(of: Self.short, seed: 99) == shuffled)
        #expect(ConformanceRunner.executionOrder(of: Self.short, seed: 99) != ConformanceRunner.executionOrder(of: Self.short, seed: 100))
    }

    @Test func estimatesCountWhatTheCaseCannotAvoid() {
        let waits = StartOrder.estimate(Self.waits, profile: .reference)
        #expect(waits.certainMilliseconds == 3_000)
        #expect(waits.budgetMilliseconds == 1_000 + 250 + 3_000)
        #expect(StartOrder.estimate(Self.silent, profile: .reference).certainMilliseconds == 2_000)
        // Reported at once by a client that passes; its whole window only when listed as failing.
        #expect(StartOrder.estimate(Self.roomy, profile: .reference).certainMilliseconds == 0)
        #expect(StartOrder.estimate(Self.roomy, profile: .reference, listedFailure: true).certainMilliseconds == 10_000)
        let delayed = ConformanceCase.test("s.g.delay", steps: [.time, .expect(.timeout, within: 1_000)], expected: [.timeout],
                                           plan: ["rules": [["fault": ["kind": "delay", "ms": 1_500]]]])
        #expect(StartOrder.estimate(delayed, profile: .reference).certainMilliseconds == 1_500)
        // A case the profile skips does not run.
        let ping = ConformanceCase.test("reconnect.ping.interval", steps: [.wait(ms: 5_000)], expected: [])
        let retrying = ClientProfile(variants: [.reconnection: "retry-policy"])
        #expect(StartOrder.estimate(ping, profile: retrying) == .none)
    }

    @Test func aPusherCaseCountsWaitsAndReconnectLowerBounds() {
        let testCase = PusherCase("pusher.g.reconnect", "t", spec: "§5", steps: [
            .connect, .expectConnected(count: 1, withinMs: 2_000), .closeConnection(code: 4100, reason: "reconnect later"),
            .expectReconnect(atLeastMs: 1_000, withinMs: 3_000), .wait(ms: 500),
        ])
        let estimate = StartOrder.estimate(testCase)
        #expect(estimate.certainMilliseconds == 1_500)
        #expect(estimate.budgetMilliseconds == ShardPlan.expectedMilliseconds(testCase))
    }

    @Test func warmDriversStartMoreCasesAtOnceThanAProcessPerCase() async {
        #expect(ConcurrencyGovernor.defaultJobs(cores: 2, externalDriver: true, processPerCase: false) == 8)
        #expect(ConcurrencyGovernor.defaultJobs(cores: 2, externalDriver: true, processPerCase: true) == 4)
        let ids = (0..<12).map { "s.g.c\($0)" }
        let options = RunOptions(seed: 4, concurrency: 6, perCaseProcessConcurrency: 2)
        #expect(await Self.mostAtOnce(ids: ids, options: options, processPerCase: false) == 6)
        #expect(await Self.mostAtOnce(ids: ids, options: options, processPerCase: true) == 2)
        #expect(await Self.mostAtOnce(ids: ids, options: RunOptions(seed: 4, concurrency: 3), processPerCase: true) == 3)
    }

    /// Runs `ids` through the shared scheduling; each case waits until `options`' starting limit
    /// of cases is running (so the limit is reached, never guessed), then ends. Returns the most
    /// that ran at once.
    static func mostAtOnce(ids: [String], options: RunOptions, processPerCase: Bool) async -> Int {
        let target = processPerCase ? options.perCaseProcessConcurrency ?? options.concurrency : options.concurrency
        let gate = RunningGate(target: target)
        let report = await ConformanceRunner.schedule(
            ids: ids, clientName: "gated", options: options, estimate: { _ in .none }, processPerCase: processPerCase,
            listedSkip: { _ in nil },
            execute: { id in
                await gate.arrive()
                gate.leave()
                return CaseResult(id: id, suite: "s", title: id, spec: "§0", outcome: .pass, expected: [], observed: [], durationSeconds: 0, detail: "")
            }, progress: { _, _, _ in })
        #expect(report.results.count == ids.count)
        return gate.most
    }
}

/// Holds arriving cases until `target` of them run at once (or, so a wrong limit cannot hang the
/// test, until a generous time has passed), and counts the most that ever ran together.
final class RunningGate: Sendable {
    private struct State {
        var running = 0
        var most = 0
        var open = false
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    private let target: Int

    init(target: Int) {
        self.target = target
        Task { [weak self] in
            try? await Task.sleep(for: TestTime.duration(10))
            self?.release()
        }
    }

    var most: Int { state.withLock { $0.most } }

    func arrive() async {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                state.running += 1
                state.most = max(state.most, state.running)
                if state.open { return [continuation] }
                state.waiting.append(continuation)
                if state.running >= target {
                    state.open = true
                    defer { state.waiting.removeAll() }
                    return state.waiting
                }
                return []
            }
            for waiter in ready { waiter.resume() }
        }
    }

    func leave() { state.withLock { $0.running -= 1 } }

    private func release() {
        let waiting = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.open = true
            defer { state.waiting.removeAll() }
            return state.waiting
        }
        for waiter in waiting { waiter.resume() }
    }
}
