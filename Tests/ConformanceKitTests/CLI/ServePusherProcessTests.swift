// SPDX-License-Identifier: MIT
import Foundation
import HarnessTesting
import HarnessWebSocket
import Testing

/// `serve --pusher-app`: Pusher on the same listeners as PubNub, announced with its credentials.
@Suite(.enabled(if: HarnessProcess.exists, "needs .build/debug/pubnub-harness"), .timeLimit(.minutes(3)))
struct ServePusherProcessTests {
    /// Opens `/app/KEY?protocol=7` (TLS with `caPEM`) and returns the first text message, off the pool.
    static func firstMessage(port: Int, key: String, caPEM: String? = nil) async -> String? {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                let text: String? = try? {
                    let client = try WebSocketTestClient(port: port, trustedCAPEM: caPEM)
                    let (_, head) = try client.handshake(target: "/app/\(key)?protocol=7")
                    guard head.status == 101, case .success(let frame) = client.readFrame(), frame.opcode == .text else { return nil }
                    return String(decoding: frame.payload, as: UTF8.self)
                }()
                continuation.resume(returning: text)
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
    }
}
