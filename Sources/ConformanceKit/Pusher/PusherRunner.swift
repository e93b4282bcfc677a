// SPDX-License-Identifier: MIT
import HarnessPrimitives
import MockPusher
import Synchronization

/// Runs Pusher cases against a Pusher client and the in-process suite server with the scheduling
/// every family shares (``ConformanceRunner``'s: seeded order, bounded concurrency, expectation
/// files, serial retry); results are ``CaseResult``s, so every report format works unchanged.
public struct PusherRunner: Sendable {
    public let client: any PusherConformanceClient
    public let options: RunOptions

    public init(client: any PusherConformanceClient, options: RunOptions) {
        self.client = client
        self.options = options
    }

    /// The app a case runs on: its own id, key and secret, derived from the case id, with the
    /// case's app options (e.g. a short activity timeout) and an encryption master key derived from
    /// the id too, unless the case sets its own or asks for none (``PusherCase/appHasMasterKey``).
    public static func app(for testCase: PusherCase) -> PusherApp {
        let token = testCase.id.replacingOccurrences(of: ".", with: "-")
        var options = testCase.appOptions ?? PusherAppOptions()
        if !testCase.appHasMasterKey {
            options.encryptionMasterKey = nil
        } else if options.encryptionMasterKey == nil {
            options.encryptionMasterKey = Digest.sha256(Array("master-key-\(token)".utf8))
        }
        return PusherApp(id: "app-\(token)", key: "key-\(token)", secret: "secret-\(token)", options: options)
    }

    /// Starts an in-process server (as `serve` builds it), runs `cases`, stops the server.
    public func run(_ cases: [PusherCase], progress: @escaping @Sendable (CaseResult, Int, Int) -> Void = { _, _, _ in }) async throws -> RunReport {
        let server = try InProcessPusherServer.start()
        let report = await run(cases, on: server, progress: progress)
        await server.shutdown()
        return report
    }

    /// Runs `cases` on `server` (in process or another process's `serve`); each case registers its app first.
    public func run(_ cases: [PusherCase], on server: any PusherHarnessServer,
                    progress: @escaping @Sendable (CaseResult, Int, Int) -> Void = { _, _, _ in }) async -> RunReport {
        let byID = Dictionary(cases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let client = await self.client.prepared()
        let executor = PusherCaseExecutor(server: server, client: client, wireLogLength: options.wireLogLength, timeScale: options.timeScale)
        let expectations = options.expectations
        return await ConformanceRunner.schedule(
            ids: cases.map(\.id), clientName: client.name, options: options,
            estimate: { id in byID[id].map(StartOrder.estimate) ?? .none }, processPerCase: client.startsProcessPerCase,
            listedSkip: { id in
                guard let testCase = byID[id], let listed = expectations?.deviation(for: id), listed.outcome == .skipped else { return nil }
                return CaseResult(id: id, suite: testCase.suite, title: testCase.title, spec: testCase.spec, outcome: .skipped,
                                  expected: [], observed: [], durationSeconds: 0, detail: "skipped by expectation file: \(listed.reason)")
            },
            execute: { id in await executor.run(byID[id]!) }, progress: progress)
    }
}

/// Runs one Pusher case from setup to cleanup.
struct PusherCaseExecutor: Sendable {
    let server: any PusherHarnessServer
    let client: any PusherConformanceClient
    let wireLogLength: Int
    let timeScale: Double

    /// The presence user id of the client under test.
    static let clientUserID = "user-client"
    /// The user the server's auth endpoint refuses with 403 (docs/pusher.md, harness routes).
    static let refusedUser = "refused"

