// SPDX-License-Identifier: MIT
internal import COpenSSL
import CPosix
import Glibc

/// A server-side TLS stream over an accepted non-blocking socket.
///
/// Owned by one event-loop thread (not Sendable). It does not own the descriptor: the connection
/// closes it after this stream is released. OpenSSL writes with plain `write()`, so the process
/// must ignore SIGPIPE (`HTTPServer.start()` does), or a write to a reset peer would kill it.
///
/// With the context's record layer ``TLSRecordLayer/own``, a completed TLS 1.3 handshake with
/// one of the three AEAD suites (and nothing buffered in OpenSSL) hands the connection to a
/// ``DetachedTLSStream`` and frees the `SSL` object; otherwise OpenSSL carries the records.
///
/// Result mapping (`SSL_get_error`): WANT_READ → `.wantRead`, WANT_WRITE → `.wantWrite`,
/// ZERO_RETURN (close_notify, or a bare TCP EOF after the handshake) → `.eof`, SYSCALL → `.failed`
/// with errno, SSL → `.failed(errno: 0, …)` with OpenSSL's reasons. The last failure is also
/// kept as a typed ``TLSError`` in ``lastError``.
final class ServerTLSStream: StreamIO {
    private var ssl: OpaquePointer?
    private let fd: Int32
    /// The secrets the key-log callback catches during the handshake (own record layer only).
    private var capture: TLS13SecretCapture?
    /// The record layer after the `SSL` was freed.
    private var detached: DetachedTLSStream?
    private var detachedALPN: String?
    private var closeNotifySent = false
    private var ownError: TLSError?

    init(context: TLSServerContext, fd: Int32) throws(TLSError) {
        OpenSSLErrorStack.clear()
        guard let ssl = SSL_new(context.pointer) else {
            throw .streamCreation(step: "SSL_new", openSSLErrors: OpenSSLErrorStack.drain())
        }
        guard SSL_set_fd(ssl, fd) == 1 else {
            let errors = OpenSSLErrorStack.drain()
            SSL_free(ssl)
            throw .streamCreation(step: "SSL_set_fd", openSSLErrors: errors)
        }
        if context.recordLayer == .own {
            let capture = TLS13SecretCapture()
            if capture.attach(to: ssl) { self.capture = capture }
        }
        SSL_set_accept_state(ssl)
        self.ssl = ssl
        self.fd = fd
    }

    deinit { if let ssl { SSL_free(ssl) } }

    /// The most recent failure, with the drained OpenSSL error stack or the record layer's reason.
    var lastError: TLSError? { detached?.lastError ?? ownError }

    /// Whether the handshake has completed.
    var isHandshakeComplete: Bool { ssl.map { SSL_is_init_finished($0) == 1 } ?? true }

    /// Whether the stream carries the records itself (its `SSL` was freed after the handshake).
    var isDetached: Bool { detached != nil }

    /// The detached record layer, for tests that look at what it holds.
    var detachedStream: DetachedTLSStream? { detached }

    /// The negotiated protocol ("TLSv1.3"), meaningful after the handshake.
    var protocolVersion: String { ssl.map { String(cString: SSL_get_version($0)) } ?? "TLSv1.3" }

