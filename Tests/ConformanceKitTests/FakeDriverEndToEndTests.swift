// SPDX-License-Identifier: MIT
import Foundation
import Testing
@testable import ConformanceKit

/// Runs a few suites through Examples/driver/fake_driver.py against the real mock server.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct FakeDriverEndToEndTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func publishSubscribeAndHistoryThroughTheExampleDriver() async throws {
        let (server, stop) = try await IntegrationHarness.startServer()
        let driver = Self.root.appendingPathComponent("Examples/driver/fake_driver.py").path
        let expectations = try ExpectationFile.load(contentsOf: Self.root.appendingPathComponent("Fixtures/expectations/fake-driver.json"))
        let client = ExternalProcessClient(command: "python3 \(driver)", name: "fake-driver",
                                           capabilities: [.history, .presence, .tls],
                                           controlTimeout: TestTime.duration(5), startTimeout: TestTime.duration(30))
        let cases = try ConformanceCatalog.select(ConformanceCatalog.all(), suites: ["publish", "subscribe", "history"], ids: [])
        let runner = ConformanceRunner(server: server, client: client, options: RunOptions(seed: 20, concurrency: 4, expectations: expectations,
                                                                                                timeScale: await TestPacing.scale()))
        let report = await runner.run(cases)
        await stop()

        let unexpected = report.results.filter(\.isUnexpectedFailure).map { "\($0.id): \($0.detail)" }
        #expect(unexpected == [])
        // The driver implements publish, signal, subscribe and v2 history; these must really pass.
        let mustPass = ["publish.get.string", "publish.post.object", "publish.signal.string", "subscribe.handshake.connected",
                        "subscribe.long-poll.message", "subscribe.order.server-published", "history.v2.basic", "history.v2.count"]
        for id in mustPass {
            #expect(report.results.first { $0.id == id }?.outcome == .pass, "\(id)")
        }
        // Operations it lacks are skipped, never passed.
        #expect(report.results.first { $0.id == "history.v3.multi-channel" }?.outcome == .skipped)
    }
}
