// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// `pubnub-harness serve` as a subprocess: prints its address, serves, exits 0 on SIGINT and SIGTERM.
@Suite struct ServeCommandProcessTests {
    /// Starts `serve ARGUMENTS` and reads its port from the address line; a process without one is
    /// killed and the test fails.
    static func serve(_ arguments: [String]) async throws -> (HarnessProcess.Server, Int) {
        let server = try HarnessProcess.Server(arguments)
        guard let line = await server.line(after: "listening on http://127.0.0.1:"), let port = Int(line) else {
            _ = await server.stop(signal: SIGKILL)
            throw BlockingTestClient.ClientError(description: "no address line: \(server.text)")
        }
        return (server, port)
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func servesTimeAndExitsZeroOnSignal(_ signal: Int32) async throws {
        try #require(HarnessProcess.exists, "build the executable first: \(HarnessProcess.binary)")
        let (server, port) = try await Self.serve(["--port", "0", "--quiet"])
        // Blocking socket reads run on a thread of their own, never on the concurrency pool.
        let response = try #require(await TestSockets.onDedicatedThread { () -> String? in
            guard let client = try? BlockingTestClient(port: port) else { return nil }
            client.send("GET /time/0 HTTP/1.1\r\nHost: x\r\n\r\n")
            return client.readResponse()
        })
        #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(EndToEndServer.split(response).1.count == 19)
        #expect(await server.stop(signal: signal) == 0)
    }

    @Test func timeoutOptionsCloseSlowAndIdleConnections() async throws {
        try #require(HarnessProcess.exists, "build the executable first: \(HarnessProcess.binary)")
        let (server, port) = try await Self.serve(["--port", "0", "--quiet", "--header-timeout", "0.2", "--idle-timeout", "0.3"])
        let (slowRest, idleResponse, idleRest) = try #require(await TestSockets.onDedicatedThread { () -> ((bytes: [UInt8], end: BlockingTestClient.End), String?, (bytes: [UInt8], end: BlockingTestClient.End))? in
            guard let slow = try? BlockingTestClient(port: port) else { return nil }
            slow.send("GET /time/0 HTTP/1.1\r\n")
            let slowRest = slow.readToEnd()
            guard let idle = try? BlockingTestClient(port: port) else { return nil }
            idle.send("GET /time/0 HTTP/1.1\r\nHost: x\r\n\r\n")
            return (slowRest, idle.readResponse(), idle.readToEnd())
        })
        #expect(String(decoding: slowRest.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(slowRest.end == .eof)
        #expect(idleResponse?.hasPrefix("HTTP/1.1 200 OK\r\n") == true)
        #expect(idleRest.bytes.isEmpty && idleRest.end == .eof)
        #expect(await server.stop(signal: SIGTERM) == 0)
    }

    @Test func negativeTimeoutsAreRefused() async throws {
        try #require(HarnessProcess.exists, "build the executable first: \(HarnessProcess.binary)")
        let server = try HarnessProcess.Server(["--port", "0", "--idle-timeout=-1"])
        #expect(await server.waitFor("error: --idle-timeout must be >= 0"))
        let status = await server.exitStatus()
        #expect(status != nil && status != 0)
    }
}
