// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import CPosix
import HarnessServerCore
import MockPusher
import PusherServer

/// Idle Pusher WebSocket connections on one channel, then one signed HTTP `events` trigger: server
/// memory and the time until every client has the event (scripts/bench-pusher.sh).
enum PusherFanoutBench {
    static let app = PusherAppArgument.demo
    static let channel = "bench"

    /// Runs `PusherService` (as `serve --pusher-app` composes it, on a Pusher-only host) with the demo app until SIGINT/SIGTERM.
    static func serve(port: Int, loops: Int?) {
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let service = PusherService(apps: [app])
        var configuration = TransportConfiguration()
        configuration.port = port
        configuration.eventLoopCount = loops
        do {
            let server = try ServerHost(configuration: configuration, extensions: service.extensions)
            service.attach(to: server)
            let address = try server.start()
            emit("listening on \(address) pid \(getpid())")
            var received: Int32 = 0
            sigwait(&signals, &received)
            server.stop()
        } catch {
            fail("\(error)")
        }
    }

    /// Opens `connections` WebSockets on `/app/KEY`, subscribes each to one channel, reads the server's
    /// RSS, triggers one event over the signed HTTP API and times its arrival on every socket.
    static func fanout(port: Int, connections: Int, serverPID: Int32?) throws {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        guard Int(limit.rlim_cur) > connections + 64 else {
            throw BenchError("file descriptor limit \(limit.rlim_cur) is too low for \(connections) connections (ulimit -n)")
        }
        let before = serverPID.flatMap(LongPollBench.residentKiB)
        let upgrade = Array(("GET /app/\(app.key)?protocol=7&client=bench&version=1.0 HTTP/1.1\r\nHost: bench\r\nUpgrade: websocket\r\n"
            + "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n").utf8)
        let subscribe = maskedText(#"{"event":"pusher:subscribe","data":{"channel":"\#(channel)"}}"#)
        var fds: [Int32] = []
        fds.reserveCapacity(connections)
        defer { for fd in fds { close(fd) } }
        let started = cposix_monotonic_nanos()
        for index in 0..<connections {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0, cposix_connect(fd, "127.0.0.1", Int32(port)) == 0 else {
                if fd >= 0 { close(fd) }
                throw BenchError("connect \(index) failed: errno \(errno)")
            }
            fds.append(fd)
            sendAll(fd, upgrade)
            let head = readUntil(fd, suffix: Array("\r\n\r\n".utf8), limit: 1024)
            guard head.starts(with: Array("HTTP/1.1 101 ".utf8)) else {
                throw BenchError("connection \(index): no 101 (\(String(decoding: head, as: UTF8.self)))")
            }
            guard let established = readTextFrame(fd), established.contains("connection_established") else {
                throw BenchError("connection \(index): no connection_established")
            }
            sendAll(fd, subscribe)
            guard let succeeded = readTextFrame(fd), succeeded.contains("subscription_succeeded") else {
                throw BenchError("connection \(index): no subscription_succeeded")
            }
        }
        let openMillis = Double(cposix_monotonic_nanos() - started) / 1e6
        // Let the loops settle (freed HTTP state, allocator), then read the resident size.
        var pause = timespec(tv_sec: 1, tv_nsec: 0)
        nanosleep(&pause, nil)
        let after = serverPID.flatMap(LongPollBench.residentKiB)
        emit("pusher-idle connections=\(connections) subscribed_to=\(channel) open_ms=\(format(openMillis))")
        if let before, let after {
            emit("server_rss_kib before=\(before) after=\(after) (\(after / 1024) MiB) per_connection_bytes=\(Int(Double(after - before) * 1024 / Double(max(1, connections))))")
        }

        // The event every client must receive: one unmasked text frame of known bytes.
        let payload = Array(#"{"event":"tick","data":"{\"n\":1}","channel":"\#(channel)"}"#.utf8)
        let expected = [0x81, UInt8(payload.count)] + payload
        let epfd = cposix_epoll_create()
        defer { close(epfd) }
        for (index, fd) in fds.enumerated() {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = cposix_epoll_ctl(epfd, EPOLL_CTL_ADD, fd, cposix_EPOLLIN, UInt64(index))
        }
        let body = Array(#"{"name":"tick","data":"{\"n\":1}","channels":["\#(channel)"]}"#.utf8)
        let path = "/apps/\(app.id)/events"
        let query = PusherRequestAuthentication.signedQuery(app: app, method: "POST", path: path, body: body, timestamp: Int64(time(nil)))
        let request = Array(("POST \(path)?" + query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")
            + " HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\nConnection: close\r\n\r\n").utf8) + body
        let trigger = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard trigger >= 0, cposix_connect(trigger, "127.0.0.1", Int32(port)) == 0 else { throw BenchError("trigger connect failed") }
        defer { close(trigger) }
        var received = [Int](repeating: 0, count: fds.count)
        var doneAt = [UInt64](repeating: 0, count: fds.count)
        var remaining = fds.count
        let events = cposix_epoll_events_alloc(512)!
        defer { cposix_epoll_events_free(events) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        let serverTicksBefore = serverPID.flatMap(cpuTicks)
        let serverNanosBefore = serverPID.flatMap(ServerCPU.nanoseconds)
        var usageBefore = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usageBefore)
        let triggeredAt = cposix_monotonic_nanos()
        sendAll(trigger, request)
        let deadline = triggeredAt + 10_000_000_000
        // Bounded by the 10 s deadline.
        while remaining > 0 && cposix_monotonic_nanos() < deadline {
            let count = cposix_epoll_wait(epfd, events, 512, 100)
            for slot in 0..<max(0, count) {
                let index = Int(cposix_epoll_data_at(events, slot))
                let n = buffer.withUnsafeMutableBytes { read(fds[index], $0.baseAddress, $0.count) }
                if n > 0 {
                    received[index] += n
                    if doneAt[index] == 0 && received[index] >= expected.count {
                        doneAt[index] = cposix_monotonic_nanos()
                        remaining -= 1
                    }
                } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                    _ = cposix_epoll_ctl(epfd, EPOLL_CTL_DEL, fds[index], 0, 0)
                    if doneAt[index] == 0 { remaining -= 1 }
                }
            }
        }
        var usageAfter = rusage()
        getrusage(Int32(RUSAGE_SELF.rawValue), &usageAfter)
        let serverTicksAfter = serverPID.flatMap(cpuTicks)
        let serverNanosAfter = serverPID.flatMap(ServerCPU.nanoseconds)
        let status = String(decoding: readUntil(trigger, suffix: Array("\r\n".utf8), limit: 64), as: UTF8.self)
        let latencies = doneAt.filter { $0 > 0 }.map { Double($0 - triggeredAt) / 1e6 }.sorted()
        let delivered = latencies.count
        emit("trigger: \(status.trimmingCharacters()) delivered=\(delivered)/\(fds.count)"
            + (delivered > 0
                ? " p50_ms=\(format(latencies[delivered / 2])) p99_ms=\(format(latencies[min(delivered - 1, delivered * 99 / 100)])) all_ms=\(format(latencies[delivered - 1]))"
                : ""))
        // CPU time spent during the fan-out: independent of how busy the machine is (10 ms ticks for the server).
        let clientCPU = milliseconds(usageAfter.ru_utime) + milliseconds(usageAfter.ru_stime) - milliseconds(usageBefore.ru_utime) - milliseconds(usageBefore.ru_stime)
        if let serverTicksBefore, let serverTicksAfter {
            let hertz = sysconf(Int32(_SC_CLK_TCK))
            emit("cpu during fan-out: server_ms=\((serverTicksAfter - serverTicksBefore) * 1000 / max(1, hertz)) client_ms=\(format(clientCPU))")
        }
        // The same from the threads' schedstat (nanoseconds, not 10 ms ticks), per delivered frame.
        if let cpu = ServerCPU.describe(before: serverNanosBefore, after: serverNanosAfter, items: delivered, unit: "frame") {
            emit("cpu during fan-out (schedstat): \(cpu)")
        }
    }

    private static func milliseconds(_ value: timeval) -> Double { Double(value.tv_sec) * 1000 + Double(value.tv_usec) / 1000 }

    /// utime + stime of a process, in clock ticks (`/proc/PID/stat` fields 14 and 15).
    private static func cpuTicks(pid: Int32) -> Int? {
        guard let file = fopen("/proc/\(pid)/stat", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 1024)
        guard fgets(&line, Int32(line.count), file) != nil else { return nil }
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        guard let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the command: state is field 3, so utime (14) and stime (15) are at offsets 11 and 12.
        guard fields.count > 12, let user = Int(fields[11]), let system = Int(fields[12]) else { return nil }
        return user + system
    }

    /// A masked client text frame (payload < 126 bytes).
    private static func maskedText(_ text: String) -> [UInt8] {
        let payload = Array(text.utf8)
        let mask: [UInt8] = [1, 2, 3, 4]
        return [0x81, 0x80 | UInt8(payload.count)] + mask + payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
    }

    /// One unmasked server text frame (7- or 16-bit length), or nil.
    private static func readTextFrame(_ fd: Int32) -> String? {
        let header = readCount(fd, 2)
        guard header.count == 2, header[0] == 0x81 else { return nil }
        var length = Int(header[1] & 0x7F)
        if length == 126 {
            let extended = readCount(fd, 2)
            guard extended.count == 2 else { return nil }
            length = Int(extended[0]) << 8 | Int(extended[1])
        }
        let payload = readCount(fd, length)
        return payload.count == length ? String(decoding: payload, as: UTF8.self) : nil
    }

    private static func readCount(_ fd: Int32, _ count: Int) -> [UInt8] {
        var got: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: max(1, count))
        // Bounded: each round reads at least one byte or stops (5 s poll per read).
        while got.count < count {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 5000) > 0 else { break }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, count - got.count, 0) }
            guard n > 0 else { break }
            got += chunk[..<n]
        }
        return got
    }

    private static func readUntil(_ fd: Int32, suffix: [UInt8], limit: Int) -> [UInt8] {
        var got: [UInt8] = []
        var byte: UInt8 = 0
        while got.count < limit && !got.reversed().starts(with: suffix.reversed()) {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 5000) > 0 else { break }
            guard recv(fd, &byte, 1, 0) == 1 else { break }
            got.append(byte)
        }
        return got
    }

    private static func sendAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { cposix_send(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n <= 0 { return }
            offset += n
        }
    }
}

extension String {
    fileprivate func trimmingCharacters() -> String {
        var text = Substring(self)
        while let last = text.last, last.isNewline { text.removeLast() }
        return String(text)
    }
}