    /// The ALPN protocol the server selected, or nil.
    var selectedALPN: String? {
        guard let ssl else { return detachedALPN }
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    func handshake() -> IOResult {
        guard let ssl, !isHandshakeComplete else { return .bytes(0) }
        let (rc, savedErrno) = attempt { SSL_accept(ssl) }
        if rc == 1 {
            detachIfPossible(ssl)
            return .bytes(0)
        }
        return outcome(rc, errno: savedErrno, operation: "handshake")
    }

    /// Hands the records to a ``DetachedTLSStream`` and frees the `SSL` when the handshake was
    /// TLS 1.3 with a suite it carries and OpenSSL holds no received bytes; else keeps OpenSSL.
    private func detachIfPossible(_ ssl: OpaquePointer) {
        guard let capture else { return }
        _ = SSL_set_ex_data(ssl, TLS13SecretCapture.exDataIndex, nil)
        self.capture = nil
        guard SSL_version(ssl) == TLS1_3_VERSION,
              let cipher = SSL_get_current_cipher(ssl),
              let suite = TLS13CipherSuite(rawValue: SSL_CIPHER_get_protocol_id(cipher)), suite.cipher != nil,
              SSL_has_pending(ssl) == 0, SSL_pending(ssl) == 0,
              capture.clientSecret.count == suite.hashLength, capture.serverSecret.count == suite.hashLength,
              let stream = try? DetachedTLSStream(
                fd: fd, suite: suite, clientSecret: capture.clientSecret, serverSecret: capture.serverSecret)
        else { return }
        detachedALPN = selectedALPN
        detached = stream
        SSL_free(ssl)
        self.ssl = nil
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        if let detached { return detached.read(into: buffer) }
        guard let ssl, let base = buffer.baseAddress, buffer.count > 0 else { return .bytes(0) }
        let (rc, savedErrno) = attempt { SSL_read(ssl, base, Int32(clamping: buffer.count)) }
        if rc > 0 { return .bytes(Int(rc)) }
        return outcome(rc, errno: savedErrno, operation: "read")
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> IOResult {
        if let detached { return detached.write(bytes) }
        guard let ssl, let base = bytes.baseAddress, bytes.count > 0 else { return .bytes(0) }
        let (rc, savedErrno) = attempt { SSL_write(ssl, base, Int32(clamping: bytes.count)) }
        if rc > 0 { return .bytes(Int(rc)) }
        return outcome(rc, errno: savedErrno, operation: "write")
    }

    /// Detached: the pieces share records (up to 16 KB each). OpenSSL: one `SSL_write` per piece.
    func write(gathering pieces: UnsafeBufferPointer<UnsafeRawBufferPointer>) -> IOResult {
        if let detached { return detached.write(gathering: pieces) }
        return writePiecesInTurn(pieces)
    }

    /// Runs one SSL call with a clean error stack and returns its result with the errno it left
    /// (errno is only meaningful right after the call, before anything else can change it).
    private func attempt(_ call: () -> Int32) -> (rc: Int32, errno: Int32) {
        OpenSSLErrorStack.clear()
        errno = 0
        let rc = call()
        return (rc, errno)
    }

    /// Sends close_notify once if the handshake completed (best effort, never waits for the
    /// peer's), then shuts down the socket's write side.
    func shutdownWrite() {
        if let detached {
            detached.shutdownWrite()
            return
        }
        if let ssl, isHandshakeComplete && !closeNotifySent {
            closeNotifySent = true
            OpenSSLErrorStack.clear()
            _ = SSL_shutdown(ssl)
            OpenSSLErrorStack.clear()
        }
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    private func outcome(_ rc: Int32, errno savedErrno: Int32, operation: String) -> IOResult {
        guard let ssl else { return .failed(errno: 0, detail: "TLS \(operation) without a session") }
        let code = SSL_get_error(ssl, rc)
        switch code {
        case SSL_ERROR_WANT_READ:
            return .wantRead
        case SSL_ERROR_WANT_WRITE:
            return .wantWrite
        case SSL_ERROR_ZERO_RETURN:
            return .eof
        case SSL_ERROR_SYSCALL:
            let errors = OpenSSLErrorStack.drain()
            if savedErrno == 0 && errors.isEmpty && isHandshakeComplete { return .eof }
            return fail(operation, errno: savedErrno, errors: errors.isEmpty ? ["unexpected EOF"] : errors)
        default:
            return fail(operation, errno: 0, errors: OpenSSLErrorStack.drain())
        }
    }

    private func fail(_ operation: String, errno code: Int32, errors: [String]) -> IOResult {
        let error = TLSError.connection(operation: operation, errno: code, openSSLErrors: errors)
        ownError = error
        return .failed(errno: code, detail: error.description)
    }
}
