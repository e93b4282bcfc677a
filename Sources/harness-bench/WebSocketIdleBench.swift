// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import COpenSSL
import CPosix
import HarnessServerCore

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

    /// Runs a mock server with the echo extension until SIGINT/SIGTERM; `tlsRecords` says who
    /// carries TLS records after a TLS 1.3 handshake ("own" or "openssl"; nil: the default).
    static func serve(port: Int, loops: Int?, tlsRecords: String? = nil) {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        var configuration = TransportConfiguration()
        configuration.port = port
        configuration.tlsPort = 0
        configuration.eventLoopCount = loops
        if let tlsRecords {
            guard let layer = TLSRecordLayer(rawValue: tlsRecords) else { fail("--tls-records: own or openssl, got \(tlsRecords)") }
            configuration.tlsRecordLayer = layer
        }
        do {
            let server = try ServerHost(configuration: configuration, extensions: [EchoExtension()])
            let address = try server.start()
            emit("listening on \(address) pid \(getpid()) tls \(server.tlsAddress?.port ?? 0) records \(configuration.tlsRecordLayer.rawValue)")
            var received: Int32 = 0
            sigwait(&signals, &received)
            server.stop()
        } catch {
            fail("\(error)")
        }
    }

    /// Opens `connections` WebSockets, reads the server's RSS, then checks every one still echoes.
    /// With `tls`, every connection speaks TLS (no certificate check: only memory is measured).
    static func idle(port: Int, connections: Int, serverPID: Int32?, tls: Bool) throws {
        let before = serverPID.flatMap(LongPollBench.residentKiB)
        var fds: [Int32] = []
        fds.reserveCapacity(connections)
        var sessions: [OpaquePointer?] = []
        let context: OpaquePointer? = tls ? SSL_CTX_new(TLS_client_method()) : nil
        defer {
            for ssl in sessions { SSL_free(ssl) }
            if let context { SSL_CTX_free(context) }
            for fd in fds { close(fd) }
        }
        let request = Array(("GET /ws HTTP/1.1\r\nHost: bench\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)
        let started = cposix_monotonic_nanos()
        for index in 0..<connections {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0, cposix_connect(fd, "127.0.0.1", Int32(port)) == 0 else {
                if fd >= 0 { close(fd) }
                throw BenchError("connect \(index) failed: errno \(errno)")
            }
            // Without it the upgrade request, written right after the client's TLS Finished, waits
            // in the kernel (Nagle) for the server's delayed ACK of the Finished: 40 ms a connection.
            _ = cposix_set_int_option(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
            fds.append(fd)
            var ssl: OpaquePointer?
            if let context {
                ssl = SSL_new(context)
                sessions.append(ssl)
                _ = SSL_set_fd(ssl, fd)
                guard SSL_connect(ssl) == 1 else { throw BenchError("connection \(index): TLS handshake failed") }
            }
            send(fd, ssl, request)
            let head = readUntil(fd, ssl, suffix: Array("\r\n\r\n".utf8), limit: 512)
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
        for (index, fd) in fds.enumerated() { send(fd, tls ? sessions[index] : nil, frame) }
        var echoed = 0
        for (index, fd) in fds.enumerated()
        where readUntil(fd, tls ? sessions[index] : nil, suffix: [0x81, 0x01, 0x78], limit: 3) == [0x81, 0x01, 0x78] {
            echoed += 1
        }
        emit("websocket-idle tls=\(tls) connections=\(connections) open_ms=\(format(openMillis)) echoed=\(echoed)")
        if let before, let after {
            let perConnection = Double(after - before) * 1024 / Double(max(1, connections))
            emit("server_rss_kib before=\(before) after=\(after) per_connection_bytes=\(Int(perConnection))")
        }
    }

    private static func send(_ fd: Int32, _ ssl: OpaquePointer?, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n: Int = bytes.withUnsafeBytes { raw in
                if let ssl { return Int(SSL_write(ssl, raw.baseAddress! + offset, Int32(bytes.count - offset))) }
                return cposix_send(fd, raw.baseAddress! + offset, bytes.count - offset)
            }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Reads until the bytes end with `suffix` or `limit` bytes arrived (5 s per read at most).
    private static func readUntil(_ fd: Int32, _ ssl: OpaquePointer?, suffix: [UInt8], limit: Int) -> [UInt8] {
        var got: [UInt8] = []
        var byte: UInt8 = 0
        while got.count < limit && !got.reversed().starts(with: suffix.reversed()) {
            if ssl == nil || SSL_pending(ssl) == 0 {
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, 5000) > 0 else { break }
            }
            let n = ssl.map { Int(SSL_read($0, &byte, 1)) } ?? recv(fd, &byte, 1, 0)
            guard n == 1 else { break }
            got.append(byte)
        }
        return got
    }
}
