// SPDX-License-Identifier: MIT
import Foundation
import HarnessTesting
import HarnessWebSocket
import Testing

/// `serve --pusher-refuse-websocket` and `--pusher-http`: a blocking proxy's refusal and the HTTP
/// fallback sessions' settings, in another process.
@Suite(.enabled(if: HarnessProcess.exists, "needs the built pubnub-harness binary (HarnessProcess.binary)"), .timeLimit(.minutes(TestTime.limitMinutes(2))))
struct ServePusherHTTPProcessTests {
    @Test func badValuesAreOneLineUsageErrors() async throws {
        CLIProcessTests.expectOneLineUsageError(
            try await HarnessProcess.run(["serve", "--port", "0", "--pusher-http", "1:2:3"]),
            "invalid --pusher-http '1:2:3': expected HEARTBEAT_MS:DISCONNECT_MS[:no-prelude], each 1-3600000")
        CLIProcessTests.expectOneLineUsageError(
            try await HarnessProcess.run(["serve", "--port", "0", "--pusher-refuse-websocket", "200"]),
            "invalid --pusher-refuse-websocket 200: expected a status 400-599")
    }

    @Test func refusedUpgradesLeaveTheHTTPTransports() async throws {
        let server = try HarnessProcess.Server([
            "--port", "0", "--quiet", "--pusher-app", "7:cli-key:s", "--pusher-refuse-websocket", "403", "--pusher-http", "1000:2000:no-prelude",
        ])
        guard let line = await server.line(after: "pusher app id 7 key cli-key secret s: ws://127.0.0.1:"), let port = Int(line.prefix { $0.isNumber }) else {
            Issue.record("no pusher line in: \(server.text)")
            _ = await server.stop()
            return
        }
        let (status, poll) = await Self.offPool {
            let upgrade = try? WebSocketTestClient(port: port).handshake(target: "/app/cli-key?protocol=7").1.status
            let client = try? BlockingTestClient(port: port)
            client?.send("POST /pusher/app/cli-key/1/abcdefgh/xhr?protocol=7 HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
            return (upgrade, client.map { HTTPResponseText($0.readToEnd().bytes) })
        }
        #expect(status == 403)
        #expect(poll?.status == 200)
        #expect(poll?.bodyText == "o\n")
        #expect(await server.stop() == 0)
    }

    private static func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }
}
