// SPDX-License-Identifier: MIT
import CPosix
import Foundation
import Glibc
import HarnessHTTP
import HarnessWebSocket
import HarnessServerCore
import Synchronization

/// What a scripted peer received from the client under test.
package enum PeerReceived: Sendable, Hashable {
    case text(String)
    case ping
    case pong
    /// The client's close frame (nil: no code).
    case close(code: Int?)
    /// The connection ended (EOF, reset, or a protocol violation by the client).
    case ended(String)
}

/// A WebSocket server for clients' real-socket tests: 127.0.0.1, port 0, plain or TLS (the
/// server core's own TLS streams and test CA). Every accepted connection is upgraded with
/// ``WebSocketServerHandshake`` and becomes a ``ScriptedWebSocketPeer`` the test drives; `onOpen`
/// runs right after the 101 answer (e.g. to send `connection_established`).
package final class ScriptedWebSocketServer: Sendable {
    package let port: Int
    /// Upgraded connections in accept order.
    package let peers = Waitable<ScriptedWebSocketPeer>()
    private let listenFD: Int32
    private let streams: StreamFactory
    private let stopped = Mutex(false)
    private let onOpen: @Sendable (ScriptedWebSocketPeer) -> Void
    private let responseHead: @Sendable (WebSocketUpgrade) -> [UInt8]
    private let onReceive: @Sendable (ScriptedWebSocketPeer, PeerReceived) -> Void

    /// - Parameters:
    ///   - responseHead: the 101 answer to send (a test may spoil it); the correct one by default.
    ///   - onReceive: called on the peer's thread with everything it receives, in order (to bridge
    ///     a server core); it is also recorded in the peer's `received`.
    package init(tls material: TLSMaterial? = nil, onOpen: @escaping @Sendable (ScriptedWebSocketPeer) -> Void = { _ in },
         responseHead: @escaping @Sendable (WebSocketUpgrade) -> [UInt8] = { $0.responseHead() },
         onReceive: @escaping @Sendable (ScriptedWebSocketPeer, PeerReceived) -> Void = { _, _ in }) throws
    {
        self.responseHead = responseHead
        self.onReceive = onReceive
        let (fd, port) = try loopbackListener(backlog: 16)
        listenFD = fd
        self.port = port
        streams = try material.map { try StreamFactory.tls(material: $0) } ?? .plain
        self.onOpen = onOpen
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    deinit { stop() }

    /// Stops accepting and ends every peer.
    package func stop() {
        guard stopped.withLock({ s in defer { s = true }; return !s }) else { return }
        shutdown(listenFD, Int32(SHUT_RDWR))
        for peer in peers.items { peer.stop() }
    }

    private func acceptLoop() {
        acceptConnections(on: listenFD, stopped: { stopped.withLock { $0 } }) { fd in
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            return true
        } serve: { [self] fd, index in
            serve(fd: fd, index: index)
        }
    }

    private func serve(fd: Int32, index: Int) {
        defer { close(fd) }
        guard let stream = try? streams.make(fd, .none) else { return }
        let io = PeerIO(fd: fd, stream: stream)
        guard io.handshake(), let (target, headers, leftover) = io.readRequestHead() else { return }
        guard case .success(let upgrade) = WebSocketServerHandshake.validate(method: "GET", headers: headers) else {
            _ = io.writeAll(Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
            return
        }
        guard io.writeAll(responseHead(upgrade)) else { return }
        let peer = ScriptedWebSocketPeer(index: index, target: target, headers: headers, onReceive: onReceive)
        if stopped.withLock({ $0 }) { peer.stop() }
        peers.append(peer)
        onOpen(peer)
        peer.run(io: io, leftover: leftover)
    }
}

/// One upgraded connection, driven by the test from any thread; its own thread does all the I/O.
package final class ScriptedWebSocketPeer: Sendable {
    package let index: Int
    /// The upgrade request's target, e.g. `/app/KEY?client=…`.
    package let target: String
    package let headers: HTTPHeaders
    /// Everything the client sent, in order.
    package let received = Waitable<PeerReceived>()
    /// Frames to write, and whether to close the connection after them (one lock, so a close is
    /// never seen without its frame).
    private let outbox = Mutex<(frames: [[UInt8]], thenClose: Bool)>(([], false))
    private let stopped = Mutex(false)
    private let wakeFD = cposix_eventfd()

    private let onReceive: @Sendable (ScriptedWebSocketPeer, PeerReceived) -> Void

    init(index: Int, target: String, headers: HTTPHeaders,
         onReceive: @escaping @Sendable (ScriptedWebSocketPeer, PeerReceived) -> Void)
    {
        self.index = index
        self.target = target
        self.headers = headers
        self.onReceive = onReceive
    }

    private func record(_ item: PeerReceived) {
        onReceive(self, item)
        received.append(item)
    }

    deinit { close(wakeFD) }

    /// The values of the header fields named `name` (case-insensitive).
    package func headerValues(_ name: String) -> [String] {
        headers.values(for: name)
    }

    /// The query parameters of the upgrade target, in order.
    package var query: [(String, String)] {
        guard let query = target.split(separator: "?", maxSplits: 1).dropFirst().first else { return [] }
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            return (String(parts[0]), parts.count > 1 ? String(parts[1]) : "")
        }
    }

    /// Sends a text message, split into `fragments` frames (continuations) when more than one.
    package func sendText(_ text: String, fragments: Int = 1) {
        var encoder = WebSocketFrameEncoder.server
        enqueue(encoder.encodeText(text, fragments: fragments))
    }

    /// Sends these bytes as they are (several frames in one write, or a malformed frame).
    package func sendRaw(_ bytes: [UInt8]) { enqueue(bytes) }
    package func sendPing(_ payload: [UInt8] = []) { var encoder = WebSocketFrameEncoder.server; enqueue(encoder.encodePing(payload)) }

    /// Sends a close frame with `code` and closes the TCP connection after it.
    package func sendClose(code: Int, reason: String = "") {
        var encoder = WebSocketFrameEncoder.server
        let frame = encoder.encodeClose(WebSocketClosePayload(code: WebSocketCloseCode(UInt16(code)), reason: reason))
        outbox.withLock { box in
            box.frames.append(frame)
            box.thenClose = true
        }
        wake()
    }

    /// `connection_established` as the live service sends it.
    package func sendEstablished(socketID: String, activityTimeout: Int = 120) {
        sendText(#"{"event":"pusher:connection_established","data":"{\"socket_id\":\"\#(socketID)\",\"activity_timeout\":\#(activityTimeout)}"}"#)
    }

    package func stop() {
        stopped.withLock { $0 = true }
        wake()
    }

    /// Waits for the first text message from the client matching `predicate`.
    package func text(timeout: Double = 5, where predicate: @escaping @Sendable (String) -> Bool) async -> String? {
        let items = await received.wait(timeout: timeout) { items in
            items.contains { if case .text(let t) = $0 { predicate(t) } else { false } }
        }
        return items?.lazy.compactMap { if case .text(let t) = $0, predicate(t) { t } else { nil } }.first
    }

    private func enqueue(_ bytes: [UInt8]) {
        outbox.withLock { $0.frames.append(bytes) }
        wake()
    }

    private func wake() {
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { write(wakeFD, $0.baseAddress, 8) }
    }

    fileprivate func run(io: PeerIO, leftover: [UInt8]) {
        var decoder = WebSocketFrameDecoder(role: .server)
        var assembler = WebSocketMessageAssembler()
        decoder.feed(leftover)
        var encoder = WebSocketFrameEncoder.server
        // Bounded: ends on stop, close or EOF; each wait is at most one second.
        while !stopped.withLock({ $0 }) {
            let (frames, thenClose) = outbox.withLock { box in
                defer { box.frames = [] }
                return (box.frames, box.thenClose)
            }
            for frame in frames {
                guard io.writeAll(frame) else { record(.ended("write failed")); return }
            }
            if thenClose {
                record(.ended("closed by the server"))
                return
            }
            var fds = [pollfd(fd: io.fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wakeFD, events: Int16(POLLIN), revents: 0)]
            // readAvailable reads until the stream wants more, so nothing stays buffered where poll cannot see it.
            _ = poll(&fds, 2, 1000)
            if fds[1].revents != 0 {
                var value: UInt64 = 0
                _ = withUnsafeMutableBytes(of: &value) { read(wakeFD, $0.baseAddress, 8) }
            }
            switch io.readAvailable() {
            case .some(let bytes) where bytes.isEmpty:
                continue
            case .some(let bytes):
                decoder.feed(bytes)
            case .none:
                record(.ended("end of stream"))
                return
            }
            do {
                while let frame = try decoder.nextFrame() {
                    guard let message = try assembler.push(frame) else { continue }
                    switch message {
                    case .text(let text): record(.text(text))
                    case .binary: record(.ended("binary frame"))
                    case .ping(let payload):
                        record(.ping)
                        _ = io.writeAll(encoder.encodePong(payload))
                    case .pong: record(.pong)
                    case .close(let payload):
                        record(.close(code: payload.map { Int($0.code.rawValue) }))
                        _ = io.writeAll(encoder.encodeClose(payload))
                        record(.ended("close handshake"))
                        return
                    }
                }
            } catch {
                record(.ended("protocol violation: \(error)"))
                return
            }
        }
    }
}

/// Blocking helpers over the mock server's non-blocking streams (plain or TLS) for one peer thread.
private final class PeerIO {
    let fd: Int32
    let stream: any StreamIO
    private static let budgetMilliseconds: Int32 = 5000

    init(fd: Int32, stream: any StreamIO) {
        self.fd = fd
        self.stream = stream
    }

    private func wait(_ result: IOResult) -> Bool {
        var pfd = pollfd(fd: fd, events: Int16(result == .wantWrite ? POLLOUT : POLLIN), revents: 0)
        return poll(&pfd, 1, Self.budgetMilliseconds) > 0
    }

    func handshake() -> Bool {
        for _ in 0..<1000 {
            let result = stream.handshake()
            switch result {
            case .bytes: return true
            case .wantRead, .wantWrite: guard wait(result) else { return false }
            case .eof, .failed: return false
            }
        }
        return false
    }

    func writeAll(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        for _ in 0..<100_000 where offset < bytes.count {
            let result = bytes[offset...].withUnsafeBytes { stream.write($0) }
            switch result {
            case .bytes(let n): offset += n
            case .wantRead, .wantWrite: guard wait(result) else { return false }
            case .eof, .failed: return false
            }
        }
        return offset == bytes.count
    }

    /// What can be read now: bytes (empty when nothing is there), or nil at end of stream or failure.
    func readAvailable() -> [UInt8]? {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        for _ in 0..<64 {
            let result = buffer.withUnsafeMutableBytes { stream.read(into: $0) }
            switch result {
            case .bytes(let n): out += buffer[0..<n]
            case .wantRead, .wantWrite: return out
            case .eof, .failed: return out.isEmpty ? nil : out
            }
        }
        return out
    }

    /// The upgrade request: target, header fields, and bytes after the head.
    func readRequestHead() -> (String, HTTPHeaders, [UInt8])? {
        var bytes: [UInt8] = []
        for _ in 0..<256 {
            if let end = Self.headEnd(bytes) {
                let text = String(decoding: bytes[0..<end], as: UTF8.self)
                let lines = text.components(separatedBy: "\r\n")
                let parts = lines[0].split(separator: " ")
                guard parts.count == 3 else { return nil }
                let headers = HTTPHeaders(lines.dropFirst().compactMap { line -> (String, String)? in
                    guard let colon = line.firstIndex(of: ":") else { return nil }
                    return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
                })
                return (String(parts[1]), headers, Array(bytes[(end + 4)...]))
            }
            guard let chunk = readAvailable() else { return nil }
            if chunk.isEmpty {
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, Self.budgetMilliseconds) > 0 else { return nil }
            }
            bytes += chunk
        }
        return nil
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 { return i }
        return nil
    }
}
