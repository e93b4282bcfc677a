// SPDX-License-Identifier: MIT
import Foundation
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// The catalog (docs/faults.md) and the example plans (Fixtures/plans) agree with the code.
@Suite(.offPool, .timeLimit(.minutes(TestTime.limitMinutes(5)))) struct FaultCatalogTests {
    private static func packageRoot() throws -> URL {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        for _ in 0..<8 {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
            url.deleteLastPathComponent()
        }
        throw CocoaError(.fileNoSuchFile)
    }

    private static func read(_ relative: String) throws -> String {
        try String(contentsOf: packageRoot().appendingPathComponent(relative), encoding: .utf8)
    }

    @Test func catalogHasASectionPerFaultKindAndARowPerListenerFault() throws {
        let catalog = try Self.read("docs/faults.md")
        for kind in FaultKind.allCases {
            #expect(catalog.contains("### `\(kind.rawValue)`"), "no section for \(kind.rawValue)")
        }
        for fault in ListenerFault.allCases {
            #expect(catalog.contains("| `\(fault.rawValue)` |"), "no row for \(fault.rawValue)")
        }
    }

    @Test func everyFaultExampleInTheCatalogDecodes() throws {
        let catalog = try Self.read("docs/faults.md")
        let examples = catalog.split(separator: "\n").filter { $0.hasPrefix("{ \"kind\": ") }
        #expect(examples.count >= FaultKind.allCases.count)
        var kinds: Set<FaultKind> = []
        for example in examples {
            let plan = "{\"rules\":[{\"fault\":\(example)}]}"
            do {
                kinds.insert(try FaultPlan.decode(json: Array(plan.utf8)).rules[0].fault.kind)
            } catch {
                Issue.record("\(example): \(error)")
            }
        }
        #expect(kinds == Set(FaultKind.allCases))
    }

    @Test func everyExamplePlanDecodes() throws {
        let directory = try Self.packageRoot().appendingPathComponent("Fixtures/plans")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(names.count >= 11)
        for name in names {
            let bytes = try [UInt8](Data(contentsOf: directory.appendingPathComponent(name)))
            #expect(throws: Never.self, "\(name)") { try FaultPlanFile.decode(json: bytes) }
        }
    }

    @Test func subscribeTimeoutTwiceHangsTwoLongPollsThenServes() throws {
        let bytes = Array(try Self.read("Fixtures/plans/subscribe-timeout-twice.json").utf8)
        let plan = try FaultPlan.decode(json: bytes)
        let faults = FaultLayer(upstream: FakeUpstream(response: FaultFixtures.sent), scheduler: ManualScheduler())
        try faults.installPlan(plan, for: "sk")
        var outcomes: [ResponseAction?] = []
        for target in ["/v2/subscribe/sk/c/0?tt=0", "/v2/subscribe/sk/c/0?tt=5&tr=1", "/v2/subscribe/sk/c/0?tt=5&tr=1",
                       "/v2/subscribe/sk/c/0?tt=5&tr=1", "/publish/p/sk/0/c/0/1"] {
            let sink = ActionSink()
            faults.handle(FaultFixtures.request("GET", target), context: FaultFixtures.context(), responder: sink.responder())
            outcomes.append(sink.all.first)
        }
        let served = ResponseAction.respond(FaultFixtures.sent)
        #expect(outcomes == [served, .hang, .hang, served, served])
        #expect(faults.journal(for: "sk").map(\.matchNumber) == [nil, 1, 2, nil, nil])
    }
}
