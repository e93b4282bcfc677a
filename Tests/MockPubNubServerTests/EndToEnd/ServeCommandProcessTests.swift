// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// `pubnub-harness serve` as a subprocess: prints its address, serves, exits 0 on SIGINT and SIGTERM.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ServeCommandProcessTests {
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

    /// A `serve` started by a test holds none of the test process's descriptors besides its
    /// standard ones: a pipe another test reads to its end (a Python script's output) must not stay
    /// open in a server that outlives it.
    @Test func aServeProcessInheritsNoOtherDescriptorOfTheTests() async throws {
        try #require(HarnessProcess.exists, "build the executable first: \(HarnessProcess.binary)")
        var other: [Int32] = [0, 0]
        try #require(pipe(&other) == 0)  // inheritable, as Foundation's `Pipe` makes them
        defer { close(other[0]); close(other[1]) }
        let (server, _) = try await Self.serve(["--port", "0", "--quiet"])
        let pipeName = Self.target(of: "/proc/self/fd/\(other[1])")
        #expect(pipeName?.hasPrefix("pipe:") == true)
        let held = Self.descriptorTargets(of: server.pid)
        #expect(!held.isEmpty)
        #expect(!held.contains { $0 == pipeName }, "\(held)")
        #expect(await server.stop(signal: SIGTERM) == 0)
    }

    /// What each open descriptor of `pid` points to (`pipe:[…]`, `socket:[…]`, a path).
    static func descriptorTargets(of pid: pid_t) -> [String] {
        guard let directory = opendir("/proc/\(pid)/fd") else { return [] }
        defer { closedir(directory) }
        var targets: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.first?.isNumber == true, let target = target(of: "/proc/\(pid)/fd/\(name)") { targets.append(target) }
        }
        return targets
    }

    static func target(of link: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 256)
        let count = buffer.withUnsafeMutableBytes { readlink(link, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) }
        return count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }

    @Test func negativeTimeoutsAreRefused() async throws {
        try #require(HarnessProcess.exists, "build the executable first: \(HarnessProcess.binary)")
        let server = try HarnessProcess.Server(["--port", "0", "--idle-timeout=-1"])
        #expect(await server.waitFor("error: --idle-timeout must be >= 0"))
        let status = await server.exitStatus()
        #expect(status != nil && status != 0)
    }
}
