// SPDX-License-Identifier: MIT
import BuiltInAdapter
import Foundation
import HarnessJSON
import MockPusher
import PusherServer
import Testing
@testable import ConformanceKit

/// The Pusher family's two ways to reach the server (the service's Swift API in process, its
/// `/__admin/pusher/` routes over HTTP), its signed triggers, its journal and the family type.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct PusherServerModesTests {
    /// Cases that drive every server operation: peers, triggers (also with socket_id), closes,
    /// raw sends, auth, fault plans, TLS and the activity timer.
    static let selection = [
        "pusher.presence.member-added-removed", "pusher.presence.seen-by-others", "pusher.client-events.presence-user-id",
        "pusher.http-api.socket-id-excluded", "pusher.close-codes.4100-backoff", "pusher.close-codes.error-event-4200",
        "pusher.auth.reauthorize-after-reconnect", "pusher.auth.endpoint-refuses", "pusher.connection.wss",
        "pusher.faults.close-after-subscribe-4100", "pusher.activity.pusher-ping-answered",
    ]

    @Test func overTheAdminRoutesTheCasesScoreAsInProcess() async throws {
        let server = try InProcessPusherServer.start()
        let remote = try AdminHTTPPusherServer(address: "127.0.0.1:\(server.port)", tlsAddress: server.tlsPort.map { "127.0.0.1:\($0)" })
        let cases = try PusherCatalog.select(PusherCatalog.all(), groups: [], ids: Self.selection)
        await ProgressTime.settle()  // the runner's budgets are wall-clock ones
        let scale = TimeScale.fromProbe(await MachineProbe.measured())
        let options = RunOptions(seed: 5, concurrency: 4, timeScale: scale.factor)
        let report = try await PusherRunGate.exclusive { await PusherRunner(client: BuiltInPusherClient(), options: options).run(cases, on: remote) }
        let triggers = server.service.apiJournal.all.filter { $0.method == "POST" && $0.path.hasSuffix("/events") }
        await server.shutdown()
        let outcomes = Dictionary(uniqueKeysWithValues: report.results.map { ($0.id, $0.outcome) })
        #expect(outcomes.count == Self.selection.count)
        // As in process (PusherEndToEndTests): the reference client passes all but the variant-only
        // case of pysher's profile, which it skips.
        #expect(outcomes.filter { ![.pass, .flaky].contains($0.value) } == ["pusher.close-codes.error-event-4200": .skipped],
                "\(report.results.filter { $0.outcome != .pass }.map { "\($0.id): \($0.detail) \($0.wireLog)" })")
        // Server-side triggers went through the signed HTTP API and were accepted.
        #expect(triggers.count == 4)  // socket-id-excluded, wss, close-after-subscribe-4100, pusher-ping-answered
        #expect(triggers.allSatisfy { $0.status == 200 })
    }

    @Test func aTriggerSignedWithAnotherSecretIsRefused() async throws {
        let app = PusherApp(id: "77", key: "modes-key", secret: "modes-secret")
        let server = try InProcessPusherServer.start(apps: [app], tls: false)
        let remote = try AdminHTTPPusherServer(address: "127.0.0.1:\(server.port)")
        try await remote.trigger(app: app, channels: ["a"], event: "e", data: "{}", excludeSocketID: nil)
        var forged = app
        forged.secret = "not-the-secret"
        await #expect(throws: HarnessServerError.self) {
            try await remote.trigger(app: forged, channels: ["a"], event: "e", data: "{}", excludeSocketID: nil)
        }
        #expect(server.service.apiJournal.all.map(\.status) == [200, 401])
        #expect(try await server.caPEM() == nil)
        await server.shutdown()
    }

    @Test func theJournalGroupsConnectionsOnOneClock() {
        let origin = ContinuousClock.now
        let records = [
            PusherJournalRecord(connection: 5, socketID: "1.1", atMs: 100, kind: .connect(tls: true)),
            PusherJournalRecord(connection: 9, socketID: nil, atMs: 150, kind: .text("stray")),
            PusherJournalRecord(connection: 5, socketID: "1.1", atMs: 120, kind: .text(#"{"event":"pusher:ping"}"#)),
            PusherJournalRecord(connection: 5, socketID: "1.1", atMs: 130, kind: .webSocketPong),
            PusherJournalRecord(connection: 5, socketID: "1.1", atMs: 400, kind: .closed(code: 4100)),
            PusherJournalRecord(connection: 6, socketID: "2.2", atMs: 1_500, kind: .connect(tls: false)),
        ]
        let journal = PusherAppJournal(records: records, authorizations: [PusherJournalAuthorization(socketID: "2.2", channel: "private-a")],
                                       refused: 1, origin: origin)
        #expect(journal.connections.map(\.number) == [5, 6])
        #expect(journal.connections[0].openedAt == origin + .milliseconds(100))
        #expect(journal.connections[0].closedAt == origin + .milliseconds(400))
        #expect(journal.connections[0].closeCode == 4100)
        #expect(journal.connections[0].texts == [#"{"event":"pusher:ping"}"#])
        #expect(journal.connections[0].webSocketPongs == 1)
        #expect(journal.connections[1].closedAt == nil)
        #expect(journal.lines == ["connection 1 (tls) socket_id 1.1 closed 4100", #"  → {"event":"pusher:ping"}"#,
                                  "connection 2 socket_id 2.2", "auth private-a socket_id 2.2"])
        let json = JSONValue.object([("sequence", 1), ("atMs", 7), ("connection", 3), ("socketId", "4.5"), ("type", "closed"), ("code", 1006)])
        #expect(PusherJournalRecord(json: json) == PusherJournalRecord(connection: 3, socketID: "4.5", atMs: 7, kind: .closed(code: 1006)))
        #expect(PusherJournalRecord(json: ["type": "text"]) == nil)
        let serverClosed = JSONValue.object([("atMs", 900), ("connection", 3), ("type", "closed"), ("code", 4100), ("closingAtMs", 450)])
        #expect(PusherJournalRecord(json: serverClosed)?.kind == .closed(code: 4100, closingAtMs: 450))
    }

    /// A reconnect's backoff is measured from when the server sent its close frame, where it closed
    /// first: the end, journaled when the client answered, can come much later on a loaded machine.
    @Test func aServerCloseIsTimedFromItsCloseFrame() {
        let origin = ContinuousClock.now
        let records = [
            PusherJournalRecord(connection: 1, socketID: "1.1", atMs: 100, kind: .connect(tls: false)),
            PusherJournalRecord(connection: 1, socketID: "1.1", atMs: 900, kind: .closed(code: 4100, closingAtMs: 450)),
            PusherJournalRecord(connection: 2, socketID: "2.2", atMs: 1_000, kind: .connect(tls: false)),
            PusherJournalRecord(connection: 2, socketID: "2.2", atMs: 1_200, kind: .closed(code: 1000)),
        ]
        let journal = PusherAppJournal(records: records, authorizations: [], refused: 0, origin: origin)
        #expect(journal.connections[0].closingAt == origin + .milliseconds(450))
        #expect(journal.connections[0].closedAt == origin + .milliseconds(900))
        let first = PusherAppJournal(connections: Array(journal.connections.prefix(1)))
        let close = PusherStepRunner.lastServerClose(first)
        #expect(close?.at == origin + .milliseconds(450))
        #expect(close?.earlierConnections == 1)
        // A close the client started has no close frame of the server's: its end is the moment.
        #expect(PusherStepRunner.lastServerClose(journal)?.at == origin + .milliseconds(1_200))
    }

    @Test func theDriverIsToldAboutTLSAndPingSettingsOnlyWhenACaseUsesThem() {
        let plain = PusherSessionConfiguration(host: "h", port: 1, appKey: "k", appSecret: "s", authEndpoint: "http://h:1/a", userID: "u",
                                               settings: PusherClientSettings())
        #expect(plain.driverFields["tls"] == nil && plain.driverFields["caPEM"] == nil && plain.driverFields["pongTimeoutMs"] == nil)
        #expect(!plain.useTLS)
        let secure = PusherSessionConfiguration(host: "h", port: 2, appKey: "k", appSecret: "s", authEndpoint: "http://h:1/a", userID: "u",
                                                settings: PusherClientSettings(tls: true, activityTimeoutSeconds: 1, pongTimeoutSeconds: 0.5),
                                                caPEM: "PEM")
        #expect(secure.useTLS)
        #expect(secure.driverFields["tls"] == .bool(true))
        #expect(secure.driverFields["caPEM"] == "PEM")
        #expect(secure.driverFields["activityTimeoutMs"] == 1000)
        #expect(secure.driverFields["pongTimeoutMs"] == 500)
    }
}

