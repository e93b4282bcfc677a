// SPDX-License-Identifier: MIT
import Testing
@testable import ClientUnderTest

/// The subscribe loop against scripted loopback servers: handshake, long-poll, delivery, dedupe,
/// message-count threshold, and the reconnection sequence.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct SubscribeLoopTests {
    typealias F = SubscribeFixtures

    @Test func handshakeThenLongPollDeliversEventsInOrder() async throws {
        let server = try ScriptedServer { r in
            if F.isLeave(r) { return F.leaveOK }
            switch r.query["tt"] {
            case "0": return F.body(100, region: 7)
            case "100":
                return F.body(200, region: 7, [
                    F.message("ch", 150, #"{"text":"hi"}"#, extra: #","u":{"m":1}"#),
                    F.message("ch", 160, #""sig""#, extra: #","e":1"#),
                    #"{"a":"2","f":0,"p":{"t":"170","r":1},"k":"sub-k","c":"ch-pnpres","d":{"action":"state-change","uuid":"bob","timestamp":1591042024,"data":{"k":"v"},"occupancy":2},"b":"ch-pnpres"}"#,
                ])
            default: return .stall
            }
        }
        defer { server.stop() }
        let client = try makeClient(origin: server.origin) { $0.requestMessageCountThreshold = 3 }
        let recorder = Recorder()
        client.addListener(recorder)
        try await client.subscribe(channels: ["ch"], withPresence: true)
        let events = try #require(await recorder.events.wait(count: 5))
        guard case .status(let connected) = events[0], case .status(let exceeded) = events[1],
            case .message(let message) = events[2], case .signal(let signal) = events[3], case .presence(let presence) = events[4]
        else { Issue.record("unexpected order \(events)"); return }
        #expect(connected.category == .connected)
        #expect(connected.subscribedChannels == ["ch", "ch-pnpres"])
        #expect(exceeded.category == .requestMessageCountExceeded)
        #expect(message == PNMessageEvent(channel: "ch", subscription: nil, timetoken: 150, publisher: "pub",
                                          message: ["text": "hi"], userMetadata: ["m": 1], decryptionFailed: false))
        #expect(signal.message == "sig")
        #expect(presence == PNPresenceEvent(channel: "ch", subscription: nil, timetoken: 170, event: "state-change", uuid: "bob",
                                            occupancy: 2, timestamp: 1_591_042_024, state: ["k": "v"], join: [], leave: [], timeout: []))
        let subscribes = try #require(await server.journal.wait { $0.filter(F.isSubscribe).count >= 3 }).filter(F.isSubscribe)
        #expect(subscribes[0].target == "/v2/subscribe/sub-k/ch,ch-pnpres/0?tt=0&uuid=tester&pnsdk=PubNub-Swift-Linux%2F1.0.0")
        #expect(subscribes[1].target == "/v2/subscribe/sub-k/ch,ch-pnpres/0?tt=100&tr=7&uuid=tester&pnsdk=PubNub-Swift-Linux%2F1.0.0")
        #expect(subscribes[2].query["tt"] == "200")
        await client.unsubscribeAll()
    }

    /// Scripted reconnection: handshake → long-poll → 500 → `/time/0` pings (two resets, then OK) →
    /// handshake → long-poll with the catch-up timetoken, which repeats one message.
    final class ReconnectScript: Sendable {
        let handshakes = Counter()
        let pings = Counter()
        let failures = Counter()
        let handshakeTimetokens: [UInt64]
        let failure: ScriptedReply
        init(handshakeTimetokens: [UInt64] = [100, 900], failure: ScriptedReply = .http(500, "{}")) {
            self.handshakeTimetokens = handshakeTimetokens
            self.failure = failure
        }

        func reply(_ r: SeenRequest) -> ScriptedReply {
            if F.isLeave(r) { return F.leaveOK }
            if F.isTime(r) { return pings.next() < 3 ? .reset : .http(200, "[900]") }
            switch r.query["tt"] {
            case "0": return F.body(handshakeTimetokens[min(handshakes.next(), handshakeTimetokens.count) - 1])
            case "100": return F.body(200, [F.message("ch", 150, "1")])
            case "200" where failures.next() == 1: return failure
            case "200": return F.body(300, [F.message("ch", 150, "1"), F.message("ch", 250, "2")])
            case "900": return F.body(950, [F.message("ch", 920, "3")])
            default: return .stall
            }
        }
    }

    @Test func reconnectionPingsTimeThenCatchesUpWithoutDuplicates() async throws {
        let script = ReconnectScript()
        let server = try ScriptedServer { script.reply($0) }
        defer { server.stop() }
        let client = try makeClient(origin: server.origin) { $0.reconnectionPingInterval = 0.1 }
        let recorder = Recorder()
        client.addListener(recorder)
        try await client.subscribe(channels: ["ch"])
        let events = try #require(await recorder.events.wait { $0.compactMap(\.messageEvent).count >= 2 })
        let statuses = recorder.statuses
        #expect(statuses.map(\.category) == [.connected, .unexpectedDisconnect, .reconnected])
        #expect(statuses[1].willAutomaticallyRetry)
        #expect(statuses[1].statusCode == 500)
        #expect(statuses[1].isError == false)
        #expect(events.compactMap(\.messageEvent).map(\.message) == [1, 2])
        let journal = try #require(await server.journal.wait { $0.filter { $0.query["tt"] == "300" }.count == 1 })
        let sequence = journal.map { F.isTime($0) ? "time" : "tt=\($0.query["tt"] ?? "-")" }
        #expect(sequence == ["tt=0", "tt=100", "tt=200", "time", "time", "time", "tt=0", "tt=200", "tt=300"])
        let pingTimes = journal.filter(F.isTime).map(\.arrivalMs)
        #expect(pingTimes[1] - pingTimes[0] >= 90)
        #expect(pingTimes[2] - pingTimes[1] >= 90)
        await client.unsubscribeAll()
    }

    @Test(arguments: [
        ("reset", ScriptedReply.reset, 0),
        ("html", ScriptedReply.http(200, "<html></html>", contentType: "text/html"), 200),
        ("not json", ScriptedReply.http(200, "oops"), 200),
        ("wrong shape", ScriptedReply.http(200, #"{"t":"x"}"#), 200),
        ("400", ScriptedReply.http(400, "{}"), 400),
        ("closed", ScriptedReply.close, 0),
    ])
    func everyOtherFailureIsAnUnexpectedDisconnect(name: String, failure: ScriptedReply, code: Int) async throws {
        let script = ReconnectScript(failure: failure)
        let server = try ScriptedServer { script.reply($0) }
        defer { server.stop() }
        let client = try makeClient(origin: server.origin) { $0.reconnectionPingInterval = 0.02 }
        let recorder = Recorder()
        client.addListener(recorder)
        try await client.subscribe(channels: ["ch"])
        let statuses = try #require(await recorder.waitStatuses(3))
        #expect(statuses.map(\.category) == [.connected, .unexpectedDisconnect, .reconnected], "\(name)")
        #expect(statuses[1].statusCode == code, "\(name)")
        await client.unsubscribeAll()
    }

    @Test(arguments: [(403, PNStatusCategory.accessDenied), (414, .requestURITooLong), (481, .malformedFilterExpression)])
    func requestErrorsStopTheLoop(code: Int, category: PNStatusCategory) async throws {
        let server = try ScriptedServer { r in r.query["tt"] == "0" ? F.body(100) : .http(code, "{}") }
        defer { server.stop() }
        let client = try makeClient(origin: server.origin) { $0.reconnectionPingInterval = 0.02 }
        let recorder = Recorder()
        client.addListener(recorder)
        try await client.subscribe(channels: ["ch"])
        let statuses = try #require(await recorder.waitStatuses(2))
        #expect(statuses.map(\.category) == [.connected, category])
        #expect(statuses[1].statusCode == code)
        #expect(await client.subscriber.currentPhase() == .stopped)
        #expect(server.journal.items.count == 2)
    }

    @Test func aUserTimetokenWinsOverTheHandshake() async throws {
        let server = try ScriptedServer { r in
            if F.isLeave(r) { return F.leaveOK }
            return r.query["tt"] == "0" ? F.body(900, region: 4) : .stall
        }
        defer { server.stop() }
        let client = try makeClient(origin: server.origin)
        try await client.subscribe(channels: ["ch"], timetoken: 555)
        let journal = try #require(await server.journal.wait { $0.filter(F.isSubscribe).count >= 2 })
        #expect(journal.filter(F.isSubscribe).map { "\($0.query["tt"] ?? "-")/\($0.query["tr"] ?? "-")" }.prefix(2) == ["0/-", "555/4"])
        #expect(await client.currentTimetoken() == 555)
        await client.unsubscribeAll()
    }

    @Test func withoutCatchUpResumesFromNow() async throws {
        let script = ReconnectScript()
        let server = try ScriptedServer { script.reply($0) }
        defer { server.stop() }
        let client = try makeClient(origin: server.origin) {
            $0.reconnectionPingInterval = 0.05
            $0.catchUpOnSubscriptionRestore = false
        }
        let recorder = Recorder()
        client.addListener(recorder)
        try await client.subscribe(channels: ["ch"])
        let events = try #require(await recorder.events.wait { $0.compactMap(\.messageEvent).count >= 2 })
        #expect(events.compactMap(\.messageEvent).map(\.message) == [1, 3])
        #expect(recorder.statuses.map(\.category) == [.connected, .unexpectedDisconnect, .reconnected])
        let subscribes = server.journal.items.filter(F.isSubscribe).map { $0.query["tt"] ?? "-" }
        #expect(subscribes.prefix(5) == ["0", "100", "200", "0", "900"])
        await client.unsubscribeAll()
    }

    @Test func withoutRestoreTheChannelsAreForgotten() async throws {
        let script = ReconnectScript()
        let server = try ScriptedServer { script.reply($0) }
        defer { server.stop() }
        let client = try makeClient(origin: server.origin) { $0.restoreSubscription = false }
        let recorder = Recorder()
        client.addListener(recorder)
        try await client.subscribe(channels: ["ch"])
        let statuses = try #require(await recorder.waitStatuses(3))
        #expect(statuses.map(\.category) == [.connected, .unexpectedDisconnect, .disconnected])
        #expect(statuses[1].willAutomaticallyRetry == false)
        #expect(await client.subscribedChannels().channels == [])
        #expect(server.journal.items.filter(F.isTime).isEmpty)
    }

    @Test func accessDeniedStopsTheLoopAndReportsOnce() async throws {
        let body = #"{"message":"Forbidden","payload":{"channels":["secret"]},"error":true,"service":"Access Manager","status":403}"#
        let server = try ScriptedServer { r in F.isLeave(r) ? F.leaveOK : .http(403, body) }
        defer { server.stop() }
        let client = try makeClient(origin: server.origin) { $0.reconnectionPingInterval = 0.05 }
        let recorder = Recorder()
        client.addListener(recorder)
        try await client.subscribe(channels: ["secret"])
        let statuses = try #require(await recorder.waitStatuses(1))
        #expect(statuses.map(\.category) == [.accessDenied])
        #expect(statuses[0].errorData?.channels == ["secret"])
        #expect(statuses[0].operation == .subscribe)
        #expect(await client.subscriber.currentPhase() == .stopped)
        #expect(server.journal.items.count == 1)
    }

    @Test func longPollTimeoutRestartsSilently() async throws {
        let polls = Counter()
        let server = try ScriptedServer { r in
            if F.isLeave(r) { return F.leaveOK }
            switch r.query["tt"] {
            case "0": return F.body(100)
            case "100": return polls.next() == 1 ? .stall : F.body(200, [F.message("ch", 150, "1")])
            default: return .stall
            }
        }
        defer { server.stop() }
        let client = try makeClient(origin: server.origin) { $0.subscribeMaximumIdleTime = TestTime.budget(0.5) }
        let recorder = Recorder()
        client.addListener(recorder)
        try await client.subscribe(channels: ["ch"])
        let events = try #require(await recorder.events.wait { $0.compactMap(\.messageEvent).count == 1 })
        #expect(recorder.statuses.map(\.category) == [.connected])
        #expect(events.compactMap(\.messageEvent).map(\.timetoken) == [150])
        #expect(server.journal.items.filter(F.isSubscribe).map { $0.query["tt"] ?? "-" }.prefix(3) == ["0", "100", "100"])
        await client.unsubscribeAll()
    }

    @Test func listChangeKeepsTheTimetoken() async throws {
        let server = try ScriptedServer { r in
            if F.isLeave(r) { return F.leaveOK }
            switch (r.path, r.query["tt"]) {
            case (_, "0"): return F.body(r.path.contains("a,b") ? 900 : 100)
            case ("/v2/subscribe/sub-k/a/0", "100"): return F.body(200)
            default: return .stall
            }
        }
        defer { server.stop() }
        let client = try makeClient(origin: server.origin)
        try await client.subscribe(channels: ["a"])
        _ = try #require(await server.journal.wait { $0.contains { $0.query["tt"] == "200" } })
        try await client.subscribe(channels: ["b"])
        let journal = try #require(await server.journal.wait { $0.filter { $0.path.contains("a,b") }.count >= 2 })
        let ab = journal.filter { $0.path == "/v2/subscribe/sub-k/a,b/0" }.map { $0.query["tt"] ?? "-" }
        #expect(ab == ["0", "200"])
        await client.unsubscribeAll()
    }

    @Test func changingTheUUIDLeavesThenResubscribes() async throws {
        let server = try ScriptedServer { r in
            if F.isLeave(r) { return F.leaveOK }
            return r.query["tt"] == "0" ? F.body(100) : .stall
        }
        defer { server.stop() }
        let client = try makeClient(origin: server.origin)
        try await client.subscribe(channels: ["ch"], channelGroups: ["g"])
        _ = try #require(await server.journal.wait { $0.contains { $0.query["tt"] == "100" } })
        try await client.setUUID("new-id")
        let journal = try #require(await server.journal.wait { $0.contains { $0.query["uuid"] == "new-id" && $0.query["tt"] == "100" } })
        let tail = journal.dropFirst(2).map(\.target)
        #expect(tail == [
            "/v2/presence/sub-key/sub-k/channel/ch/leave?channel-group=g&uuid=tester&pnsdk=PubNub-Swift-Linux%2F1.0.0",
            "/v2/subscribe/sub-k/ch/0?tt=0&channel-group=g&uuid=new-id&pnsdk=PubNub-Swift-Linux%2F1.0.0",
            "/v2/subscribe/sub-k/ch/0?tt=100&tr=1&channel-group=g&uuid=new-id&pnsdk=PubNub-Swift-Linux%2F1.0.0",
        ])
        await client.unsubscribeAll()
    }

    @Test func unsubscribeSendsLeaveAndReportsDisconnected() async throws {
        let server = try ScriptedServer { r in
            if F.isLeave(r) { return F.leaveOK }
            return r.query["tt"] == "0" ? F.body(100) : .stall
        }
        defer { server.stop() }
        let client = try makeClient(origin: server.origin)
        let recorder = Recorder()
        client.addListener(recorder)
        try await client.subscribe(channels: ["ch"])
        _ = try #require(await recorder.waitStatuses(1))
        let leave = await client.unsubscribe(channels: ["ch"])
        #expect(leave.category == .acknowledgment)
        #expect(leave.operation == .unsubscribe)
        let statuses = try #require(await recorder.waitStatuses(2))
        #expect(statuses.map(\.category) == [.connected, .disconnected])
    }

    @Test func refusedNamesNeverReachTheServer() async throws {
        let server = try ScriptedServer { _ in .stall }
        defer { server.stop() }
        let client = try makeClient(origin: server.origin)
        for name in ["a,b", "a/b", ""] {
            await #expect(throws: PNStatus.self) { try await client.subscribe(channels: [name]) }
            await #expect(throws: PNStatus.self) { try await client.publish("x", channel: name) }
        }
        do throws(PNStatus) {
            try await client.subscribe(channels: ["a,b"])
        } catch {
            #expect(error.category == .badRequest)
        }
        #expect(server.journal.items.isEmpty)
    }

    @Test func heartbeatsRunOnTheirInterval() async throws {
        let server = try ScriptedServer { r in
            if F.isLeave(r) { return F.leaveOK }
            if F.isHeartbeat(r) { return F.heartbeatOK }
            if r.path.hasSuffix("/data") { return .http(200, #"{"status":200,"message":"OK","payload":{"k":"v"},"service":"Presence"}"#) }
            return r.query["tt"] == "0" ? F.body(100) : .stall
        }
        defer { server.stop() }
        let client = try makeClient(origin: server.origin) {
            $0.presenceHeartbeatValue = 60
            $0.presenceHeartbeatInterval = 0.05
        }
        #expect(try await client.setState(["k": "v"], channels: ["ch"]).channels == ["ch": ["k": "v"]])
        try await client.subscribe(channels: ["ch"])
        let journal = try #require(await server.journal.wait { $0.filter(F.isHeartbeat).count >= 2 })
        let beats = journal.filter(F.isHeartbeat)
        #expect(beats[0].target == "/v2/presence/sub-key/sub-k/channel/ch/heartbeat?heartbeat=60&state=%7B%22ch%22%3A%7B%22k%22%3A%22v%22%7D%7D&uuid=tester&pnsdk=PubNub-Swift-Linux%2F1.0.0")
        #expect(beats[1].arrivalMs - beats[0].arrivalMs >= 40)
        let handshake = try #require(journal.first { $0.query["tt"] == "0" })
        #expect(handshake.query["heartbeat"] == "60")
        await client.unsubscribeAll()
    }
}
