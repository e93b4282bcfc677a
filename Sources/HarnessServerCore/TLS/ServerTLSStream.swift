// SPDX-License-Identifier: MIT
internal import COpenSSL
import CPosix
import Glibc
import CPosix

/// A server-side TLS stream over an accepted non-blocking socket.
///
/// Owned by one event-loop thread (not Sendable). It does not own the descriptor: the connection
/// closes it after this stream is released. OpenSSL writes with plain `write()`, so the process
/// must ignore SIGPIPE (`HTTPServer.start()` does), or a write to a reset peer would kill it.
///
/// Result mapping (`SSL_get_error`): WANT_READ → `.wantRead`, WANT_WRITE → `.wantWrite`,
/// ZERO_RETURN (close_notify, or a bare TCP EOF after the handshake) → `.eof`, SYSCALL → `.failed`
/// with errno, SSL → `.failed(errno: 0, …)` with OpenSSL's reasons. The last failure is also
/// kept as a typed ``TLSError`` in ``lastError``.
final class ServerTLSStream: StreamIO {
    private let ssl: OpaquePointer
    private let fd: Int32
    private var closeNotifySent = false
    /// The most recent failure, with the drained OpenSSL error stack.
    private(set) var lastError: TLSError?

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
        SSL_set_accept_state(ssl)
        self.ssl = ssl
        self.fd = fd
    }

    deinit { SSL_free(ssl) }

    /// Whether the handshake has completed.
    var isHandshakeComplete: Bool { SSL_is_init_finished(ssl) == 1 }

    /// The negotiated protocol ("TLSv1.3"), meaningful after the handshake.
    var protocolVersion: String { String(cString: SSL_get_version(ssl)) }

    /// The ALPN protocol the server selected, or nil.
    var selectedALPN: String? {
        var data: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &data, &length)
        guard let data, length > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: Int(length)), as: UTF8.self)
    }

    func handshake() -> IOResult {
        if isHandshakeComplete { return .bytes(0) }
        let (rc, savedErrno) = attempt { SSL_accept(ssl) }
        if rc == 1 { return .bytes(0) }
        return outcome(rc, errno: savedErrno, operation: "handshake")
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return .bytes(0) }
        let (rc, savedErrno) = attempt { SSL_read(ssl, base, Int32(clamping: buffer.count)) }
        if rc > 0 { return .bytes(Int(rc)) }
        return outcome(rc, errno: savedErrno, operation: "read")
    }

    func write(_ bytes: UnsafeRawBufferPointer) -> IOResult {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return .bytes(0) }
        let (rc, savedErrno) = attempt { SSL_write(ssl, base, Int32(clamping: bytes.count)) }
        if rc > 0 { return .bytes(Int(rc)) }
        return outcome(rc, errno: savedErrno, operation: "write")
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
        if isHandshakeComplete && !closeNotifySent {
            closeNotifySent = true
            OpenSSLErrorStack.clear()
            _ = SSL_shutdown(ssl)
            OpenSSLErrorStack.clear()
        }
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    private func outcome(_ rc: Int32, errno savedErrno: Int32, operation: String) -> IOResult {
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
        lastError = error
        return .failed(errno: code, detail: error.description)
    }
}