    func run(_ original: PusherCase) async -> CaseResult {
        let started = ContinuousClock.now
        let app = PusherRunner.app(for: original)
        var testCase = original
        var variantReason: String?
        if let only = original.onlyFor, client.profile.value(only.aspect) != only.value {
            return result(original, .skipped, "checks \(only.aspect.rawValue)=\(only.value); this client's is \(client.profile.value(only.aspect))",
                          started: started)
        }
        for variant in original.variants where client.profile.value(variant.aspect) == variant.value {
            switch variant.effect {
            case .skip(let reason):
                return result(original, .skipped, "\(variant.aspect.rawValue)=\(variant.value): \(reason)", started: started)
            case .replaceSteps(let steps, let reason):
                testCase.steps = steps
                variantReason = "\(variant.aspect.rawValue)=\(variant.value): \(reason)"
            }
        }
        let missing = testCase.requires.subtracting(client.capabilities)
        if !missing.isEmpty {
            return result(original, .skipped, "client lacks: " + missing.map(\.rawValue).sorted().joined(separator: ", "), started: started)
        }
        let scaled = PusherCaseBudget.scaled(testCase, by: timeScale)
        let budget = PusherCaseBudget.effective(testCase, scale: timeScale)
        let key = testCase.client.unknownAppKey ? "no-such-key-\(app.key)" : app.key
        var port = server.port
        var caPEM: String?
        do {
            try await server.register(app)
            try await server.clearJournal(appKey: key)
            if key != app.key { try await server.clearJournal(appKey: app.key) }
            if testCase.client.tls {
                guard let tlsPort = server.tlsPort else { return result(original, .skipped, "the server has no TLS listener (--tls-server)", started: started) }
                guard let pem = try await server.caPEM() else { return result(original, .skipped, "the server has no test CA to trust", started: started) }
                (port, caPEM) = (tlsPort, pem)
            }
            if let plan = testCase.faultPlan { try await server.installPlan(plan, appKey: key) }
        } catch {
            return result(original, .fail, "server setup: \(error)", started: started)
        }
        var configuration = PusherSessionConfiguration(
            host: server.host, port: port, appKey: key, appSecret: app.secret,
            authEndpoint: server.authEndpoint(appKey: app.key, user: testCase.client.authRefused ? Self.refusedUser : Self.clientUserID),
            userID: Self.clientUserID, settings: testCase.client, caPEM: caPEM,
            userAuthEndpoint: server.userAuthEndpoint(appKey: app.key, user: testCase.client.userAuth == .refused ? Self.refusedUser : Self.clientUserID,
                                                      watchlist: testCase.client.watchlist, badSignature: testCase.client.userAuth == .badSignature))
        // The endpoint's switches of the case (docs/pusher.md, harness routes).
        let endpointQuery = (testCase.client.presenceFromSignin ? ["channel_data=none"] : []) + (testCase.client.wrongSharedSecret ? ["shared_secret=wrong"] : [])
        if !endpointQuery.isEmpty { configuration.authEndpoint += "?" + endpointQuery.joined(separator: "&") }
        let session: any PusherClientSession
        do {
            session = try await client.makeSession(configuration: configuration)
        } catch {
            await cleanUp(app: app, key: key, plan: testCase.faultPlan != nil)
            if let adapterError = error as? ClientAdapterError, case .unsupported = adapterError {
                return result(original, .skipped, "\(adapterError)", started: started)
            }
            return result(original, .fail, "client session: \(error)", started: started, missedTime: CaseExecutor.isTimeout(error))
        }
        let log = PusherObservationLog()
        let pump = Task {
            for await event in session.events { log.record(event) }
        }
        let steps = PusherStepRunner(server: server, app: app, connectionKey: key, session: session, log: log)
        let failure = FailureBox()
        let exceeded = await CaseExecutor.race(budget: budget) {
            failure.set(await steps.run(scaled.steps))
        } onTimeout: { steps.currentStep }
        await session.close()
        pump.cancel()
        let wireLog = Array(((try? await server.journal(appKey: key))?.lines ?? ["(the server's journal could not be read)"]).suffix(wireLogLength))
        await cleanUp(app: app, key: key, plan: testCase.faultPlan != nil)

        if let step = exceeded {
            return result(original, .fail, "time budget of \(CaseExecutor.milliseconds(budget)) ms exceeded at step \(step)",
                          started: started, wireLog: wireLog, missedTime: true)
        }
        if let detail = failure.get() {
            if detail.hasPrefix("unsupported: ") { return result(original, .skipped, String(detail.dropFirst(13)), started: started) }
            return result(original, .fail, detail, started: started, wireLog: wireLog)
        }
        if let variantReason { return result(original, .nonStrict, variantReason, started: started, wireLog: wireLog) }
        return result(original, .pass, "", started: started, wireLog: wireLog)
    }

    /// Ends the case's peers and connections and removes its plan (best effort: the server may be gone).
    private func cleanUp(app: PusherApp, key: String, plan: Bool) async {
        try? await server.removePeers(appKey: app.key)
        _ = try? await server.closeConnections(appKey: key, code: 1001, reason: "case over")
        if plan { try? await server.clearPlan(appKey: key) }
    }

    private func result(_ testCase: PusherCase, _ outcome: CaseOutcome, _ detail: String, started: ContinuousClock.Instant,
                        wireLog: [String] = [], missedTime: Bool = false) -> CaseResult {
        CaseResult(id: testCase.id, suite: testCase.suite, title: testCase.title, spec: testCase.spec, outcome: outcome,
                   expected: [], observed: [], durationSeconds: CaseExecutor.seconds(ContinuousClock.now - started),
                   detail: detail, wireLog: wireLog, missedTime: missedTime)
    }
}

/// The step runner's verdict, handed out of the budget race.
private final class FailureBox: Sendable {
    private let value = Mutex<String?>(nil)
    func set(_ text: String?) { value.withLock { $0 = text } }
    func get() -> String? { value.withLock { $0 } }
}
