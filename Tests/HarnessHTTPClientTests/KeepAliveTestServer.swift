// SPDX-License-Identifier: MIT
import Foundation
import Glibc
import Synchronization

/// A loopback HTTP/1.1 server with real sockets that serves several requests per connection.
/// `reply(requestIndexOnConnection, target)` gives the bytes to send; `nil` closes the connection
/// without answering. Counts accepted connections.
final class KeepAliveTestServer: Sendable {
    let port: Int
    private let listenFD: Int32
    private let reply: @Sendable (Int, String) -> [UInt8]?
    private let state = Mutex<(accepted: Int, open: [Int32], stopped: Bool)>((0, [], false))

    init(reply: @escaping @Sendable (Int, String) -> [UInt8]?) throws {
        let (fd, port) = try loopbackListener(backlog: 16)
        self.port = port
        listenFD = fd
        self.reply = reply
        Thread { [self] in acceptLoop() }.start()
    }

    /// Connections accepted so far.
    var accepted: Int { state.withLock { $0.accepted } }

    func stop() {
        state.withLock { s in
            guard !s.stopped else { return }
            s.stopped = true
            shutdown(listenFD, Int32(SHUT_RDWR))
            for fd in s.open { shutdown(fd, Int32(SHUT_RDWR)) }
        }
    }

    deinit { stop() }

    static func response(_ body: String, extraHeaders: String = "") -> [UInt8] {
        Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\(extraHeaders)\r\n\(body)".utf8)
    }

    private func acceptLoop() {
        defer { close(listenFD) }
        for _ in 0..<1_000 {
            let client = accept(listenFD, nil, nil)
            if client < 0 { return }
            let kept = state.withLock { s in
                guard !s.stopped else { return false }
                s.accepted += 1
                s.open.append(client)
                return true
            }
            guard kept else { close(client); return }
            Thread { [self] in serve(client) }.start()
        }
    }

    private func serve(_ fd: Int32) {
        defer {
            state.withLock { s in
                s.open.removeAll { $0 == fd }
                close(fd)
            }
        }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        for index in 0..<100 {
            var headEnd: Int?
            while headEnd == nil {
                if let range = Self.find([13, 10, 13, 10], in: buffer) { headEnd = range; break }
                let n = recv(fd, &chunk, chunk.count, 0)
                if n <= 0 { return }
                buffer += chunk[0..<n]
            }
            let head = String(decoding: buffer[0..<headEnd!], as: UTF8.self)
            buffer.removeFirst(headEnd! + 4)
            let target = head.split(separator: " ").dropFirst().first.map(String.init) ?? ""
            guard let bytes = reply(index, target) else { return }
            var offset = 0
            while offset < bytes.count {
                let n = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { return }
                offset += n
            }
        }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count) where Array(haystack[i..<i + needle.count]) == needle { return i }
        return nil
    }
}
