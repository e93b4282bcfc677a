// SPDX-License-Identifier: MIT
import Foundation
import HarnessJSON
import Testing
@testable import ConformanceKit

/// A driver written for the first protocol never fails a case for a feature it never heard of:
/// the whole catalog through such a driver, and the example driver (no `hello`) through the
/// feature suites.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(3)))) struct FirstProtocolDriverTests {
    /// The first protocol as its documentation listed it (commit dc17c56): the `configure`
    /// fields and each operation's fields. Anything else is news to such a driver.
    enum FirstProtocol {
        static let configureFields: Set<String> = [
            "type", "origin", "tls", "caPEM", "subscribeKey", "publishKey", "uuid", "authKey", "cipherKey", "cipherScheme",
            "nonSubscribeTimeoutMs", "subscribeTimeoutMs", "reconnectPingIntervalMs", "restoreSubscription",
            "catchUpOnSubscriptionRestore", "keepTimeTokenOnListChange", "requestMessageCountThreshold",
            "presenceHeartbeatValue", "presenceHeartbeatIntervalMs",
        ]
        static let operations: [String: Set<String>] = [
            "time": [], "unsubscribeAll": [],
            "publish": ["channel", "message", "meta", "storeInHistory", "usePOST"], "signal": ["channel", "message"],
            "subscribe": ["channels", "groups", "withPresence", "timetoken"], "unsubscribe": ["channels", "groups"],
            "hereNow": ["channels", "groups", "includeUUIDs", "includeState"], "whereNow": ["uuid"],
            "setState": ["channels", "groups", "state"], "getState": ["channels", "groups", "uuid"],
            "history": ["channel", "start", "end", "count", "reverse", "includeTimetoken"],
            "fetchMessages": ["channels", "start", "end", "max"], "messageCounts": ["channels", "timetokens"],
            "deleteMessages": ["channel", "start", "end"], "addChannelsToGroup": ["group", "channels"],
            "removeChannelsFromGroup": ["group", "channels"], "listChannelsInGroup": ["group"], "deleteGroup": ["group"],
        ]

        /// What of `fields` (a `configure` or an operation) such a driver would not understand.
        static func news(in fields: [String: JSONValue], configure: Bool) -> [String] {
            let type = fields["type"]?.stringValue ?? ""
            guard let known = configure ? configureFields : operations[type].map({ $0.union(["type"]) }) else { return ["operation \(type)"] }
            return fields.keys.filter { !known.contains($0) }.sorted().map { "\(type).\($0)" }
        }

        /// What of a case's expectations such a driver's events can never show (file, App
        /// Context and custom message type events; a wildcard as the subscription).
        static func news(in step: CaseStep) -> [String] {
            switch step {
            case .expectAppContextEvent: return ["appContext event"]
            case .expectMessageAction: return ["messageAction event"]
            case .expectMessages(let messages, _):
                return messages.flatMap { message -> [String] in
                    (message.isFile ? ["file event"] : []) + (message.customMessageType == nil ? [] : ["customMessageType"])
                        + ((message.subscription?.hasSuffix(".*") ?? false) ? ["wildcard subscription"] : [])
                }
            default: return []
            }
        }
    }

    @Test func theWholeCatalogSkipsWhatTheFirstProtocolLacks() async throws {
        let server = FakeServer()
        let hello = DriverHello(data: ["client": "first", "protocol": 1])
        let (capabilities, origin) = hello.resolvedCapabilities
        // Every case ends at its first operation (`unsupported`): the run checks which cases
        // start at all, and why the others are skipped; what the started ones would send is
        // checked step by step below.
        let client = ScriptedClient(server: server, capabilities: capabilities, capabilityOrigin: origin) { operation, _ in
            throw ClientAdapterError.unsupported(operation.name)
        }
        let catalog = ConformanceCatalog.all()
        let runner = ConformanceRunner(server: server, client: client,
                                       options: RunOptions(seed: 1, concurrency: 16, timeScale: 1, retryMissedTime: false))
        let report = await runner.run(catalog)
        #expect(report.results.count == catalog.count)

        // Every case needing a later feature was skipped before it started, saying which.
        let lacking = report.results.filter { $0.detail.hasPrefix("client lacks: ") }
        for result in lacking {
            #expect(result.outcome == .skipped)
            #expect(result.detail.contains("its driver declares protocol 1 and lists no capabilities"), "\(result.id): \(result.detail)")
        }
        let byID = Dictionary(uniqueKeysWithValues: catalog.map { ($0.id, $0) })
        let skippedIDs = Set(lacking.map(\.id))
        for testCase in catalog where !testCase.requiredCapabilities.isSubset(of: capabilities) {
            #expect(skippedIDs.contains(testCase.id), "\(testCase.id) needs \(testCase.requiredCapabilities.subtracting(capabilities))")
        }
        for id in ["filters.meta.equal", "filters.wildcard.child", "message-types.publish.delivered", "message-types.fetch.included",
                   "message-actions.add.returned", "message-actions.events.added", "message-actions.fetch.with-actions"] {
            #expect(skippedIDs.contains(id), "\(id)")
        }
        #expect(report.results.filter { $0.id.hasPrefix("filters.") || $0.id.hasPrefix("message-types.") }.allSatisfy { skippedIDs.contains($0.id) })

        // No case that starts sends such a driver anything it does not know, nor expects an
        // event it cannot report, up to the first operation it lacks (which it answers
        // `unsupported`: the case is skipped there).
        for result in report.results where !skippedIDs.contains(result.id) {
            let testCase = try #require(byID[result.id])
            let firstUnknown = testCase.steps.firstIndex {
                if case .perform(let operation) = $0 { return FirstProtocol.operations[operation.name] == nil }
                return false
            } ?? testCase.steps.endIndex
            let runs = testCase.steps[..<firstUnknown]
            guard runs.contains(where: { if case .perform = $0 { true } else { false } }) else { continue }
            let configuration = ClientSessionConfiguration(origin: "127.0.0.1:1", caPEM: nil, subscribeKey: "s", publishKey: "p", uuid: "u",
                                                           secretKey: "k", overrides: testCase.client)
            var news = FirstProtocol.news(in: configuration.driverFields, configure: true) + runs.flatMap(FirstProtocol.news(in:))
            for case .perform(let operation) in runs { news += FirstProtocol.news(in: operation.driverFields, configure: false) }
            #expect(news.isEmpty, "\(result.id): \(news)")
        }
    }

    /// Message actions came with protocol 9: a driver declaring protocol 8, or listing its
    /// capabilities without `messageActions` (as every driver before 9 did), gets none of them.
    @Test func aDriverBeforeProtocolNineGetsNoMessageActionCase() async throws {
        let cases = try ConformanceCatalog.select(ConformanceCatalog.all(), suites: ["message-actions"], ids: [])
        #expect(cases.count == 23)
        let hellos: [(DriverHello, String)] = [
            (DriverHello(data: ["protocol": 8]), "its driver declares protocol 8 and lists no capabilities; messageActions came with protocol 9"),
            (DriverHello(data: ["protocol": 9, "capabilities": .array(DriverProtocolVersion.capabilities(of: 8).map { .string($0.rawValue) })]),
             "not in the capabilities its driver's hello lists"),
        ]
        for (hello, reason) in hellos {
            let (capabilities, origin) = hello.resolvedCapabilities
            let client = ScriptedClient(server: FakeServer(), capabilities: capabilities, capabilityOrigin: origin) { operation, _ in
                Issue.record("\(operation.name) reached a driver without messageActions")
                throw ClientAdapterError.unsupported(operation.name)
            }
            let runner = ConformanceRunner(server: FakeServer(), client: client,
                                           options: RunOptions(seed: 2, concurrency: 8, timeScale: 1, retryMissedTime: false))
            let report = await runner.run(cases)
            #expect(report.summary.failed == 0)
            #expect(report.results.allSatisfy { $0.outcome == .skipped && $0.detail.contains(reason) }, "\(report.results.map(\.detail))")
        }
    }

    @Test func theExampleDriverWithoutHelloSkipsTheFeatureSuites() async throws {
        let (server, stop) = try await IntegrationHarness.startServer()
        let driver = FakeDriverEndToEndTests.root.appendingPathComponent("Examples/driver/fake_driver.py").path
        let client = await ExternalProcessClient(command: "python3 \(driver)", name: "fake-driver",
                                                 controlTimeout: TestTime.duration(5), startTimeout: TestTime.duration(30)).prepared()
        #expect(client.capabilities == DriverProtocolVersion.capabilities(of: 1))
        let cases = try ConformanceCatalog.select(ConformanceCatalog.all(), suites: ["filters", "message-types"], ids: [])
        let runner = ConformanceRunner(server: server, client: client, options: RunOptions(seed: 3, concurrency: 4))
        let report = await runner.run(cases)
        await stop()
        #expect(report.summary.failed == 0)
        #expect(report.results.allSatisfy { $0.outcome == .skipped })
        #expect(report.results.allSatisfy { $0.detail.contains("its driver answers no hello, so it has protocol 1's capabilities") })
    }
}
