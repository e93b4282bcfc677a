// SPDX-License-Identifier: MIT

/// Runs one case from setup to cleanup and produces its ``CaseResult``.
import MockPubNubServer
import Synchronization

/// Resumes a continuation at most once, from whichever task gets there first.
final class ResumeOnce: Sendable {
    private let done = Mutex(false)

    var isDone: Bool { done.withLock { $0 } }

    /// Returns whether this call resumed it.
    @discardableResult
    func resume<T: Sendable>(_ continuation: CheckedContinuation<T, Never>, with value: T) -> Bool {
        let first = done.withLock { done in
            defer { done = true }
            return !done
        }
        if first { continuation.resume(returning: value) }
        return first
    }
}

struct CaseExecutor: Sendable {
    let server: any HarnessServer
    let client: any ConformanceClient
    let runSeed: UInt64
    /// How many journal entries a result keeps for its wire log.
    let wireLogLength: Int
    /// Stretches the case's budget and must-happen windows (``CaseBudget/scaled(_:by:)``).
    var timeScale: Double = 1

    func run(_ original: ConformanceCase) async -> CaseResult {
        let started = ContinuousClock.now
        let adapted: ConformanceCase
        switch ProfileRules.adapt(original, to: client.profile) {
        case .applies(let applicable): adapted = applicable
        case .skipped(let reason):
            return CaseResult(id: original.id, suite: original.suite, title: original.title, spec: original.spec, outcome: .skipped,
                              expected: original.expected, observed: [], durationSeconds: 0, detail: reason)
        }
        let testCase = CaseBudget.scaled(adapted, by: timeScale)
        // Derived from the case before scaling, then scaled once.
        let budget = CaseBudget.effective(adapted, scale: timeScale)
        let keys = CaseKeys(caseID: testCase.id)
        var listenerPort: Int?
        var planInstalled = false
        func finish(_ outcome: CaseOutcome, _ detail: String, observed: [StatusCategory] = [], wireLog: [String] = [],
                    missedTime: Bool = false, timeline: CaseTimeline? = nil) -> CaseResult {
            var result = CaseResult(id: testCase.id, suite: testCase.suite, title: testCase.title, spec: testCase.spec,
                                    outcome: outcome, expected: testCase.expected, observed: observed,
                                    durationSeconds: Self.seconds(ContinuousClock.now - started), detail: detail, wireLog: wireLog,
                                    missedTime: missedTime)
            result.timeline = timeline
            return result
        }

        let missing = testCase.requiredCapabilities.subtracting(client.capabilities)
        if !missing.isEmpty { return finish(.skipped, client.capabilityOrigin.skipReason(missing: missing)) }

        // Setup: keyset, plan, listener, session.
        let configuration: ClientSessionConfiguration
        do {
            if testCase.accessManager {
                try await server.registerKeyset(subscribeKey: keys.subscribeKey, publishKey: keys.publishKey, secretKey: keys.secretKey)
            }
            let origin: String
            switch testCase.listener {
            case .shared:
                origin = (testCase.client.tls ?? false) ? (server.tlsAddress ?? server.address) : server.address
            case .fault(let fault):
                let port = try await server.openListener(fault: fault)
                listenerPort = port
                origin = "127.0.0.1:\(port)"
            case .refused:
                origin = "127.0.0.1:\(try await server.refusedPort())"
            }
            // A TLS listener fault implies a TLS client unless the case says otherwise.
            var overrides = testCase.client
            if overrides.tls == nil, case .fault(let fault) = testCase.listener, fault.hasPrefix("tls-") { overrides.tls = true }
            // The run's CA goes with every case when there is a TLS listener: a client trusts it
            // for `tls` only, and a driver may set its trust once for all its cases
            // (docs/driver-protocol.md, `configure`). Needed, so a failure to get it fails, with `tls` only.
            let caPEM: String?
            if overrides.tls ?? false {
                caPEM = try await server.caPEM()
            } else {
                caPEM = server.tlsAddress == nil ? nil : try? await server.caPEM()
            }
            configuration = ClientSessionConfiguration(
                origin: origin, caPEM: caPEM, subscribeKey: keys.subscribeKey, publishKey: keys.publishKey,
                uuid: keys.uuid, secretKey: keys.secretKey, overrides: overrides)
        } catch let error as HarnessServerError {
            await cleanup(keys: keys, listenerPort: listenerPort, planInstalled: false)
            if case .unsupported = error { return finish(.skipped, "\(error)") }
            return finish(.fail, "setup: \(error)")
        } catch {
            await cleanup(keys: keys, listenerPort: listenerPort, planInstalled: false)
            return finish(.fail, "setup: \(error)")
        }

        let session: any ClientSession
        do {
            session = try await client.makeSession(configuration: configuration)
        } catch {
            await cleanup(keys: keys, listenerPort: listenerPort, planInstalled: false)
            if let adapterError = error as? ClientAdapterError, case .unsupported = adapterError {
                return finish(.skipped, "\(adapterError)")
            }
            // A start-up that timed out says more about the machine than the client: retried alone.
            return finish(.fail, "client session: \(error)", missedTime: Self.isTimeout(error))
        }
        let log = ObservationLog()
        let pump = Task {
            for await event in session.events { await log.record(event) }
        }
        let observer = PresenceObserver(address: server.address, subscribeKey: keys.subscribeKey)
        let steps = StepRunner(testCase: testCase, keys: keys, server: server, session: session, log: log, runSeed: runSeed,
                               observer: observer)
        var budgetExceeded: Int?
        do {
            if let plan = testCase.plan {
                try await server.installPlan(json: steps.seeded(plan), subscribeKey: keys.subscribeKey)
                planInstalled = true
            }
            budgetExceeded = await Self.race(budget: budget) { await steps.run() } onTimeout: { await steps.currentStep }
        } catch {
            await observer.stop()
            await session.close()
            pump.cancel()
            await cleanup(keys: keys, listenerPort: listenerPort, planInstalled: planInstalled)
            return finish(.fail, "install plan: \(error)")
        }

        // What the client reports once the runner asks it to close (a driver unsubscribing and
        // stopping its SDK, on its own schedule) is not part of the case: the observations end
        // here, for every client, as the built-in one's close stops listening first.
        let snapshot = await log.current
        let observed = Self.distinct(snapshot.statuses)
        // The observer ends with the steps: its request in flight cancelled, its socket closed.
        await observer.stop()
        let observerTimeline = await observer.log.current.timed.map { observation in
            var marked = observation
            marked.text = "observer: " + observation.text
            return marked
        }
        await session.close()
        pump.cancel()
        var journal = (try? await server.journal(subscribeKey: keys.subscribeKey)) ?? []
        let wireLog = journal.suffix(wireLogLength).map(\.line)
        var connectionEvents: [ConnectionEvent] = []
        if let listenerPort {
            connectionEvents = (try? await server.connectionEvents(port: listenerPort)) ?? []
            // Requests on the case's own listener that name no key (a `time` ping before any keyed request).
            let since = connectionEvents.first?.time ?? .infinity
            journal += ((try? await server.journal(subscribeKey: FaultLayer.unattributedKey)) ?? [])
                .filter { $0.localPort == listenerPort && $0.arrivalTime >= since }
        }
        await cleanup(keys: keys, listenerPort: listenerPort, planInstalled: planInstalled)

        var failures = await steps.failures
        if let step = budgetExceeded {
            failures.append(.failed("time budget of \(Self.milliseconds(budget)) ms exceeded at step \(step)"))
        }
        let (outcome, detail) = Verdict.decide(testCase, failures: failures, observed: observed)
        var listenerFault: String?
        if case .fault(let fault) = testCase.listener { listenerFault = fault }
        let observations = observerTimeline.isEmpty ? snapshot.timed : (snapshot.timed + observerTimeline).sorted { $0.time < $1.time }
        let timeline = TimelineModel.build(journal: journal, observations: observations, connectionEvents: connectionEvents,
                                           listenerFault: listenerFault,
                                           failingStep: outcome == .fail ? TimelineModel.failingStep(in: detail) : nil,
                                           failed: outcome == .fail)
        let missedTime = budgetExceeded != nil || FlakyRetry.timedOutUnexpectedly(testCase, observed: observed)
        return finish(outcome, detail, observed: observed, wireLog: Array(wireLog), missedTime: missedTime, timeline: timeline)
    }

