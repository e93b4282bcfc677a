// SPDX-License-Identifier: MIT
import Foundation
import HarnessJSON
import HarnessTesting
import HarnessWebSocket
import Testing

/// `serve --pusher-app`: Pusher on the same listeners as PubNub, announced with its credentials.
@Suite(.enabled(if: HarnessProcess.exists, "needs the built pubnub-harness binary (HarnessProcess.binary)"), .timeLimit(.minutes(TestTime.limitMinutes(10))))
struct ServePusherProcessTests {
    /// Opens `/app/KEY?protocol=7` (TLS with `caPEM`) and returns the first text message, off the pool.
    static func firstMessage(port: Int, key: String, caPEM: String? = nil) async -> String? {
        guard let frame = await firstFrame(port: port, key: key, caPEM: caPEM), frame.opcode == .text else { return nil }
        return String(decoding: frame.payload, as: UTF8.self)
    }

    /// The first frame on `/app/KEY?protocol=7`, off the pool.
    static func firstFrame(port: Int, key: String, caPEM: String? = nil) async -> WebSocketFrame? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let frame: WebSocketFrame? = try? {
                    let client = try WebSocketTestClient(port: port, trustedCAPEM: caPEM)
                    let (_, head) = try client.handshake(target: "/app/\(key)?protocol=7")
                    guard head.status == 101, case .success(let frame) = client.readFrame() else { return nil }
                    return frame
                }()
                continuation.resume(returning: frame)
            }
        }
    }

    @Test func servesTheGivenAppsOnWsAndWss() async throws {
        let caFile = FileManager.default.temporaryDirectory.appendingPathComponent("pusher-ca-\(UUID().uuidString).pem").path
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        let server = try HarnessProcess.Server([
            "--port", "0", "--tls-port", "0", "--tls-ca-out", caFile, "--quiet",
            "--pusher-app", "7:cli-key:cli-secret", "--pusher-app", "8:other-key:other-secret",
        ])
        guard let line = await server.line(after: "pusher app id 7 key cli-key secret cli-secret: ws://127.0.0.1:"),
              let other = await server.line(after: "pusher app id 8 key other-key secret other-secret: ws://127.0.0.1:"),
              let port = Int(line.prefix { $0.isNumber }) else {
            Issue.record("no pusher line in: \(server.text)")
            _ = await server.stop()
            return
        }
        let parts = line.split(separator: " ")
        #expect(parts.count == 2)
        #expect(parts.first == "\(port)/app/cli-key")
        guard parts.count == 2, parts[1].hasPrefix("wss://127.0.0.1:"), let tlsPort = Int(parts[1].dropFirst(16).prefix { $0.isNumber }) else {
            Issue.record("no wss URL in: \(line)")
            _ = await server.stop()
            return
        }
        #expect(parts[1] == "wss://127.0.0.1:\(tlsPort)/app/cli-key")
        #expect(other == "\(port)/app/other-key wss://127.0.0.1:\(tlsPort)/app/other-key")
        let plain = await Self.firstMessage(port: port, key: "cli-key")
        #expect(plain?.hasPrefix(#"{"event":"pusher:connection_established","data":"{\"socket_id\":\""#) == true)
        #expect(plain?.hasSuffix(#"\",\"activity_timeout\":120}"}"#) == true)
        let pem = try String(contentsOfFile: caFile, encoding: .utf8)
        let secure = await Self.firstMessage(port: tlsPort, key: "other-key", caPEM: pem)
        #expect(secure?.hasPrefix(#"{"event":"pusher:connection_established""#) == true)
        #expect(await server.stop() == 0)
    }

    @Test func servesTheDemoAppWithoutPusherArguments() async throws {
        let server = try HarnessProcess.Server(["--port", "0", "--quiet"])
        let line = await server.line(after: "pusher app id 3 key 278d425bdf160c739803 secret 7ad3773142a6692b25b8: ws://127.0.0.1:")
        #expect(line?.hasSuffix("/app/278d425bdf160c739803") == true, "got \(server.text)")
        #expect(await server.stop() == 0)
    }

    @Test func badPusherAppsAreOneLineUsageErrors() async throws {
        CLIProcessTests.expectOneLineUsageError(
            try await HarnessProcess.run(["serve", "--pusher-app", "x:k:s"]),
            "invalid --pusher-app 'x:k:s': the app id must be digits (see --help)")
        CLIProcessTests.expectOneLineUsageError(
            try await HarnessProcess.run(["serve", "--pusher-app", "1:k:s", "--pusher-app", "2:k:t"]),
            "invalid --pusher-app '2:k:t': key k is given twice (see --help)")
        CLIProcessTests.expectOneLineUsageError(
            try await HarnessProcess.run(["serve", "--pusher-app", "1:k:s,encryption-master-key=AQID"]),
            "invalid --pusher-app '1:k:s,encryption-master-key=AQID': encryption-master-key: expected base64 of 32 bytes, got 3 bytes (see --help)")
    }

    @Test func pusherPlanFilesAreInstalledAtStart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pusher-plan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let planFile = directory.appendingPathComponent("storm.json").path
        try Data(#"{"appKey":"cli-key","rules":[{"times":1,"fault":{"kind":"close","code":4200,"reason":"again"}}]}"#.utf8)
            .write(to: URL(fileURLWithPath: planFile))
        let server = try HarnessProcess.Server(["--port", "0", "--quiet", "--pusher-app", "7:cli-key:s", "--pusher-plan", planFile])
        #expect(await server.waitFor("pusher plan \(planFile): app key cli-key, 1 rule"))
        guard let line = await server.line(after: "pusher app id 7 key cli-key secret s: ws://127.0.0.1:"), let port = Int(line.prefix { $0.isNumber }) else {
            Issue.record("no pusher line in: \(server.text)")
            _ = await server.stop()
            return
        }
        let closed = await Self.firstFrame(port: port, key: "cli-key")
        #expect(closed == WebSocketFrame(opcode: .close, payload: [0x10, 0x68] + Array("again".utf8)))
        let served = await Self.firstMessage(port: port, key: "cli-key")
        #expect(served?.hasPrefix(#"{"event":"pusher:connection_established""#) == true)
        #expect(await server.stop() == 0)

        let badFile = directory.appendingPathComponent("bad.json").path
        try Data(#"{"rules":[]}"#.utf8).write(to: URL(fileURLWithPath: badFile))
        CLIProcessTests.expectOneLineUsageError(
            try await HarnessProcess.run(["serve", "--port", "0", "--pusher-plan", badFile]),
            "--pusher-plan \(badFile): appKey: required in a plan file")
        CLIProcessTests.expectOneLineUsageError(
            try await HarnessProcess.run(["serve", "--port", "0", "--pusher-plan", "/missing-pusher.json"]),
            "cannot read Pusher plan /missing-pusher.json: No such file or directory")
    }

    /// `run --family pusher --server … --tls-server …` against `serve --pusher-app` in another
    /// process scores what the in-process run scores, case by case: per-case apps, peers, closes,
    /// the auth endpoint and signed triggers over `/__admin/pusher/` and `/apps/`, wss on its TLS
    /// listener; a second run against the same server (apps already there) passes again.
    /// Under a sanitizer every run gets its time scale, which stretches the admin client's timeout too.
    @Test func runFamilyPusherAgainstAServeProcessMatchesTheInProcessRun() async throws {
        let server = try HarnessProcess.Server(["--port", "0", "--tls-port", "0", "--quiet", "--pusher-app", "1234:ci-key:ci-secret"])
        guard let portText = await server.line(after: "listening on http://127.0.0.1:"), let port = Int(portText),
              let tlsText = await server.line(after: "listening on https://127.0.0.1:"), let tlsPort = Int(tlsText.prefix { $0.isNumber }) else {
            Issue.record("no addresses in: \(server.text)")
            _ = await server.stop()
            return
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("pusher-parity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let selection = ["--family", "pusher", "--seed", "3", "--concurrency", "4", "--suite", "pusher.presence", "--suite", "pusher.http-api",
                         "--case", "pusher.connection.wss", "--case", "pusher.auth.private", "--case", "pusher.close-codes.4100-backoff",
                         "--case", "pusher.faults.close-storm-4200"] + TestTime.runScaleArguments
        let remoteArguments = ["run", "--server", "127.0.0.1:\(port)", "--tls-server", "127.0.0.1:\(tlsPort)"] + TestTime.runScaleArguments
        let (remote, again, local) = try await PusherRunGate.exclusive {
            let remote = try await HarnessProcess.run(remoteArguments + ["--json", "remote.json"] + selection, in: work, limit: 120)
            // The same apps again on the same server: registering is idempotent, the journal starts clean.
            let again = try await HarnessProcess.run(remoteArguments + ["--json", "again.json", "--family", "pusher", "--seed", "3",
                                                                        "--case", "pusher.connection.wss", "--case", "pusher.auth.private"],
                                                     in: work, limit: 120)
            let local = try await HarnessProcess.run(["run", "--json", "local.json"] + selection, in: work, limit: 120)
            return (remote, again, local)
        }
        #expect(await server.stop() == 0)
        func outcomes(_ file: String) throws -> [String: String] {
            let cases = try JSONValue.parse(Data(contentsOf: work.appendingPathComponent(file)))["cases"]?.arrayValue ?? []
            return Dictionary(uniqueKeysWithValues: cases.compactMap { item in
                // A pass after a serial retry (machine load) is a pass here.
                item["id"]?.stringValue.map { ($0, item["outcome"]?.stringValue == "flaky" ? "pass" : item["outcome"]?.stringValue ?? "") }
            })
        }
        let remoteOutcomes = try outcomes("remote.json")
        #expect(remoteOutcomes.count == 10)
        #expect(remoteOutcomes.values.allSatisfy { $0 == "pass" }, "\(remote.stdout.suffix(2000))")
        #expect(remote.stdout.contains("family: pusher; server: 127.0.0.1:\(port) (--server)"))
        #expect(try outcomes("again.json") == ["pusher.connection.wss": "pass", "pusher.auth.private": "pass"], "\(again.stdout.suffix(2000))")
        #expect(try outcomes("local.json") == remoteOutcomes, "\(local.stdout.suffix(2000))")
        #expect(remote.status == 0 && again.status == 0 && local.status == 0)
    }
}
