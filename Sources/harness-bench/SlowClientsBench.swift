// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import CPosix

/// Slow and idle clients against the connection timeouts (scripts/slow-clients.sh).
///
/// `slowclients` opens `slow` connections that each send one byte of a request head per second
/// and `idle` connections that complete one `/time/0` and then send nothing; it reports when the
/// server closed them. `latency` measures normal `/time/0` requests on one keep-alive connection,
/// paced, for a duration; the script runs it alone (baseline) and beside `slowclients`.
enum SlowClientsBench {
    static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw BenchError(description: "socket: errno \(errno)") }
        guard cposix_connect(fd, "127.0.0.1", Int32(port)) == 0 else {
            let code = errno
            close(fd)
            throw BenchError(description: "connect 127.0.0.1:\(port): errno \(code)")
        }
        _ = cposix_set_int_option(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        return fd
    }

    static func send(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { cposix_send(fd, $0.baseAddress! + offset, bytes.count - offset) }
            guard n > 0 else { return false }
            offset += n
        }
        return true
    }

    /// Reads one `Content-Length`-framed response (blocking, 5 s per read); false when it did not come.
    static func readResponse(_ fd: Int32, buffer: inout [UInt8]) -> Bool {
        var all: [UInt8] = []
        for _ in 0..<1000 {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 5000) > 0 else { return false }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { return false }
            all += buffer[..<n]
            if all.withUnsafeBufferPointer({ LongPollBench.frameLength($0) }) != nil { return true }
        }
        return false
    }

    static let timeRequest = Array("GET /time/0 HTTP/1.1\r\nHost: bench\r\n\r\n".utf8)

    /// Normal requests on one keep-alive connection, one every `intervalMs`, for `seconds`.
    static func latency(port: Int, seconds: Double, intervalMs: Int, label: String) throws {
        var fd = try connect(port: port)
        var buffer = [UInt8](repeating: 0, count: 4096)
        var samples: [Double] = []
        var failures = 0
        let end = cposix_monotonic_nanos() + UInt64(seconds * 1e9)
        while cposix_monotonic_nanos() < end {
            let start = cposix_monotonic_nanos()
            if send(fd, timeRequest) && readResponse(fd, buffer: &buffer) {
                samples.append(Double(cposix_monotonic_nanos() - start) / 1e6)
            } else {
                failures += 1
                close(fd)
                fd = try connect(port: port)
            }
            usleep(UInt32(intervalMs * 1000))
        }
        close(fd)
        samples.sort()
        guard !samples.isEmpty else {
            emit("\(label): no successful request (\(failures) failures)")
            return
        }
        func pct(_ p: Double) -> String { format(samples[min(samples.count - 1, Int(Double(samples.count) * p))] * 1000) }
        emit("\(label): \(samples.count) requests, \(failures) failures; latency p50 \(pct(0.5)) µs, p99 \(pct(0.99)) µs, "
            + "max \(format(samples[samples.count - 1] * 1000)) µs")
    }

    /// Opens the slow and idle connections, drips the slow ones, and reports when each was closed.
    static func slowClients(port: Int, slow: Int, idle: Int, seconds: Double) throws {
        let limit = cposix_raise_fd_limit()
        guard limit > slow + idle + 64 else {
            throw BenchError(description: "file descriptor limit \(limit) is too low for \(slow + idle) connections")
        }
        let head = Array("GET /time/0?uuid=slow-client-sending-one-byte-per-second HTTP/1.1\r\nHost: bench\r\n\r\n".utf8)
        var buffer = [UInt8](repeating: 0, count: 4096)
        let epfd = cposix_epoll_create()
        defer { close(epfd) }
        var sockets: [Int32] = []
        var openedAt: [UInt64] = []
        var closedAt: [UInt64] = []
        var sawTimeout = [Bool](repeating: false, count: slow + idle)
        let begin = cposix_monotonic_nanos()
        for index in 0..<(slow + idle) {
            let fd = try connect(port: port)
            if index >= slow {
                // Idle: one complete request, then silence.
                guard send(fd, timeRequest), readResponse(fd, buffer: &buffer) else {
                    throw BenchError(description: "an idle client's request was not answered")
                }
            } else {
                _ = send(fd, [head[0]])
            }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = cposix_epoll_ctl(epfd, EPOLL_CTL_ADD, fd, cposix_EPOLLIN, UInt64(index))
            sockets.append(fd)
            openedAt.append(cposix_monotonic_nanos())
            closedAt.append(0)
        }
        emit("opened \(slow) slow and \(idle) idle connections in \(format(Double(cposix_monotonic_nanos() - begin) / 1e9)) s")
        var sentBytes = [Int](repeating: 1, count: slow)
        var nextDrip = cposix_monotonic_nanos() + 1_000_000_000
        let events = cposix_epoll_events_alloc(512)!
        defer { cposix_epoll_events_free(events) }
        let end = begin + UInt64(seconds * 1e9)
        var open = sockets.count
        while open > 0 && cposix_monotonic_nanos() < end {
            let count = cposix_epoll_wait(epfd, events, 512, 50)
            let now = cposix_monotonic_nanos()
            for slot in 0..<max(0, count) {
                let index = Int(cposix_epoll_data_at(events, slot))
                let n = buffer.withUnsafeMutableBytes { read(sockets[index], $0.baseAddress, $0.count) }
                if n > 0 {
                    if buffer[..<n].starts(with: Array("HTTP/1.1 408".utf8)) { sawTimeout[index] = true }
                } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                    _ = cposix_epoll_ctl(epfd, EPOLL_CTL_DEL, sockets[index], 0, 0)
                    closedAt[index] = now
                    open -= 1
                }
            }
            if now >= nextDrip {
                nextDrip += 1_000_000_000
                for index in 0..<slow where closedAt[index] == 0 && sentBytes[index] < head.count {
                    _ = send(sockets[index], [head[sentBytes[index]]])
                    sentBytes[index] += 1
                }
            }
        }
        for fd in sockets { close(fd) }
        report("slow", indices: 0..<slow, openedAt: openedAt, closedAt: closedAt, sawTimeout: sawTimeout)
        report("idle", indices: slow..<(slow + idle), openedAt: openedAt, closedAt: closedAt, sawTimeout: sawTimeout)
        emit("slow clients had sent at most \(sentBytes.max() ?? 0) of \(head.count) head bytes")
    }

    private static func report(_ label: String, indices: Range<Int>, openedAt: [UInt64], closedAt: [UInt64], sawTimeout: [Bool]) {
        let times = indices.filter { closedAt[$0] > 0 }.map { Double(closedAt[$0] - openedAt[$0]) / 1e9 }.sorted()
        let answered408 = indices.filter { sawTimeout[$0] }.count
        guard !times.isEmpty else {
            emit("\(label): 0/\(indices.count) closed by the server")
            return
        }
        emit("\(label): \(times.count)/\(indices.count) closed by the server (\(answered408) with 408), "
            + "after min \(format(times[0])) s, median \(format(times[times.count / 2])) s, max \(format(times[times.count - 1])) s")
    }
}
