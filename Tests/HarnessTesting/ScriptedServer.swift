// SPDX-License-Identifier: MIT
import Foundation
import CPosix
import Glibc
import Synchronization

/// A request as the scripted server saw it.
package struct SeenRequest: Sendable {
    package let method: String
    package let target: String
    package let headers: [String: String]
    package let body: [UInt8]
    /// Monotonic milliseconds at arrival.
    package let arrivalMs: Int64

    package var path: String { String(target.split(separator: "?", maxSplits: 1)[0]) }
    package var query: [String: String] {
        guard let q = target.split(separator: "?", maxSplits: 1).dropFirst().first else { return [:] }
        var out: [String: String] = [:]
        for pair in q.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1)
            out[String(kv[0])] = kv.count > 1 ? String(kv[1]) : ""
        }
        return out
    }
}

/// What the scripted server does with one request.
package enum ScriptedReply: Sendable {
    /// Writes these bytes, then closes.
    case bytes([UInt8])
    /// Closes with a TCP reset (SO_LINGER 0).
    case reset
    /// Closes without answering.
    case close
    /// Holds the connection open without answering until the server stops.
    case stall

    /// A complete HTTP response.
    package static func http(_ status: Int, _ body: String, contentType: String = "text/javascript; charset=\"UTF-8\"") -> ScriptedReply {
        let head = "HTTP/1.1 \(status) X\r\nContent-Type: \(contentType)\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        return .bytes(Array((head + body).utf8))
    }
}