    private func cleanup(keys: CaseKeys, listenerPort: Int?, planInstalled: Bool) async {
        // Always cleared: a `setPlan` step may have installed one even when the case had none.
        try? await server.clearPlan(subscribeKey: keys.subscribeKey)
        if let listenerPort { try? await server.closeListener(port: listenerPort) }
    }

    /// Runs `work` within `budget`; returns `nil` when it finished, or what `onTimeout` says.
    /// On timeout the work is cancelled but not awaited (a stuck client call cannot hold the run).
    static func race(budget: Duration, _ work: @escaping @Sendable () async -> Void,
                     onTimeout: @escaping @Sendable () async -> Int) async -> Int? {
        let once = ResumeOnce()
        return await withCheckedContinuation { (continuation: CheckedContinuation<Int?, Never>) in
            let worker = Task {
                await work()
                once.resume(continuation, with: nil)
            }
            Task {
                try? await Task.sleep(for: budget)
                guard !once.isDone else { return }
                let step = await onTimeout()
                if once.resume(continuation, with: step) { worker.cancel() }
            }
        }
    }

    static func isTimeout(_ error: any Error) -> Bool {
        if let adapterError = error as? ClientAdapterError, case .protocolViolation(let what) = adapterError {
            return what.hasPrefix("no reply to ")
        }
        return false
    }

    static func distinct(_ categories: [StatusCategory]) -> [StatusCategory] {
        var seen = Set<StatusCategory>()
        return categories.filter { $0 != .cancelled && seen.insert($0).inserted }
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func milliseconds(_ duration: Duration) -> Int { Int(seconds(duration) * 1_000) }
}