/// ``ConformanceFamily``: both families behind the one interface `run` uses.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ConformanceFamilyTests {
    @Test func pusherFamilySelectsServesAndRuns() async throws {
        let family = PusherFamily(builtIn: { BuiltInPusherClient() })
        #expect(family.name == "pusher")
        #expect(family.knownIDs == Set(PusherCatalog.all().map(\.id)))
        #expect(try family.select(suites: ["pusher.channels"], ids: []).map(\.id) == PusherCatalog.all().filter { $0.group == "channels" }.map(\.id))
        #expect(throws: SelectionError.self) { try family.select(suites: ["nope"], ids: []) }
        let file = try ExpectationFile.decode(Data(#"{"client":"c","deviations":[{"case":"pusher.connection.established","outcome":"fail","reason":"r"},{"case":"pusher.x","outcome":"fail","reason":"r"}]}"#.utf8), source: "t")
        #expect(family.unknownIDs(in: file) == ["pusher.x"])
        #expect(family.name(of: family.builtInClient()) == "built-in-pusher")
        let served = try await family.makeServer(address: nil, tlsAddress: nil, timeScale: 1)
        #expect(served.description == "in process")
        #expect(family.banner(serverDescription: served.description) == "family: pusher; server: in process")
        let report = await family.run(try family.select(suites: [], ids: ["pusher.connection.established"]), on: served.server,
                                      client: family.builtInClient(), options: RunOptions(seed: 1, timeScale: await TestPacing.scale())) { _, _, _ in }
        await served.stop()
        #expect(report.results.map(\.outcome) == [.pass])
        let remote = try await family.makeServer(address: "127.0.0.1:9", tlsAddress: "127.0.0.1:10", timeScale: 1)
        #expect(remote.description == "127.0.0.1:9 (--server)")
        #expect(remote.server.port == 9 && remote.server.tlsPort == 10)
        #expect((remote.server as? AdminHTTPPusherServer)?.requestTimeout == AdminHTTPServer.defaultRequestTimeout)
        // A run's time scale stretches the admin client's timeout (a slow server is slow there too).
        let slow = try await family.makeServer(address: "127.0.0.1:9", tlsAddress: nil, timeScale: 3)
        #expect((slow.server as? AdminHTTPPusherServer)?.requestTimeout == 3 * AdminHTTPServer.defaultRequestTimeout)
    }

    @Test func pubNubFamilySelectsAndServes() async throws {
        let cases = ConformanceCatalog.all(cryptoVectors: nil)
        let family = PubNubFamily(cases: cases, vectorSource: "none", builtIn: { BuiltInClient() })
        #expect(family.name == "pubnub")
        #expect(family.knownIDs.count == cases.count)
        #expect(try family.select(suites: ["publish"], ids: []).allSatisfy { $0.suite == "publish" })
        #expect(throws: SelectionError.self) { try family.select(suites: ["pusher.channels"], ids: []) }
        #expect(family.name(of: family.builtInClient()) == "built-in")
        let served = try await family.makeServer(address: nil, tlsAddress: nil, timeScale: 1)
        #expect(family.banner(serverDescription: served.description) == "server: in process; crypto vectors: none")
        let report = await family.run(try family.select(suites: [], ids: [cases[0].id]), on: served.server,
                                      client: family.builtInClient(), options: RunOptions(seed: 1, timeScale: await TestPacing.scale())) { _, _, _ in }
        await served.stop()
        #expect(report.results.count == 1)
        #expect(try await family.makeServer(address: "127.0.0.1:9", tlsAddress: nil, timeScale: 1).description == "127.0.0.1:9 (--server)")
        let slow = try await family.makeServer(address: "127.0.0.1:9", tlsAddress: nil, timeScale: 2.5)
        #expect((slow.server as? AdminHTTPServer)?.requestTimeout == 2.5 * AdminHTTPServer.defaultRequestTimeout)
    }
}