/// A tiny HTTP server on 127.0.0.1:0 with real sockets. By default each connection gets one
/// request and the reply the handler chooses; in keep-alive mode a connection serves request after
/// request. Every request is recorded in `journal`.
package final class ScriptedServer: Sendable {
    /// How connections are served.
    private enum Mode: Sendable {
        /// One request, the handler's reply, then the connection ends.
        case oneRequest(@Sendable (SeenRequest) -> ScriptedReply)
        /// Up to 100 requests; bytes for each (given its 0-based index on the connection), nil to
        /// close without answering.
        case keepAlive(@Sendable (Int, SeenRequest) -> [UInt8]?)
    }

    package let port: Int
    package let journal = Waitable<SeenRequest>()
    private let listenFD: Int32
    private let mode: Mode
    private let open = Mutex<[Int32]>([])
    private let stopped = Mutex(false)
    private let acceptedCount = Mutex(0)

    /// One request per connection, answered as `handler` says.
    package convenience init(handler: @escaping @Sendable (SeenRequest) -> ScriptedReply) throws {
        try self.init(mode: .oneRequest(handler))
    }

    /// Keep-alive: `reply(indexOnConnection, request)` gives each response's bytes; nil closes the
    /// connection without answering.
    package convenience init(keepAlive reply: @escaping @Sendable (Int, SeenRequest) -> [UInt8]?) throws {
        try self.init(mode: .keepAlive(reply))
    }

    private init(mode: Mode) throws {
        let (fd, port) = try loopbackListener(backlog: 64)
        self.port = port
        listenFD = fd
        self.mode = mode
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    /// Connections accepted so far.
    package var accepted: Int { acceptedCount.withLock { $0 } }

    /// A 200 response with a JSON body and `Content-Length` (the connection stays open).
    package static func keepAliveResponse(_ body: String, extraHeaders: String = "") -> [UInt8] {
        Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\(extraHeaders)\r\n\(body)".utf8)
    }

    package var origin: String { "127.0.0.1:\(port)" }

    /// Stops accepting and wakes every connection. A descriptor is only ever shut down while it is
    /// in `open`, and it leaves `open` under the same lock in which it is closed (`release`), so a
    /// number reused by another socket of the process (another test's) is never touched.
    package func stop() {
        guard stopped.withLock({ s in defer { s = true }; return !s }) else { return }
        shutdown(listenFD, Int32(SHUT_RDWR))
        open.withLock { fds in
            for fd in fds { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    /// Closes a connection's descriptor and forgets it, atomically with respect to `stop()`.
    private func release(_ fd: Int32) {
        open.withLock { fds in
            fds.removeAll { $0 == fd }
            close(fd)
        }
    }

    deinit { stop() }

    private func acceptLoop() {
        acceptConnections(on: listenFD, stopped: { stopped.withLock { $0 } }) { [self] client in
            open.withLock { fds in
                if stopped.withLock({ $0 }) { return false }
                fds.append(client)
                acceptedCount.withLock { $0 += 1 }
                return true
            }
        } serve: { [self] client, _ in
            switch mode {
            case .oneRequest(let handler): serve(client, handler)
            case .keepAlive(let reply): serveKeepAlive(client, reply)
            }
        }
    }

    private func serve(_ fd: Int32, _ handler: @Sendable (SeenRequest) -> ScriptedReply) {
        var buffer: [UInt8] = []
        guard let request = readRequest(fd, &buffer) else {
            release(fd)
            return
        }
        journal.append(request)
        switch handler(request) {
        case .bytes(let bytes):
            sendAll(bytes, on: fd)
            shutdown(fd, Int32(SHUT_WR))
            var sink = [UInt8](repeating: 0, count: 256)
            while recv(fd, &sink, sink.count, 0) > 0 {}
            release(fd)
        case .reset:
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            release(fd)
        case .close:
            release(fd)
        case .stall:
            var sink = [UInt8](repeating: 0, count: 256)
            while recv(fd, &sink, sink.count, 0) > 0 {}
            release(fd)
        }
    }

    private func serveKeepAlive(_ fd: Int32, _ reply: @Sendable (Int, SeenRequest) -> [UInt8]?) {
        defer { release(fd) }
        var buffer: [UInt8] = []
        for index in 0..<100 {
            guard let request = readRequest(fd, &buffer) else { return }
            journal.append(request)
            guard let bytes = reply(index, request), sendAll(bytes, on: fd) else { return }
        }
    }

    /// Writes all of `bytes`; false if the connection failed first.
    @discardableResult
    private func sendAll(_ bytes: [UInt8], on fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    /// The next request on `fd`; `buffer` keeps bytes read beyond it for the next call.
    private func readRequest(_ fd: Int32, _ buffer: inout [UInt8]) -> SeenRequest? {
        var chunk = [UInt8](repeating: 0, count: 4096)
        let terminator: [UInt8] = [13, 10, 13, 10]
        var headerEnd: Int?
        var round = 0
        while headerEnd == nil, round < 100_000 {
            defer { round += 1 }
            if round > 0 || buffer.count < 4 {
                let n = recv(fd, &chunk, chunk.count, 0)
                if n <= 0 { return nil }
                buffer += chunk[0..<n]
            }
            if buffer.count >= 4 {
                for i in 0...(buffer.count - 4) where Array(buffer[i..<i + 4]) == terminator {
                    headerEnd = i
                    break
                }
            }
        }
        guard let headerEnd else { return nil }
        let head = String(decoding: buffer[0..<headerEnd], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let parts = lines[0].split(separator: " ")
        guard parts.count == 3 else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        buffer.removeFirst(headerEnd + 4)
        let length = Int(headers["content-length"] ?? "0") ?? 0
        while buffer.count < length {
            let n = recv(fd, &chunk, chunk.count, 0)
            if n <= 0 { return nil }
            buffer += chunk[0..<n]
        }
        let body = Array(buffer.prefix(length))
        buffer.removeFirst(length)
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return SeenRequest(method: String(parts[0]), target: String(parts[1]), headers: headers, body: body,
                           arrivalMs: Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000)
    }
}

/// A port that is bound but not listening: connecting to it is refused.
package final class RefusingPort: Sendable {
    package let port: Int
    private let fd: Int32

    package init() {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        _ = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        self.fd = fd
    }

    deinit { close(fd) }
}

/// The accept loop of the tests' threaded servers: accepts on `listenFD` until it is shut down or
/// `stopped` says so, and hands each connection `admit` takes (false: closed, and accepting ends)
/// to `serve` on a thread of its own, with its 1-based accept number. The listening descriptor is
/// closed here, by the only thread that uses it, once accepting ends.
package func acceptConnections(
    on listenFD: Int32, stopped: () -> Bool, admit: (Int32) -> Bool,
    serve: @escaping @Sendable (Int32, Int) -> Void
) {
    defer { close(listenFD) }
    var count = 0
    while !stopped() {
        let client = accept(listenFD, nil, nil)
        if client >= 0 { _ = fcntl(client, F_SETFD, FD_CLOEXEC) }  // not inherited by processes tests start
        if client < 0 {
            if errno == EINTR { continue }
            return
        }
        guard admit(client) else {
            close(client)
            return
        }
        count += 1
        let index = count
        let thread = Thread { serve(client, index) }
        thread.start()
    }
}

/// A TCP listener on 127.0.0.1 at a free port (port 0), for the tests' own servers.
package func loopbackListener(backlog: Int32) throws -> (fd: Int32, port: Int) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    var one: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard bound == 0, listen(fd, backlog) == 0 else {
        close(fd)
        throw POSIXError(.EADDRINUSE)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { _ = getsockname(fd, $0, &length) }
    }
    return (fd, Int(UInt16(bigEndian: address.sin_port)))
}
