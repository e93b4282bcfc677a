// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import CPosix

/// A blocking loopback TCP client for socket tests; every wait is bounded by `poll` timeouts.
package final class BlockingTestClient {
    package enum End: Equatable {
        case eof
        case error(Int32)
        case timedOut
    }

    package struct ClientError: Error, CustomStringConvertible {
        package var description: String
        package init(description: String) { self.description = description }
    }

    package let fd: Int32

    package init(port: Int, host: String = "127.0.0.1") throws {
        // `self.fd` is assigned only on success: a class init that throws after every stored
        // property is set still runs `deinit`, which would close the descriptor a second time
        // (by then possibly another thread's socket or an event loop's eventfd).
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ClientError(description: "socket errno \(errno)") }
        guard cposix_connect(fd, host, Int32(port)) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw ClientError(description: "connect errno \(code)")
        }
        _ = cposix_set_int_option(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        self.fd = fd
    }

    deinit { Glibc.close(fd) }

    package func send(_ text: String) { send(Array(text.utf8)) }

    package func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { cposix_send(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n <= 0 { return }
            offset += n
        }
    }

    /// Half-closes the sending side.
    package func shutdownWrite() { _ = shutdown(fd, Int32(SHUT_WR)) }

    /// Aborts with RST.
    package func reset() { _ = cposix_set_linger_reset(fd); _ = shutdown(fd, Int32(SHUT_RDWR)) }

    /// One read: bytes, or how the stream ended, within `timeoutMs`.
    package func readOnce(timeoutMs: Int32 = TestTime.budgetMs(5000)) -> Result<[UInt8], EndError> {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&pfd, 1, timeoutMs)
        if ready == 0 { return .failure(EndError(end: .timedOut)) }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 { return .success(Array(buffer[..<n])) }
        if n == 0 { return .failure(EndError(end: .eof)) }
        return .failure(EndError(end: .error(errno)))
    }

    package struct EndError: Error, Equatable {
        package var end: End
        package init(end: End) { self.end = end }
    }

    /// Reads until the stream ends (or `timeoutMs` of silence); returns the bytes and the ending.
    package func readToEnd(timeoutMs: Int32 = TestTime.budgetMs(5000)) -> (bytes: [UInt8], end: End) {
        var all: [UInt8] = []
        for _ in 0..<100_000 {
            switch readOnce(timeoutMs: timeoutMs) {
            case .success(let bytes): all += bytes
            case .failure(let error): return (all, error.end)
            }
        }
        return (all, .timedOut)
    }

    /// Reads exactly `count` bytes, or fewer if the stream ends or stays silent.
    package func read(count: Int, timeoutMs: Int32 = TestTime.budgetMs(5000)) -> [UInt8] {
        var all: [UInt8] = []
        while all.count < count {
            guard case .success(let bytes) = readOnce(timeoutMs: timeoutMs) else { break }
            all += bytes
        }
        return all
    }

    /// Reads one response framed by `Content-Length`; returns its full text, or nil.
    package func readResponse(timeoutMs: Int32 = TestTime.budgetMs(5000)) -> String? {
        for _ in 0..<1000 {
            if let response = HTTPResponseText.frame(&pending) { return String(decoding: response, as: UTF8.self) }
            guard case .success(let bytes) = readOnce(timeoutMs: timeoutMs) else { return nil }
            pending += bytes
        }
        return nil
    }

    /// Bytes received after the last complete response.
    private var pending: [UInt8] = []
}

/// Open file descriptors of this process.
package func openDescriptorCount() -> Int {
    guard let dir = opendir("/proc/self/fd") else { return -1 }
    defer { closedir(dir) }
    var count = 0
    while readdir(dir) != nil { count += 1 }
    return count
}

/// Descriptors of this process that are TCP sockets whose local port is one of `ports`
/// (listeners, accepted connections, reserved ports), found through /proc/net/tcp{,6} inodes.
/// Unlike a plain descriptor count, other tests running meanwhile do not disturb it.
package func socketDescriptors(localPorts ports: Set<Int>) -> Int {
    var inodes = Set<String>()
    for table in ["/proc/net/tcp", "/proc/net/tcp6"] {
        guard let file = fopen(table, "r") else { continue }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 512)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let columns = text.split(separator: " ", omittingEmptySubsequences: true)
            guard columns.count > 9, let colon = columns[1].lastIndex(of: ":"),
                let port = Int(columns[1][columns[1].index(after: colon)...], radix: 16), ports.contains(port)
            else { continue }
            inodes.insert(String(columns[9]))
        }
    }
    guard let dir = opendir("/proc/self/fd") else { return -1 }
    defer { closedir(dir) }
    var count = 0
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        var target = [CChar](repeating: 0, count: 128)
        let n = readlink("/proc/self/fd/\(name)", &target, target.count - 1)
        guard n > 0 else { continue }
        let link = String(decoding: target[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if link.hasPrefix("socket:["), inodes.contains(String(link.dropFirst(8).dropLast())) { count += 1 }
    }
    return count
}
