// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import COpenSSL
import CPosix
import HarnessHTTP
import HarnessWebSocket

/// A blocking loopback WebSocket client for socket tests, plain or TLS: it sends masked frames with
/// deterministic keys (or any raw bytes) and decodes what the server sends. Every wait is bounded
/// by `poll` timeouts. Use it from synchronous tests only (it blocks its thread).
package final class WebSocketTestClient {
    package typealias End = BlockingTestClient.End

    package let fd: Int32
    private var ctx: OpaquePointer?
    private var ssl: OpaquePointer?
    /// Client frames, masked with 0x37FA213D, 0x01020304, ... in turn.
    package var encoder = WebSocketFrameEncoder.client(
        maskSource: FixedMaskSource([WebSocketMaskKey(0x37, 0xFA, 0x21, 0x3D), WebSocketMaskKey(rawValue: 0x0102_0304)]))
    /// Server frames not yet read.
    private var decoder = WebSocketFrameDecoder(role: .client, maxPayloadLength: 64 << 20)
    /// Bytes received before the response head was complete.
    private var headBuffer: [UInt8] = []

    /// Connects to `127.0.0.1:port`; with `trustedCAPEM`, speaks TLS (verifying the server for `localhost`).
    package init(port: Int, trustedCAPEM: String? = nil, timeoutMs: Int32 = 5000) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw BlockingTestClient.ClientError(description: "socket errno \(errno)") }
        guard cposix_connect(fd, "127.0.0.1", Int32(port)) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw BlockingTestClient.ClientError(description: "connect errno \(code)")
        }
        _ = cposix_set_int_option(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
        var timeout = timeval(tv_sec: Int(timeoutMs / 1000), tv_usec: Int(timeoutMs % 1000) * 1000)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        self.fd = fd
        if let trustedCAPEM { try startTLS(trustedCAPEM) }
    }

    deinit {
        if let ssl { SSL_free(ssl) }
        if let ctx { SSL_CTX_free(ctx) }
        Glibc.close(fd)
    }

    private func startTLS(_ pem: String) throws {
        let ctx = try TLSTestClient.makeContext(TLSClientOptions(trustedCAPEM: pem))
        self.ctx = ctx
        guard let ssl = TLSTestClient.makeSession(ctx, fd: fd, host: "localhost") else { throw BlockingTestClient.ClientError(description: "SSL_new") }
        self.ssl = ssl
        guard SSL_connect(ssl) == 1 else { throw BlockingTestClient.ClientError(description: "TLS handshake failed") }
    }

    // MARK: - Bytes

    /// Sends `bytes` completely (or until the connection fails).
    package func send(_ bytes: [UInt8]) {
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

    /// One read of whatever arrives within `timeoutMs`, or how the stream ended.
    package func readOnce(timeoutMs: Int32 = 5000) -> Result<[UInt8], BlockingTestClient.EndError> {
        if ssl == nil || SSL_pending(ssl) == 0 {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&pfd, 1, timeoutMs) == 0 { return .failure(.init(end: .timedOut)) }
        }
        var buffer = [UInt8](repeating: 0, count: 65536)
        if let ssl {
            let n = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if n > 0 { return .success(Array(buffer[..<Int(n)])) }
            let error = SSL_get_error(ssl, n)
            if error == SSL_ERROR_ZERO_RETURN || (error == SSL_ERROR_SYSCALL && errno == 0) { return .failure(.init(end: .eof)) }
            if error == SSL_ERROR_WANT_READ { return .success([]) }
            return .failure(.init(end: .error(errno == 0 ? -1 : errno)))
        }
        let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 { return .success(Array(buffer[..<n])) }
        if n == 0 { return .failure(.init(end: .eof)) }
        return .failure(.init(end: .error(errno)))
    }

    /// Half-closes the sending side (FIN).
    package func shutdownWrite() { _ = shutdown(fd, Int32(SHUT_WR)) }

    // MARK: - Handshake

    /// Sends an upgrade request for `target` (plus `pipelined` bytes in the same write) and reads
    /// the response head. Returns the head's exact text and the parsed head; bytes behind it are
    /// kept for `readFrame`.
    package func handshake(
        target: String = "/ws", keyBytes: [UInt8] = Array("the sample nonce".utf8),
        extraHeaders: HTTPHeaders = HTTPHeaders(), pipelined: [UInt8] = [], timeoutMs: Int32 = 5000
    ) throws -> (text: String, head: HTTPResponseHead) {
        let request = WebSocketClientHandshake(host: "127.0.0.1", target: target, keyBytes: keyBytes, extraHeaders: extraHeaders)
        send(request.requestHead + pipelined)
        return try readResponseHead(timeoutMs: timeoutMs)
    }

    /// Reads an HTTP response head (bounded); its exact text and the parsed value. `afterSkipping`
    /// drops that many bytes first (the body of an earlier response on the same connection).
    package func readResponseHead(afterSkipping skip: Int = 0, timeoutMs: Int32 = 5000) throws -> (text: String, head: HTTPResponseHead) {
        var toSkip = skip
        for _ in 0..<1000 {
            if toSkip > 0 {
                let dropped = min(toSkip, headBuffer.count)
                headBuffer.removeFirst(dropped)
                toSkip -= dropped
            }
            if toSkip == 0, let (head, consumed) = try HTTPResponseHead.parse(headBuffer) {
                let text = String(decoding: headBuffer[0..<consumed], as: UTF8.self)
                headBuffer.removeFirst(consumed)
                if head.status == 101 {
                    // Frames follow a 101; anything else may be followed by more HTTP.
                    decoder.feed(headBuffer)
                    headBuffer = []
                }
                return (text, head)
            }
            switch readOnce(timeoutMs: timeoutMs) {
            case .success(let bytes): headBuffer += bytes
            case .failure(let error):
                throw BlockingTestClient.ClientError(description: "no response head: \(error.end), got \(String(decoding: headBuffer, as: UTF8.self))")
            }
        }
        throw BlockingTestClient.ClientError(description: "response head never completed")
    }

    /// Reads until the server closes (or `timeoutMs` of silence): every byte, as text.
    package func readRawToEnd(timeoutMs: Int32 = 5000) -> (text: String, end: End) {
        var all = headBuffer
        headBuffer = []
        for _ in 0..<10_000 {
            switch readOnce(timeoutMs: timeoutMs) {
            case .success(let bytes): all += bytes
            case .failure(let error): return (String(decoding: all, as: UTF8.self), error.end)
            }
        }
        return (String(decoding: all, as: UTF8.self), .timedOut)
    }

    // MARK: - Frames

    /// Sends a masked text message, split into `fragments` frames.
    package func send(text: String, fragments: Int = 1) { send(encoder.encodeText(text, fragments: fragments)) }

    /// Sends a masked binary message.
    package func send(binary: [UInt8]) { send(encoder.encodeBinary(binary)) }

    /// Sends a masked close frame.
    package func sendClose(_ payload: WebSocketClosePayload?) { send(encoder.encodeClose(payload)) }

    /// The next frame from the server, or how the stream ended (`.eof`, `.timedOut`, `.error`).
    package func readFrame(timeoutMs: Int32 = 5000) -> Result<WebSocketFrame, BlockingTestClient.EndError> {
        for _ in 0..<100_000 {
            do {
                if let frame = try decoder.nextFrame() { return .success(frame) }
            } catch {
                return .failure(.init(end: .error(-2)))
            }
            switch readOnce(timeoutMs: timeoutMs) {
            case .success(let bytes): decoder.feed(bytes)
            case .failure(let error): return .failure(error)
            }
        }
        return .failure(.init(end: .timedOut))
    }

    /// Frames until the stream ends, and how it ended.
    package func readFramesToEnd(timeoutMs: Int32 = 5000) -> (frames: [WebSocketFrame], end: End) {
        var frames: [WebSocketFrame] = []
        for _ in 0..<100_000 {
            switch readFrame(timeoutMs: timeoutMs) {
            case .success(let frame): frames.append(frame)
            case .failure(let error): return (frames, error.end)
            }
        }
        return (frames, .timedOut)
    }
}
