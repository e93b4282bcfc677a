// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import CPosix

/// Parks many subscribe long-polls, publishes once and measures how long the fan-out takes.
struct LongPollBench {
    struct Settings {
        var url: String
        var connections: Int
        var subscribeKey: String
        var publishKey: String
        var channel: String
        var serverPID: Int32?
    }

    let settings: Settings
    let host: String
    let port: Int

    init(_ settings: Settings) throws {
        self.settings = settings
        var rest = Substring(settings.url)
        if rest.hasPrefix("http://") { rest = rest.dropFirst(7) }
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        guard let colon = rest.lastIndex(of: ":"), let port = Int(rest[rest.index(after: colon)...]) else {
            throw BenchError(description: "expected --url http://HOST:PORT, got \(settings.url)")
        }
        host = String(rest[..<colon])
        self.port = port
    }

    func run() throws {
        let limit = cposix_raise_fd_limit()
        guard limit > settings.connections + 64 else {
            throw BenchError(description: "file descriptor limit \(limit) is too low for \(settings.connections) connections")
        }
        // Handshake once to learn the cursor, as a client would.
        let handshake = try exchange("GET /v2/subscribe/\(settings.subscribeKey)/\(settings.channel)/0?tt=0&uuid=bench-hs HTTP/1.1\r\nHost: bench\r\n\r\n")
        guard let cursor = Self.cursor(in: handshake) else {
            throw BenchError(description: "no cursor in handshake response: \(handshake.prefix(200))")
        }
        emit("handshake cursor tt=\(cursor.tt) r=\(cursor.r)")
        let epfd = cposix_epoll_create()
        var sockets: [Int32] = []
        sockets.reserveCapacity(settings.connections)
        let connectStart = cposix_monotonic_nanos()
        for index in 0..<settings.connections {
            let fd = try connectBlocking()
            let request = "GET /v2/subscribe/\(settings.subscribeKey)/\(settings.channel)/0?tt=\(cursor.tt)&tr=\(cursor.r)"
                + "&uuid=bench-\(index)&heartbeat=300 HTTP/1.1\r\nHost: bench\r\n\r\n"
            try sendAll(fd, Array(request.utf8))
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = cposix_epoll_ctl(epfd, EPOLL_CTL_ADD, fd, cposix_EPOLLIN, UInt64(index))
            sockets.append(fd)
        }
        let connectSeconds = Double(cposix_monotonic_nanos() - connectStart) / 1e9
        emit("opened \(sockets.count) connections and sent their long-polls in \(format(connectSeconds)) s")
        // Let the server read and park the last requests (benchmark tool: a settle pause, not a test).
        usleep(1_000_000)
        if let pid = settings.serverPID, let rss = Self.residentKiB(pid: pid) {
            emit("server RSS with \(sockets.count) parked long-polls: \(rss / 1024) MiB (\(rss) KiB)")
        }
        var partial = [[UInt8]](repeating: [], count: sockets.count)
        var doneAt = [UInt64](repeating: 0, count: sockets.count)
        let cpuBefore = settings.serverPID.flatMap(ServerCPU.nanoseconds)
        // The client's own CPU counts too: it shares the machine's cores with the server.
        let clientBefore = ServerCPU.nanoseconds(pid: getpid())
        let publishAt = cposix_monotonic_nanos()
        _ = try exchange("GET /publish/\(settings.publishKey)/\(settings.subscribeKey)/0/\(settings.channel)/0/%22hello%22?uuid=bench-pub HTTP/1.1\r\nHost: bench\r\n\r\n")
        var remaining = sockets.count
        let events = cposix_epoll_events_alloc(512)!
        defer { cposix_epoll_events_free(events) }
        var buffer = [UInt8](repeating: 0, count: 16384)
        let deadline = publishAt + 10_000_000_000
        while remaining > 0 && cposix_monotonic_nanos() < deadline {
            let count = cposix_epoll_wait(epfd, events, 512, 100)
            for slot in 0..<max(0, count) {
                let index = Int(cposix_epoll_data_at(events, slot))
                let n = buffer.withUnsafeMutableBytes { read(sockets[index], $0.baseAddress, $0.count) }
                if n > 0 {
                    // The reader must stay cheap: its own cost would count as fan-out time. The
                    // common case (the whole response in one read) neither copies nor allocates.
                    let complete: Bool
                    if partial[index].isEmpty {
                        complete = buffer.withUnsafeBufferPointer { Self.isCompleteResponse(UnsafeBufferPointer(rebasing: $0[..<n])) }
                        if !complete { partial[index] = Array(buffer[..<n]) }
                    } else {
                        partial[index] += buffer[..<n]
                        complete = partial[index].withUnsafeBufferPointer { Self.isCompleteResponse($0) }
                    }
                    if doneAt[index] == 0 && complete {
                        doneAt[index] = cposix_monotonic_nanos()
                        remaining -= 1
                    }
                } else if n == 0 || (errno != EAGAIN && errno != EINTR) {
                    _ = cposix_epoll_ctl(epfd, EPOLL_CTL_DEL, sockets[index], 0, 0)
                    if doneAt[index] == 0 { remaining -= 1 }
                }
            }
        }
        let cpuAfter = settings.serverPID.flatMap(ServerCPU.nanoseconds)
        let clientAfter = ServerCPU.nanoseconds(pid: getpid())
        let latencies = doneAt.filter { $0 > 0 }.map { Double($0 - publishAt) / 1e6 }.sorted()
        let answered = latencies.count
        emit("fan-out: \(answered)/\(sockets.count) responses; "
            + (answered > 0
                ? "p50 \(format(latencies[answered / 2])) ms, p99 \(format(latencies[min(answered - 1, answered * 99 / 100)])) ms, "
                    + "last \(format(latencies[answered - 1])) ms after the publish"
                : "none arrived"))
        // The server's CPU from the publish until the last answer arrived (publish included).
        if let cpu = ServerCPU.describe(before: cpuBefore, after: cpuAfter, items: answered, unit: "response") {
            let client = clientBefore.flatMap { before in clientAfter.map { after in format(Double(after &- before) / 1e6) } } ?? "?"
            emit("cpu during fan-out: \(cpu) client_cpu_ms=\(client)")
        }
        for fd in sockets { close(fd) }
        close(epfd)
    }

