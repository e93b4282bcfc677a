// SPDX-License-Identifier: MIT
import Foundation
import Testing
@testable import ConformanceKit

/// Driver `hello`, client profiles and the rules that make profile-dependent cases apply.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ProfileTests {
    static let catalog = ConformanceCatalog.all()

    static func find(_ id: String) -> ConformanceCase { catalog.first { $0.id == id }! }

    static func adapted(_ id: String, _ profile: ClientProfile) -> ConformanceCase? {
        if case .applies(let adapted) = ProfileRules.adapt(find(id), to: profile) { return adapted }
        return nil
    }

    @Test func referenceProfileChangesNoCaseButSkipsVariantOnlyCases() {
        let variantOnly = Set(ProfileRules.variantCases.flatMap(\.cases))
        for testCase in Self.catalog where !variantOnly.contains(testCase.id) {
            #expect(ProfileRules.adapt(testCase, to: .reference) == .applies(testCase), "\(testCase.id)")
        }
        for id in variantOnly {
            guard case .skipped(let reason) = ProfileRules.adapt(Self.find(id), to: .reference) else { Issue.record("\(id) applies"); continue }
            #expect(reason.contains("reconnection is time-ping"), "\(reason)")
        }
    }

    @Test func retryPolicyVariantsApplyOnlyToRetryPolicyClients() {
        let retry = ClientProfile(variants: [.reconnection: "retry-policy"])
        let jittered = ClientProfile(variants: [.reconnection: "time-ping-jittered"])
        for id in ["reconnect.retry.restore", "reconnect.retry.catch-up"] {
            #expect(ProfileRules.adapt(Self.find(id), to: retry) == .applies(Self.find(id)), "\(id)")
            #expect(Self.adapted(id, jittered) == nil, "\(id)")
            // Without a settable interval the policy's own delays (seconds) do not fit the windows.
            var fixed = retry
            fixed.ignoredSettings = [.reconnectPingIntervalMs]
            #expect(Self.adapted(id, fixed) == nil, "\(id)")
        }
        // Their reference counterparts time /time/0 pings: skipped for the same client.
        #expect(Self.adapted("reconnect.restore.on", retry) == nil)
        #expect(Self.adapted("reconnect.catch-up.on", retry) == nil)
    }

    @Test func everyRuleNamesExistingCases() {
        let ids = Set(Self.catalog.map(\.id))
        for rule in ProfileRules.rules {
            for pattern in rule.cases {
                let matched = pattern.hasSuffix("*") ? ids.contains { $0.hasPrefix(String(pattern.dropLast())) } : ids.contains(pattern)
                #expect(matched, "\(pattern) names no case")
            }
        }
        for id in ProfileRules.timeoutPaced { #expect(ids.contains(id), "\(id)") }
        for id in ProfileRules.variantCases.flatMap(\.cases) { #expect(ids.contains(id), "\(id)") }
    }

    @Test func declaredStatusVariantIsNonStrictOnlyWhenItHappens() throws {
        let profile = ClientProfile(variants: [.unsubscribeAllStatus: "PNAcknowledgmentCategory"])
        let testCase = try #require(Self.adapted("subscribe.unsubscribe.all-disconnected", profile))
        let missing = StepFailure.missingStatus(.disconnected, step: 4)
        #expect(Verdict.decide(testCase, failures: [missing], observed: [.connected, .acknowledgment]).0 == .nonStrict)
        // Without the declaration the same observation fails.
        #expect(Verdict.decide(Self.find(testCase.id), failures: [missing], observed: [.connected, .acknowledgment]).0 == .fail)
        // A client that announces nothing at all still fails.
        #expect(Verdict.decide(testCase, failures: [missing], observed: [.connected]).0 == .fail)
    }

    @Test func inapplicableCasesAreSkippedWithTheReason() {
        let inPlace = ProfileRules.adapt(Self.find("subscribe.channels.add"), to: ClientProfile(variants: [.listChangeStatus: "none"]))
        guard case .skipped(let reason) = inPlace else { Issue.record("not skipped"); return }
        #expect(reason.contains("listChangeStatus: none"))
        let retry = ClientProfile(variants: [.reconnection: "retry-policy"])
        #expect(ProfileRules.adapt(Self.find("reconnect.ping.interval"), to: retry) != .applies(Self.find("reconnect.ping.interval")))
        #expect(ProfileRules.adapt(Self.find("reconnect.restore.off"), to: retry) == .applies(Self.find("reconnect.restore.off")))
    }

    @Test func ignoredSettingsSkipOnlyCasesThatChangeThem() {
        let profile = ClientProfile(ignoredSettings: [.requestMessageCountThreshold, .keepTimeTokenOnListChange])
        for id in ["threshold.exceeded.at-threshold", "subscribe.list-change.new-timetoken"] {
            guard case .skipped(let reason) = ProfileRules.adapt(Self.find(id), to: profile) else { Issue.record("\(id) not skipped"); continue }
            #expect(reason.hasPrefix("sets "))
        }
        // keepTimeTokenOnListChange on is the harness default: the case still applies.
        #expect(Self.adapted("subscribe.list-change.keep-timetoken", profile) != nil)
        #expect(Self.adapted("publish.get.string", profile) != nil)
        // A fixed ping interval only matters to the cases that time the pings.
        let fixedPings = ClientProfile(ignoredSettings: [.reconnectPingIntervalMs])
        #expect(Self.adapted("tls.request.tls-trusted", fixedPings) != nil)
        #expect(Self.adapted("reconnect.ping.interval", fixedPings) == nil)
        #expect(Self.adapted("reconnect.restore.off", fixedPings) != nil)
    }

    @Test func jitteredReconnectionStretchesWindowsButNotWaits() throws {
        let original = Self.find("reconnect.restore.off")
        let stretched = ProfileRules.stretched(original, by: 4)
        #expect(stretched.timeBudget == original.timeBudget * 4)
        #expect(stretched.steps.contains(.wait(ms: 500)))
        let reconnected = try #require(Self.adapted("reconnect.ping.reconnected", ClientProfile(variants: [.reconnection: "time-ping-jittered"])))
        #expect(reconnected.steps.contains(.expectStatus(.reconnected, withinMs: 6_000)))
    }

    @Test func timeoutResolutionStretchesTimeoutPacedCases() throws {
        let profile = ClientProfile(timeoutResolutionMs: 1_000)
        let hang = try #require(Self.adapted("faults.request.hang", profile))
        #expect(hang.timeBudget == Self.find("faults.request.hang").timeBudget * 4)  // 300 ms timeout → ×4
        #expect(Self.adapted("publish.get.string", profile) == Self.find("publish.get.string"))
    }

    @Test func helloIsParsed() {
        let data: JSONValue = [
            "client": "sdk", "version": "1.2.3", "flavour": "sync", "capabilities": ["tls", "presence", "bogus"],
            "controlTimeoutMs": 90_000,
            "profile": ["reconnection": "retry-policy", "unknownAspect": "x", "settingsIgnored": ["requestMessageCountThreshold", "nope"],
                        "timeoutResolutionMs": 1_000],
        ]
        let hello = DriverHello(data: data)
        #expect(hello.description == "sdk 1.2.3 sync")
        #expect(hello.capabilities == [.tls, .presence])
        #expect(hello.controlTimeout == .seconds(30))
        #expect(hello.profile == ClientProfile(variants: [.reconnection: "retry-policy"], ignoredSettings: [.requestMessageCountThreshold],
                                               timeoutResolutionMs: 1_000))
        #expect(DriverHello(data: nil).capabilities == nil)
    }

    @Test func handshakeMatchesWithOrWithoutCursor() {
        func entry(_ query: [String: String]) -> JournalEntry {
            JournalEntry(method: "GET", path: "/v2/subscribe/s/c/0", query: query, arrivalTime: 0, endpoint: "subscribe")
        }
        #expect(entry(["tt": "0"]).queryMatches(PlanBuilder.handshake))
        #expect(entry([:]).queryMatches(PlanBuilder.handshake))
        #expect(!entry(["tt": "17000000000000000"]).queryMatches(PlanBuilder.handshake))
        #expect(!entry([:]).queryMatches(PlanBuilder.longPoll))
    }

    static let helloDriver = #"""
    import json, sys
    for line in sys.stdin:
        step = json.loads(line)
        i, t = step["id"], step["type"]
        if t == "hello":
            data = {"client": "probe", "capabilities": ["presence"], "controlTimeoutMs": 7000,
                    "profile": {"listChangeStatus": "none"}}
            print(json.dumps({"id": i, "type": "result", "data": data}), flush=True)
        elif t == "close":
            print(json.dumps({"id": i, "type": "result"}), flush=True); break
        else:
            print(json.dumps({"id": i, "type": "unsupported", "detail": t}), flush=True)
    """#

    @Test func preparedClientCarriesTheDriversHello() async throws {
        let client = ExternalProcessClient(command: try ExternalProcessClientTests.script(Self.helloDriver), name: "probe")
        let prepared = try #require(await client.prepared() as? ExternalProcessClient)
        #expect(prepared.capabilities == [.presence])
        #expect(prepared.capabilityOrigin == .listed)
        #expect(prepared.profile.value(.listChangeStatus) == "none")
        #expect(prepared.controlTimeout == .seconds(7))
        #expect(prepared.hello?.description == "probe")
    }

    @Test func driverWithoutHelloGetsTheFirstProtocol() async throws {
        let client = ExternalProcessClient(command: try ExternalProcessClientTests.script(ExternalProcessClientTests.echoDriver), name: "echo")
        let prepared = try #require(await client.prepared() as? ExternalProcessClient)
        #expect(prepared.capabilities == DriverProtocolVersion.capabilities(of: 1))
        #expect(prepared.capabilityOrigin == .firstProtocolAssumed(answeredHello: false))
        #expect(prepared.profile == .reference)
        #expect(prepared.hello == nil)
    }

    @Test func driverDeclaringOnlyItsProtocolGetsThatVersionsCapabilities() async throws {
        let driver = Self.helloDriver.replacingOccurrences(of: #""capabilities": ["presence"], "#, with: #""protocol": 3, "#)
        let prepared = try #require(await ExternalProcessClient(command: try ExternalProcessClientTests.script(driver), name: "v3")
            .prepared() as? ExternalProcessClient)
        #expect(prepared.hello?.protocolVersion == 3)
        #expect(prepared.capabilities == DriverProtocolVersion.capabilities(of: 3))
        #expect(prepared.capabilityOrigin == .protocolVersion(3))
    }

    @Test func capabilitiesGivenToTheRunnerStandForADriverWithoutHello() async throws {
        let client = ExternalProcessClient(command: try ExternalProcessClientTests.script(ExternalProcessClientTests.echoDriver), name: "echo",
                                           capabilities: [.presence, .filters])
        let prepared = try #require(await client.prepared() as? ExternalProcessClient)
        #expect(prepared.capabilities == [.presence, .filters])
        #expect(prepared.capabilityOrigin == .client)
    }
}
