// SPDX-License-Identifier: MIT
import PubNubCrypto
import Testing
@testable import ClientUnderTest

/// Behaviours the conformance suites pinned down: non-JSON plaintext, short presence timeouts,
/// handshake timeouts.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ConformanceBehaviourTests {
    typealias F = SubscribeFixtures

    @Test func decryptedTextThatIsNotJSONIsDeliveredAsAString() async throws {
        // The `yay!` known answer (crypto spec §0): the plaintext is not JSON text.
        let server = try ScriptedServer { r in
            if F.isLeave(r) { return F.leaveOK }
            switch r.query["tt"] {
            case "0": return F.body(100)
            case "100": return F.body(200, [F.message("ch", 150, #""q/xJqqN6qbiZMXYmiQC1Fw==""#)])
            default: return .stall
            }
        }
        defer { server.stop() }
        let cipher = try PubNubCryptoCipher(cipherKey: "enigma", scheme: .legacy)
        let client = try makeClient(origin: server.origin) { $0.cipher = cipher }
        let recorder = Recorder()
        client.addListener(recorder)
        try await client.subscribe(channels: ["ch"])
        let events = try #require(await recorder.events.wait { $0.compactMap(\.messageEvent).count == 1 })
        let message = try #require(events.compactMap(\.messageEvent).first)
        #expect(message.message == .string("yay!"))
        #expect(message.decryptionFailed == false)
        #expect(recorder.statuses.map(\.category) == [.connected])
        await client.unsubscribeAll()
    }

    @Test func shortPresenceTimeoutsOnlyWhenAllowed() throws {
        var config = PubNubConfiguration(publishKey: "p", subscribeKey: "s", uuid: "u")
        config.presenceHeartbeatValue = 3
        #expect(throws: ConfigurationError(field: "presenceHeartbeatValue", reason: "must be 20…300 seconds")) { try config.validate() }
        config.allowsShortPresenceTimeout = true
        try config.validate()
        config.presenceHeartbeatValue = 0
        #expect(throws: ConfigurationError(field: "presenceHeartbeatValue", reason: "must be 1…300 seconds")) { try config.validate() }
    }

    @Test func shortPresenceTimeoutIsSentOnSubscribe() async throws {
        let server = try ScriptedServer { r in
            if F.isLeave(r) { return F.leaveOK }
            return r.query["tt"] == "0" ? F.body(100) : .stall
        }
        defer { server.stop() }
        let client = try makeClient(origin: server.origin) {
            $0.allowsShortPresenceTimeout = true
            $0.presenceHeartbeatValue = 4
            $0.presenceHeartbeatInterval = 0
        }
        let recorder = Recorder()
        client.addListener(recorder)
        try await client.subscribe(channels: ["ch"])
        _ = try #require(await recorder.waitStatuses(1))
        #expect(server.journal.items.first?.query["heartbeat"] == "4")
        await client.unsubscribeAll()
    }

    @Test func handshakeTimeoutIsAnUnexpectedDisconnectThenReconnects() async throws {
        let handshakes = Counter()
        let server = try ScriptedServer { r in
            if F.isLeave(r) { return F.leaveOK }
            if F.isTime(r) { return .http(200, "[17000000000000000]") }
            if r.query["tt"] == "0" { return handshakes.next() == 1 ? .stall : F.body(100) }
            return .stall
        }
        defer { server.stop() }
        let client = try makeClient(origin: server.origin) {
            $0.subscribeMaximumIdleTime = TestTime.budget(0.5)
            $0.reconnectionPingInterval = 0.05
        }
        let recorder = Recorder()
        client.addListener(recorder)
        try await client.subscribe(channels: ["ch"])
        let statuses = try #require(await recorder.waitStatuses(2))
        #expect(statuses.map(\.category) == [.unexpectedDisconnect, .reconnected])
        #expect(statuses[0].willAutomaticallyRetry)
        #expect(server.journal.items.contains(where: F.isTime))
        await client.unsubscribeAll()
    }
}
