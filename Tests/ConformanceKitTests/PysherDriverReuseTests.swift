// SPDX-License-Identifier: MIT
import Foundation
import HarnessJSON
import Testing
@testable import ConformanceKit

/// pysher's driver (Drivers/pysher) serving two cases in one process: the second sees no event
/// of the first's subscription, and the first case's connection is closed before the second starts.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct PysherDriverReuseTests {
    /// The interpreter (see ``PythonInterpreters``), nil when none can import `pysher`.
    static func python() async -> String? {
        await PythonInterpreters.first(of: PythonInterpreters.candidates(environment: ["PUSHER_HTTP_PYTHON"], systemPython: false),
                                       importing: "pysher")
    }

    /// The observations of `session` up to the first that `stop` accepts (at most `seconds`, scaled).
    static func observations(of session: any PusherClientSession, within seconds: Double,
                       until stop: @escaping @Sendable (PusherObservation) -> Bool) async -> [PusherObservation] {
        await collect(session.events, within: seconds, until: stop)
    }

    static func isConnected(_ observation: PusherObservation) -> Bool {
        if case .connected = observation { return true }
        return false
    }

    static func isSubscribed(_ observation: PusherObservation) -> Bool {
        if case .subscribed = observation { return true }
        return false
    }

    static func eventName(_ observation: PusherObservation) -> String? {
        if case .event(_, let name, _, _) = observation { return name }
        return nil
    }

    @Test(.enabled("pysher (PyPI) is not installed: set PUBNUB_SDK_VENV or run .ci/run, which installs it") { await python() != nil },
          .timeLimit(.minutes(TestTime.limitMinutes(5))))
    func aReusedPysherDriverShowsTheNextCaseNothingOfThePrevious() async throws {
        let python = try #require(await Self.python())
        let app = PusherRunner.app(for: PusherCase("pusher.t.driver-reuse", "", spec: "", steps: []))
        let server = try InProcessPusherServer.start(apps: [app], tls: false)
        let driver = PythonDriverReuseTests.root.appendingPathComponent("Drivers/pysher/pysher_driver.py").path
        let client = try #require(await PusherDriverClient(
            command: "\(python) \(driver)", name: "pysher", controlTimeout: TestTime.duration(10),
            startTimeout: TestTime.duration(60), warmDrivers: 1).prepared() as? PusherDriverClient)
        defer { client.endWarmDrivers() }
        let configuration = PusherSessionConfiguration(
            host: server.host, port: server.port, appKey: app.key, appSecret: app.secret,
            authEndpoint: server.authEndpoint(appKey: app.key, user: "user-client"), userID: "user-client",
            settings: PusherClientSettings())

        let first = try await client.makeSession(configuration: configuration)
        try await first.perform(PusherOperation.connect)
        #expect(await Self.observations(of: first, within: 10, until: Self.isConnected).contains(where: Self.isConnected))
        try await first.perform(PusherOperation.subscribe(channel: "news"))
        #expect(await Self.observations(of: first, within: 10, until: Self.isSubscribed).contains(where: Self.isSubscribed))
        await first.close()

        let second = try await client.makeSession(configuration: configuration)
        try await second.perform(PusherOperation.connect)
        _ = await Self.observations(of: second, within: 10, until: Self.isConnected)
        try await second.perform(PusherOperation.subscribe(channel: "other"))
        _ = await Self.observations(of: second, within: 10, until: Self.isSubscribed)
        // An event on the first case's channel, then one on the second's: the second case hears only its own.
        try await server.trigger(app: app, channels: ["news"], event: "stale", data: "{}", excludeSocketID: nil)
        try await server.trigger(app: app, channels: ["other"], event: "fresh", data: "{}", excludeSocketID: nil)
        let seen = await Self.observations(of: second, within: 10) { Self.eventName($0) == "fresh" }
        // By the time the second case's event has arrived, the first case's connection is long closed.
        let connections = try await server.journal(appKey: app.key).connections
        #expect(connections.count == 2 && connections.first?.closedAt != nil && connections.last?.closedAt == nil, "\(connections)")
        await second.close()

        #expect(seen.compactMap(Self.eventName) == ["fresh"], "\(seen)")
        let counts = client.driverCounts
        #expect(counts.started == 1 && counts.reused == 2 && counts.discarded == 0, "\(counts) \(client.lastDriverDiscard ?? "")")
        await server.shutdown()
    }
}
