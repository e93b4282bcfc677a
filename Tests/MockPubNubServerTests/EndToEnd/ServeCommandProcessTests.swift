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
    static let binary: String = {
        let file = #filePath
        var parts = file.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(4)  // EndToEnd/<file>, MockPubNubServerTests, Tests
        return parts.joined(separator: "/") + "/.build/debug/pubnub-harness"
    }()

    struct Child {
        var pid: pid_t
        var output: Int32
    }

    static func spawn(_ arguments: [String]) throws -> Child {
        var pipeFDs: [Int32] = [0, 0]
        try #require(pipe(&pipeFDs) == 0)
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipeFDs[1], 2)
        posix_spawn_file_actions_addclose(&actions, pipeFDs[0])
        let argv = ([binary] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, binary, &actions, nil, argv, environ)
        close(pipeFDs[1])
        guard result == 0 else {
            close(pipeFDs[0])
            throw BlockingTestClient.ClientError(description: "posix_spawn \(binary): \(result)")
        }
        return Child(pid: pid, output: pipeFDs[0])
    }

    /// Reads the child's output until a line starting with `prefix` is complete (bounded: 10 s).
    static func readLine(_ child: Child, prefix: String) -> String? {
        var text = ""
        for _ in 0..<100 {
            if let line = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().first(where: { $0.hasPrefix(prefix) }) {
                return String(line)
            }
            var pfd = pollfd(fd: child.output, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 100) >= 0 else { return nil }
            if pfd.revents == 0 { continue }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = buffer.withUnsafeMutableBytes { read(child.output, $0.baseAddress, $0.count) }
            if n <= 0 { return nil }
            text += String(decoding: buffer[..<n], as: UTF8.self)
        }
        return nil
    }

    /// Waits (bounded: 10 s) for the child to exit; its exit status, or nil after killing it.
    static func waitExit(_ child: Child) -> Int32? {
        defer { close(child.output) }
        var status: Int32 = 0
        for _ in 0..<1000 {
            if waitpid(child.pid, &status, WNOHANG) == child.pid {
                return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
            }
            var none = pollfd(fd: -1, events: 0, revents: 0)
            _ = poll(&none, 0, 10)
        }
        kill(child.pid, SIGKILL)
        _ = waitpid(child.pid, &status, 0)
        return nil
    }

    @Test(arguments: [SIGINT, SIGTERM])
    func servesTimeAndExitsZeroOnSignal(_ signal: Int32) throws {
        try #require(access(Self.binary, X_OK) == 0, "build the executable first: \(Self.binary)")
        let child = try Self.spawn(["serve", "--port", "0", "--quiet"])
        let line = Self.readLine(child, prefix: "listening on http://127.0.0.1:")
        guard let line, let port = Int(line.dropFirst("listening on http://127.0.0.1:".count)) else {
            kill(child.pid, SIGKILL)
            _ = Self.waitExit(child)
            Issue.record("no address line: \(line ?? "nil")")
            return
        }
        let client = try BlockingTestClient(port: port)
        client.send("GET /time/0 HTTP/1.1\r\nHost: x\r\n\r\n")
        let response = try #require(client.readResponse())
        #expect(response.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(EndToEndServer.split(response).1.count == 19)
        kill(child.pid, signal)
        #expect(Self.waitExit(child) == 0)
    }

    @Test func timeoutOptionsCloseSlowAndIdleConnections() throws {
        try #require(access(Self.binary, X_OK) == 0, "build the executable first: \(Self.binary)")
        let child = try Self.spawn(["serve", "--port", "0", "--quiet", "--header-timeout", "0.2", "--idle-timeout", "0.3"])
        defer {
            kill(child.pid, SIGTERM)
            _ = Self.waitExit(child)
        }
        let line = try #require(Self.readLine(child, prefix: "listening on http://127.0.0.1:"))
        let port = try #require(Int(line.dropFirst("listening on http://127.0.0.1:".count)))
        let slow = try BlockingTestClient(port: port)
        slow.send("GET /time/0 HTTP/1.1\r\n")
        let slowRest = slow.readToEnd()
        #expect(String(decoding: slowRest.bytes, as: UTF8.self).hasPrefix("HTTP/1.1 408 Request Timeout\r\n"))
        #expect(slowRest.end == .eof)
        let idle = try BlockingTestClient(port: port)
        idle.send("GET /time/0 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(idle.readResponse()?.hasPrefix("HTTP/1.1 200 OK\r\n") == true)
        #expect(idle.readToEnd() == ([], .eof))
    }

    @Test func negativeTimeoutsAreRefused() throws {
        try #require(access(Self.binary, X_OK) == 0, "build the executable first: \(Self.binary)")
        let child = try Self.spawn(["serve", "--port", "0", "--idle-timeout=-1"])
        #expect(Self.readLine(child, prefix: "error: --idle-timeout must be >= 0") != nil)
        #expect(Self.waitExit(child) != 0)
    }
}
