// SPDX-License-Identifier: MIT
import BuiltInAdapter
import Foundation
import Testing
@testable import ConformanceKit

/// The built-in client through the in-process server: the wiring `pubnub-harness run` uses.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct BuiltInEndToEndTests {
    @Test func builtInClientPassesPublishPresenceAndAccessManagerSuites() async throws {
        let (server, stop) = try await IntegrationHarness.startServer()
        let cases = try ConformanceCatalog.select(ConformanceCatalog.all(), suites: ["publish", "presence", "pam"], ids: [])
        // Paced for this machine as `run --time-scale auto` would: a loaded machine stretches the
        // budgets and windows; a case that still runs out of time is retried alone (flaky).
        let runner = ConformanceRunner(server: server, client: BuiltInClient(),
                                       options: RunOptions(seed: 7, concurrency: 4, expectations: nil, timeScale: await TestPacing.scale()))
        let report = await runner.run(cases)
        await stop()

        #expect(report.results.count == cases.count)
        // A flaky case passed when run alone: the client is right, the machine was busy.
        let notPassed = report.results.filter { $0.outcome != .pass && $0.outcome != .flaky }.map { "\($0.id): \($0.outcome) \($0.detail)" }
        #expect(notPassed == [])
    }

    @Test func journalAndListenersOfTheInProcessServer() async throws {
        let server = try InProcessHarnessServer.start()
        let answer = try await server.request(method: "GET", path: "/time/0", query: [], body: nil)
        #expect(answer.status == 200)
        let publish = try await server.request(
            method: "GET", path: "/publish/pub-j/sub-j/0/ch/0/%22hi%22", query: [("uuid", "u-1")], body: nil)
        #expect(publish.status == 200)
        let journal = try await server.journal(subscribeKey: "sub-j")
        #expect(journal.map(\.path) == ["/publish/pub-j/sub-j/0/ch/0/%22hi%22"])
        #expect(journal.first?.query["uuid"] == "u-1")
        #expect(journal.first?.endpoint == .publish)
        let port = try await server.openListener(fault: "close-on-accept")
        #expect(port > 0 && port != Int(server.address.split(separator: ":").last ?? "") )
        try await server.closeListener(port: port)
        await #expect(throws: HarnessServerError.self) { try await server.openListener(fault: "no-such-fault") }
        #expect(try await server.caPEM()?.hasPrefix("-----BEGIN CERTIFICATE-----") == true)
        await server.shutdown()
    }

    @Test func sessionSettingsReachTheClientAndUnknownSchemesAreUnsupported() async throws {
        let refusing = RefusingPort()
        var overrides = ClientOverrides(cipherKey: "k", cipherScheme: "rot13")
        let unknown = ClientSessionConfiguration(origin: "127.0.0.1:\(refusing.port)", caPEM: nil, subscribeKey: "s", publishKey: "p", uuid: "u",
                                                 overrides: overrides)
        await #expect(throws: ClientAdapterError.unsupported("cipher scheme rot13")) {
            _ = try await BuiltInClient().makeSession(configuration: unknown)
        }
        overrides = ClientOverrides(presenceHeartbeatValue: 3)
        let short = ClientSessionConfiguration(origin: "127.0.0.1:\(refusing.port)", caPEM: nil, subscribeKey: "s", publishKey: "p", uuid: "u",
                                               overrides: overrides)
        let session = try await BuiltInClient().makeSession(configuration: short)
        await session.close()
        await session.close()
    }
}
