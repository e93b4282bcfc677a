// SPDX-License-Identifier: MIT
import Foundation
import MockPubNubServer
import Testing
@testable import ConformanceKit

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct CatalogTests {
    let cases = ConformanceCatalog.all()

    @Test func atLeast150UniqueWellFormedIDs() throws {
        #expect(cases.count >= 150)
        #expect(Set(cases.map(\.id)).count == cases.count)
        let pattern = try Regex("^[a-z0-9-]+(\\.[a-z0-9-]+){2}$")
        let bad = cases.map(\.id).filter { $0.wholeMatch(of: pattern) == nil }
        #expect(bad == [])
    }

    @Test func suitesMatchIDs() {
        for (name, suiteCases) in ConformanceCatalog.builtInSuites {
            #expect(!suiteCases.isEmpty, "suite \(name) is empty")
            #expect(suiteCases.allSatisfy { $0.suite == name }, "suite \(name) holds a case of another suite")
        }
    }

    @Test func everyDocumentedFaultKindIsUsed() {
        var kinds = Set<String>()
        func collect(_ value: JSONValue) {
            switch value {
            case .object(let members):
                if let kind = members["kind"]?.stringValue { kinds.insert(kind) }
                members.values.forEach(collect)
            case .array(let items):
                items.forEach(collect)
            default:
                break
            }
        }
        for testCase in cases {
            if let plan = testCase.plan { collect(plan) }
            for case .setPlan(let plan?) in testCase.steps { collect(plan) }
        }
        #expect(Set(FaultCatalog.documentedKinds).subtracting(kinds) == [])
        #expect(kinds.subtracting(FaultCatalog.documentedKinds) == [])
    }

    @Test func everyListenerFaultIsCoveredOnRequestsAndSubscribe() {
        var used: [String: Set<String>] = [:]
        for testCase in cases {
            if case .fault(let fault) = testCase.listener {
                used[fault, default: []].insert(testCase.id.split(separator: ".")[1].description)
            }
        }
        for fault in ListenerFault.allCases {
            #expect(used[fault.rawValue] == ["request", "subscribe"], "listener fault \(fault.rawValue)")
        }
        #expect(cases.contains { $0.listener == .refused })
    }

    @Test func everyRequestFaultHasARequestAndASubscribeCase() {
        let ids = Set(cases.map(\.id))
        for fault in FaultCatalog.all {
            #expect(ids.contains("faults.request.\(fault.name)"))
            #expect(ids.contains("faults.subscribe.\(fault.name)"))
        }
    }

    @Test func everyCategoryIsCheckedOrListedAsNotApplicable() {
        let checked = Set(cases.flatMap(\.expected))
        let missing = Set(StatusCategory.allCases).subtracting(checked).subtracting(StatusCategory.notApplicable.keys)
        #expect(missing == [])
    }

    @Test func everyPlanUsesOnlyDocumentedFields() {
        let endpoints = Set(PubNubEndpoint.allCases.map(\.rawValue)).subtracting(["admin"])
        let topLevel: Set<String> = ["version", "seed", "rules"]
        let ruleFields: Set<String> = ["id", "match", "nth", "after", "times", "probability", "fault"]
        let matchFields: Set<String> = ["endpoint", "method", "channel", "channelGroup", "uuid", "query"]
        var plans = cases.compactMap(\.plan)
        for testCase in cases { for case .setPlan(let plan?) in testCase.steps { plans.append(plan) } }
        #expect(plans.count >= 60)
        for plan in plans {
            let members = plan.objectValue ?? [:]
            #expect(Set(members.keys).isSubset(of: topLevel), "\(plan.jsonText)")
            #expect(members["version"] == 1)
            let rules = members["rules"]?.arrayValue ?? []
            #expect(!rules.isEmpty, "\(plan.jsonText)")
            for rule in rules {
                let fields = Set((rule.objectValue ?? [:]).keys)
                #expect(fields.isSubset(of: ruleFields), "\(rule.jsonText)")
                let match = rule["match"]?.objectValue ?? [:]
                #expect(Set(match.keys).isSubset(of: matchFields), "\(rule.jsonText)")
                if let endpoint = match["endpoint"]?.stringValue { #expect(endpoints.contains(endpoint), "\(endpoint)") }
                #expect(FaultCatalog.documentedKinds.contains(rule["fault"]?["kind"]?.stringValue ?? ""), "\(rule.jsonText)")
                if let times = rule["times"] { #expect((times.intValue ?? 0) >= 1) }
            }
        }
    }

    @Test func budgetsAreShortAndTimeoutsConfigured() {
        #expect(cases.allSatisfy { $0.timeBudget <= .seconds(4) })
        let total = cases.reduce(Duration.zero) { $0 + $1.timeBudget }
        // Even if every case used its whole budget, 8 at a time finish within 90 s (60 s before
        // the objects, access-v3, files, push, message-types and filters suites).
        #expect(total / 8 < .seconds(90))
        for testCase in cases {
            let configuration = ClientSessionConfiguration(origin: "h:1", caPEM: nil, subscribeKey: "s", publishKey: "p", uuid: "u", overrides: testCase.client)
            #expect(configuration.nonSubscribeTimeoutMs <= 1_000, "\(testCase.id)")
            #expect(configuration.reconnectPingIntervalMs <= 1_000, "\(testCase.id)")
        }
    }

    @Test func alternativesDifferFromTheReference() {
        for testCase in cases {
            for alternative in testCase.alternatives {
                #expect(Set(alternative.categories) != Set(testCase.expected), "\(testCase.id): \(alternative.reason)")
                #expect(!alternative.reason.isEmpty)
            }
        }
    }

    @Test func selectionBySuiteAndCase() throws {
        let publish = try ConformanceCatalog.select(cases, suites: ["publish"], ids: ["tls.request.tls-expired"])
        #expect(publish.allSatisfy { $0.suite == "publish" || $0.id == "tls.request.tls-expired" })
        #expect(publish.count == cases.count { $0.suite == "publish" } + 1)
        #expect(throws: SelectionError.unknownSuite("nope", known: Set(cases.map(\.suite)).sorted())) {
            try ConformanceCatalog.select(cases, suites: ["nope"], ids: [])
        }
        #expect(throws: SelectionError.unknownCase("a.b.c")) { try ConformanceCatalog.select(cases, suites: [], ids: ["a.b.c"]) }
    }

    @Test func vectorFilesBecomeCases() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("vectors-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let vectors: JSONValue = ["vectors": [
            ["cipherKey": "enigma", "scheme": "legacy", "plaintext": "\"yay\"", "ciphertext": "AAAA"],
            ["cipherKey": "enigma", "scheme": "legacy", "plaintext": "{\"a\":1}", "ciphertext": "BBBB"],
            ["cipherKey": "enigma", "scheme": "aescbc", "plaintext": "\"x\"", "ciphertext": "CCCC", "error": true],
        ]]
        try Data(vectors.jsonText.utf8).write(to: directory.appendingPathComponent("Legacy Vectors.json"))
        try Data("not json".utf8).write(to: directory.appendingPathComponent("broken.json"))
        let found = CryptoVectorCases.cases(directory: directory)
        // Sorted by file name ("L" sorts before "b"); one case per (key, scheme) group.
        #expect(found.map(\.id) == ["encryption.vectors.legacy-vectors-1", "encryption.vectors.legacy-vectors-2", "encryption.vectors.broken"])
        #expect(found[0].client.cipherScheme == "legacy")
        #expect(found[0].expected == [.connected])
        #expect(found[0].steps.contains(.expectMessages([ExpectedMessage(channel: "ch-v", message: "yay"), ExpectedMessage(channel: "ch-v", message: ["a": 1])], withinMs: 1_500)))
        #expect(found[1].client.cipherScheme == "aescbc")
        #expect(found[1].expected == [.connected, .decryptionError])
        #expect(found[1].steps.contains(.serverPublish(channel: "ch-v", message: "CCCC")))
        #expect(found[2].title == "Vector file broken.json is unusable: not JSON")
    }
}
