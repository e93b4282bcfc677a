// SPDX-License-Identifier: MIT
import Foundation
import HarnessJSON
import Testing
@testable import ConformanceKit

/// One driver process serving many cases (docs/driver-protocol.md, "Reuse"): the runner's pool
/// with scripted drivers, and the official Python SDK's driver against the in-process server.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct DriverReuseTests {
    /// Declares reuse, reports its pid with every publish, and writes a stray event right after
    /// answering each `close` (a line of the closed case that the next case must never see).
    static let leakyDriver = #"""
    import json, os, sys
    def out(o):
        sys.stdout.write(json.dumps(o) + "\n"); sys.stdout.flush()
    key = None
    for line in sys.stdin:
        step = json.loads(line)
        i, t = step["id"], step["type"]
        if t == "hello":
            out({"id": i, "type": "result", "data": {"client": "leaky", "reuse": True}})
        elif t == "configure":
            key = step["subscribeKey"]
            out({"id": i, "type": "result"})
        elif t == "publish":
            out({"type": "message", "channel": step["channel"], "message": step["message"], "publisher": key})
            out({"id": i, "type": "result", "category": "PNAcknowledgmentCategory", "error": False, "statusCode": 200,
                 "data": {"timetoken": "17000000000000000", "pid": os.getpid()}})
        elif t == "close":
            out({"id": i, "type": "result", "data": {"reusable": bool(step.get("reuse"))}})
            out({"type": "message", "channel": "late", "message": "after close of " + str(key)})
            if not step.get("reuse"):
                break
        else:
            out({"id": i, "type": "unsupported", "detail": t})
    """#

    /// Declares reuse and crashes on the second `configure` a process receives.
    static let crashingDriver = #"""
    import json, os, sys
    def out(o):
        sys.stdout.write(json.dumps(o) + "\n"); sys.stdout.flush()
    configured = 0
    for line in sys.stdin:
        step = json.loads(line)
        i, t = step["id"], step["type"]
        if t == "hello":
            out({"id": i, "type": "result", "data": {"client": "crashing", "reuse": True}})
        elif t == "configure":
            configured += 1
            if configured == 2:
                sys.stderr.write("crashed on a second configure\n"); sys.exit(3)
            out({"id": i, "type": "result"})
        elif t == "publish":
            out({"id": i, "type": "result", "category": "PNAcknowledgmentCategory", "error": False, "statusCode": 200,
                 "data": {"timetoken": "17000000000000000", "pid": os.getpid()}})
        elif t == "close":
            out({"id": i, "type": "result", "data": {"reusable": bool(step.get("reuse"))}})
            if not step.get("reuse"):
                break
        else:
            out({"id": i, "type": "unsupported", "detail": t})
    """#

    static func configuration(_ key: String, origin: String = "127.0.0.1:1") -> ClientSessionConfiguration {
        ClientSessionConfiguration(origin: origin, caPEM: nil, subscribeKey: "sub-\(key)", publishKey: "pub-\(key)", uuid: "user-\(key)",
                                   secretKey: "sec-\(key)", overrides: ClientOverrides())
    }

    static func prepared(_ driver: String, reuse: Bool = true) async throws -> ExternalProcessClient {
        let client = ExternalProcessClient(command: try ExternalProcessClientTests.script(driver), name: "reuse",
                                           controlTimeout: TestTime.duration(5), startTimeout: TestTime.duration(30),
                                           driverReuse: reuse, warmDrivers: 2)
        return try #require(await client.prepared() as? ExternalProcessClient)
    }

    /// The events of `session` up to the first that `stop` accepts (at most `seconds`, scaled).
    static func events(of session: any ClientSession, within seconds: Double,
                       until stop: @escaping @Sendable (ClientEvent) -> Bool) async -> [ClientEvent] {
        await collect(session.events, within: seconds, until: stop)
    }

    static func message(_ event: ClientEvent) -> MessageEvent? {
        if case .message(let message) = event { return message }
        return nil
    }

    @Test(.timeLimit(.minutes(TestTime.limitMinutes(5))))
    func oneProcessServesConsecutiveCasesAndTheirLateLinesAreDropped() async throws {
        let client = try await Self.prepared(Self.leakyDriver)
        defer { client.endWarmDrivers() }
        var pids: Set<Int> = []
        for round in 1...3 {
            let session = try await client.makeSession(configuration: Self.configuration("k\(round)"))
            let result = try await session.perform(.publish(channel: "c", message: .int(round), meta: nil, storeInHistory: nil))
            pids.insert(try #require(result.data?["pid"]?.intValue))
            let seen = await Self.events(of: session, within: 5) { Self.message($0)?.message == .int(round) }
            #expect(seen.compactMap(Self.message).map(\.channel) == ["c"], "round \(round): \(seen)")
            #expect(Self.message(try #require(seen.last))?.publisher == "sub-k\(round)")
            await session.close()
            await session.close()  // a second close must not reach the process's next case
        }
        #expect(pids.count == 1)
        let counts = client.driverCounts
        #expect(counts.started == 1 && counts.reused == 3 && counts.discarded == 0, "\(counts)")
    }

    @Test(.timeLimit(.minutes(TestTime.limitMinutes(5))))
    func withoutReuseEveryCaseHasItsOwnProcess() async throws {
        let client = try await Self.prepared(Self.leakyDriver, reuse: false)
        var pids: Set<Int> = []
        for round in 1...2 {
            let session = try await client.makeSession(configuration: Self.configuration("n\(round)"))
            let result = try await session.perform(.publish(channel: "c", message: .int(round), meta: nil, storeInHistory: nil))
            pids.insert(try #require(result.data?["pid"]?.intValue))
            await session.close()
        }
        #expect(pids.count == 2)
        let counts = client.driverCounts
        #expect(counts.started == 2 && counts.reused == 0, "\(counts)")
    }

    @Test(.timeLimit(.minutes(TestTime.limitMinutes(5))))
    func aWarmProcessThatCrashesIsReplacedWithoutFailingTheCase() async throws {
        let client = try await Self.prepared(Self.crashingDriver)
        defer { client.endWarmDrivers() }
        // The probe's process serves the first case; its second configure kills it.
        let first = try await client.makeSession(configuration: Self.configuration("c1"))
        let firstPID = try #require(try await first.perform(.publish(channel: "c", message: 1, meta: nil, storeInHistory: nil)).data?["pid"]?.intValue)
        await first.close()
        let second = try await client.makeSession(configuration: Self.configuration("c2"))
        let secondPID = try #require(try await second.perform(.publish(channel: "c", message: 2, meta: nil, storeInHistory: nil)).data?["pid"]?.intValue)
        await second.close()
        #expect(firstPID != secondPID)
        let counts = client.driverCounts
        #expect(counts.started == 2 && counts.reused == 1 && counts.discarded == 1, "\(counts)")
    }

    @Test func helloDeclaresReuse() {
        #expect(DriverHello(data: ["client": "x", "reuse": true]).reuse)
        #expect(!DriverHello(data: ["client": "x"]).reuse)
        #expect(!DriverHello(data: nil).reuse)
    }
}

/// The official Python SDK's driver (Drivers/python, both flavours) serving two cases in one
/// process: the second case sees nothing of the first's subscription or messages, and the
/// server hears nothing more from the first case's client after its `close`.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct PythonDriverReuseTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The interpreter (see ``PythonInterpreters``), nil when none can import `pubnub`.
    static func python() async -> String? {
        await PythonInterpreters.first(of: PythonInterpreters.candidates(environment: ["PUSHER_HTTP_PYTHON"], systemPython: false),
                                       importing: "pubnub")
    }

    @Test(.enabled("the pubnub package (PyPI) is not installed: set PUBNUB_SDK_VENV or run .ci/run, which installs it") { await python() != nil },
          .timeLimit(.minutes(TestTime.limitMinutes(5))), arguments: ["sync", "asyncio"])
    func aReusedSDKDriverShowsTheNextCaseNothingOfThePrevious(flavour: String) async throws {
        let python = try #require(await Self.python())
        let (server, stop) = try await IntegrationHarness.startServer()
        let driver = Self.root.appendingPathComponent("Drivers/python/pubnub_driver.py").path
        let client = try #require(await ExternalProcessClient(
            command: "\(python) \(driver) --flavour \(flavour)", name: "python-sdk", controlTimeout: TestTime.duration(15),
            startTimeout: TestTime.duration(60), warmDrivers: 1).prepared() as? ExternalProcessClient)
        defer { client.endWarmDrivers() }
        // Both cases on one keyset and channel: whatever the first leaves subscribed would hear the second's publish.
        var configuration = DriverReuseTests.configuration("reuse", origin: server.address)
        configuration.uuid = "first-case"

        let first = try await client.makeSession(configuration: configuration)
        _ = try await first.perform(.subscribe(channels: ["room"], groups: [], withPresence: false, timetoken: nil))
        let connected = await DriverReuseTests.events(of: first, within: 10, until: Self.isConnected)
        #expect(connected.contains(where: Self.isConnected), "\(connected)")
        _ = try await first.perform(.publish(channel: "room", message: "for the first case", meta: nil, storeInHistory: nil))
        let heard = await DriverReuseTests.events(of: first, within: 10) { DriverReuseTests.message($0)?.message == "for the first case" }
        #expect(heard.contains { DriverReuseTests.message($0) != nil })
        await first.close()

        configuration.uuid = "second-case"
        let second = try await client.makeSession(configuration: configuration)
        // The second case publishes on the first case's channel, then subscribes elsewhere and
        // waits for its own message there: by then a subscription left over would have delivered.
        _ = try await second.perform(.publish(channel: "room", message: "for nobody", meta: nil, storeInHistory: nil))
        _ = try await second.perform(.subscribe(channels: ["hall"], groups: [], withPresence: false, timetoken: nil))
        _ = await DriverReuseTests.events(of: second, within: 10, until: Self.isConnected)
        _ = try await second.perform(.publish(channel: "hall", message: "for the second case", meta: nil, storeInHistory: nil))
        let seen = await DriverReuseTests.events(of: second, within: 10) { DriverReuseTests.message($0)?.message == "for the second case" }
        await second.close()

        #expect(seen.compactMap(DriverReuseTests.message).map(\.channel) == ["hall"], "\(seen)")
        let counts = client.driverCounts
        #expect(counts.started == 1 && counts.reused == 2 && counts.discarded == 0, "\(counts) \(client.pool.lastDiscard ?? "")")
        let journal = try await server.journal(subscribeKey: configuration.subscribeKey)
        // Counted from the second case's first request, not from the moment `close` returned: a
        // request the first case's SDK sent just before its sockets were shut down can still be
        // waiting in the server's socket buffer then (seen once under AddressSanitizer), and is
        // journaled when the server reads it; one journaled after the next case began is a leak.
        let secondStart = journal.firstIndex { $0.query["uuid"] == "second-case" } ?? journal.count
        let lateFromFirst = journal[secondStart...].filter { $0.query["uuid"] == "first-case" }.map(\.line)
        #expect(lateFromFirst == [], "requests of the first case after its close: \(lateFromFirst)")
        #expect(journal.contains { $0.query["uuid"] == "second-case" && $0.endpointName == "subscribe" })
        await stop()
    }

    static func isConnected(_ event: ClientEvent) -> Bool {
        if case .status(let status) = event { return status.category == .connected }
        return false
    }
}