    private func connectBlocking() throws -> Int32 {
        let fd = socket(host.contains(":") ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw BenchError(description: "socket: errno \(errno)") }
        guard cposix_connect(fd, host, Int32(port)) == 0 else {
            let code = errno
            close(fd)
            throw BenchError(description: "connect \(host):\(port): errno \(code)")
        }
        return fd
    }

    private func sendAll(_ fd: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { cposix_send(fd, $0.baseAddress! + offset, bytes.count - offset) }
            guard n > 0 else { throw BenchError(description: "send: errno \(errno)") }
            offset += n
        }
    }

    /// One request on a fresh connection with `Connection: close`; returns the whole response text.
    private func exchange(_ request: String) throws -> String {
        let fd = try connectBlocking()
        defer { close(fd) }
        try sendAll(fd, Array(request.replacingHostLine().utf8))
        var all: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 5000) > 0 else { throw BenchError(description: "no response to \(request.prefix(60))") }
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            all += buffer[..<n]
        }
        return String(decoding: all, as: UTF8.self)
    }

    /// Whether `bytes` hold a whole response framed by `Content-Length` (a byte scan, no allocation).
    static func isCompleteResponse(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        frameLength(bytes) != nil
    }

    /// The length of the first response in `bytes` (head and `Content-Length` body), once it is all there.
    static func frameLength(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        let count = bytes.count
        guard count >= 4 else { return nil }
        var end = -1
        var index = 0
        while index + 3 < count {
            if bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
                end = index
                break
            }
            index += 1
        }
        guard end >= 0, let length = contentLength(UnsafeBufferPointer(rebasing: bytes[..<end])) else { return nil }
        return count >= end + 4 + length ? end + 4 + length : nil
    }

    /// The field name `contentLength` looks for, built once (not an allocation per response).
    private static let contentLengthName = Array("\r\ncontent-length:".utf8)

    /// The value of the `Content-Length` field in a response head, matched case-insensitively.
    static func contentLength(_ head: UnsafeBufferPointer<UInt8>) -> Int? {
        let name = contentLengthName
        var start = 0
        while start + name.count <= head.count {
            var matches = true
            for offset in 0..<name.count {
                var byte = head[start + offset]
                if byte >= 65 && byte <= 90 { byte += 32 }
                if byte != name[offset] { matches = false; break }
            }
            if matches {
                var cursor = start + name.count
                while cursor < head.count && head[cursor] == 32 { cursor += 1 }
                var value = 0
                var digits = 0
                while cursor < head.count && head[cursor] >= 48 && head[cursor] <= 57 && digits < 12 {
                    value = value * 10 + Int(head[cursor] - 48)
                    cursor += 1
                    digits += 1
                }
                return digits > 0 ? value : nil
            }
            start += 1
        }
        return nil
    }

    /// `t.t` and `t.r` of a subscribe response.
    static func cursor(in response: String) -> (tt: String, r: String)? {
        guard let t = response.firstRange(of: "{\"t\":{\"t\":\"") else { return nil }
        let afterT = response[t.upperBound...]
        guard let quote = afterT.firstIndex(of: "\"") else { return nil }
        let tt = String(afterT[..<quote])
        guard let r = afterT.firstRange(of: "\"r\":") else { return nil }
        let region = afterT[r.upperBound...].prefix { $0.isNumber }
        return (tt, String(region))
    }

    static func residentKiB(pid: Int32) -> Int? {
        guard let file = fopen("/proc/\(pid)/status", "r") else { return nil }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix("VmRSS:") {
                return Int(text.dropFirst(6).filter { $0.isNumber })
            }
        }
        return nil
    }
}

func format(_ value: Double) -> String {
    let scaled = (value * 10).rounded() / 10
    return String(scaled)
}

extension String {
    /// Adds `Connection: close` to a request head.
    func replacingHostLine() -> String {
        replacingFirst("Host: bench\r\n", with: "Host: bench\r\nConnection: close\r\n")
    }

    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        return self[..<range.lowerBound] + replacement + self[range.upperBound...]
    }
}
