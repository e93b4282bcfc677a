// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import CPosix
import MockPubNubServer

/// Idle WebSocket connections: how much memory the server holds for each (scripts/bench-websocket.sh).
enum WebSocketIdleBench {
    /// Echoes text; otherwise idle.
    struct EchoHandler: WebSocketHandler {
        func webSocketDidOpen(_ connection: WebSocketHandle) {}
        func webSocket(_ connection: WebSocketHandle, didReceiveText text: String) { connection.send(text: text) }
        func webSocketDidClose(_ connection: WebSocketHandle, code: WebSocketCloseCode, reason: String, clean: Bool) {}
    }

    /// Accepts every upgrade on `/ws`.
    struct EchoExtension: ServerExtension {
        func webSocketUpgrade(for request: HTTPRequest, context: RequestContext) -> WebSocketUpgradeDecision {
            request.rawPath == "/ws" ? .accept(EchoHandler()) : .notMine
        }
    }

    /// Runs a mock server with the echo extension until SIGINT/SIGTERM.
    static func serve(port: Int, loops: Int?) {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        var configuration = MockServerConfiguration()
        configuration.port = port
        configuration.eventLoopCount = loops
        configuration.extensions = [EchoExtension()]
        do {
            let server = try MockServer(configuration: configuration)
            let address = try server.start()
            emit("listening on \(address) pid \(getpid())")
            var received: Int32 = 0
            sigwait(&signals, &received)
            server.stop()
        } catch {
            fail("\(error)")
        }
    }

    /// Opens `connections` WebSockets, reads the server's RSS, then checks every one still echoes.
    static func idle(port: Int, connections: Int, serverPID: Int32?) throws {
        let before = serverPID.flatMap(LongPollBench.residentKiB)
        var fds: [Int32] = []
        fds.reserveCapacity(connections)
        defer { for fd in fds { close(fd) } }
        let request = Array(("GET /ws HTTP/1.1\r\nHost: bench\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)
        let started = cposix_monotonic_nanos()
        for index in 0..<connections {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0, cposix_connect(fd, "127.0.0.1", Int32(port)) == 0 else {
                if fd >= 0 { close(fd) }
                throw BenchError("connect \(index) failed: errno \(errno)")
            }
            fds.append(fd)
            send(fd, request)
            let head = readUntil(fd, suffix: Array("\r\n\r\n".utf8), limit: 512)
            guard head.starts(with: Array("HTTP/1.1 101 ".utf8)) else {
                throw BenchError("connection \(index): no 101 (\(String(decoding: head, as: UTF8.self)))")
            }
        }
        let openMillis = Double(cposix_monotonic_nanos() - started) / 1e6
        // Let the loops settle (freed HTTP state, allocator), then read the resident size.
        var pause = timespec(tv_sec: 1, tv_nsec: 0)
        nanosleep(&pause, nil)
        let after = serverPID.flatMap(LongPollBench.residentKiB)
        // Every connection must still be alive: one masked "x" each, one echo each.
        let frame: [UInt8] = [0x81, 0x81, 1, 2, 3, 4, 0x78 ^ 1]
        for fd in fds { send(fd, frame) }
        var echoed = 0
        for fd in fds where readUntil(fd, suffix: [0x81, 0x01, 0x78], limit: 3) == [0x81, 0x01, 0x78] { echoed += 1 }
        emit("websocket-idle connections=\(connections) open_ms=\(format(openMillis)) echoed=\(echoed)")
        if let before, let after {
            let perConnection = Double(after - before) * 1024 / Double(max(1, connections))
            emit("server_rss_kib before=\(before) after=\(after) per_connection_bytes=\(Int(perConnection))")
        }
    }

    struct BenchError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    private static func send(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { cposix_send(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Reads until the bytes end with `suffix` or `limit` bytes arrived (5 s per read at most).
    private static func readUntil(_ fd: Int32, suffix: [UInt8], limit: Int) -> [UInt8] {
        var got: [UInt8] = []
        var byte: UInt8 = 0
        while got.count < limit && !got.reversed().starts(with: suffix.reversed()) {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 5000) > 0, recv(fd, &byte, 1, 0) == 1 else { break }
            got.append(byte)
        }
        return got
    }
}
