// SPDX-License-Identifier: MIT
import COpenSSL
import Glibc

/// TLS over a connected non-blocking socket.
///
/// Handshake failures are classified as follows: a verify result other than `X509_V_OK`
/// (self-signed 18/19, unknown issuer 20/21, expired 10, not yet valid 9, hostname mismatch 62, …)
/// is `tlsUntrustedCertificate`; anything else — alerts, "wrong version number" from a plain-HTTP
/// server, no shared cipher, and EOF or reset during the handshake — is `tlsHandshakeFailed`.
// @unchecked Sendable: used by one thread at a time; handed over only through HTTPClient's pool lock.
final class ClientTLSStream: ByteStream, @unchecked Sendable {
    private let plain: PlainStream
    private let ssl: OpaquePointer

    init(plain: PlainStream, context: TLSContext, host: String, deadline: Deadline) throws(HTTPClientError) {
        self.plain = plain
        guard let ssl = SSL_new(context.ctx) else { throw .localFailure("SSL_new failed") }
        self.ssl = ssl
        SSL_set_fd(ssl, plain.fd)
        if Self.isIPAddress(host) {
            X509_VERIFY_PARAM_set1_ip_asc(SSL_get0_param(ssl), host)
        } else {
            _ = copenssl_set_tlsext_host_name(ssl, host)
            SSL_set1_host(ssl, host)
        }
        try handshake(deadline: deadline)
    }

    var fd: Int32 { plain.fd }
    var cancel: CancellationSignal {
        get { plain.cancel }
        set { plain.cancel = newValue }
    }

    deinit {
        SSL_free(ssl)
        plain.close()
    }

    static func isIPAddress(_ host: String) -> Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    private func handshake(deadline: Deadline) throws(HTTPClientError) {
        ERR_clear_error()
        while true {
            errno = 0
            let rc = SSL_connect(ssl)
            if rc == 1 { return }
            let error = SSL_get_error(ssl, rc)
            let savedErrno = errno
            switch error {
            case SSL_ERROR_WANT_READ:
                try waitReady(fd: plain.fd, events: Int16(POLLIN), deadline: deadline, cancel: plain.cancel, phase: "TLS handshake")
            case SSL_ERROR_WANT_WRITE:
                try waitReady(fd: plain.fd, events: Int16(POLLOUT), deadline: deadline, cancel: plain.cancel, phase: "TLS handshake")
            default:
                let verify = SSL_get_verify_result(ssl)
                if verify != X509_V_OK {
                    ERR_clear_error()
                    throw .tlsUntrustedCertificate(verifyResult: Int(verify), String(cString: X509_verify_cert_error_string(verify)))
                }
                if error == SSL_ERROR_SYSCALL {
                    let text = TLSContext.lastErrorText()
                    if savedErrno != 0 { throw .tlsHandshakeFailed("\(errnoText(savedErrno)) during handshake") }
                    throw .tlsHandshakeFailed(text == "no OpenSSL error" ? "connection closed during handshake" : text)
                }
                throw .tlsHandshakeFailed(TLSContext.lastErrorText())
            }
        }
    }

    func send(_ bytes: [UInt8], deadline: Deadline) throws(HTTPClientError) {
        var offset = 0
        while offset < bytes.count {
            errno = 0
            let n = bytes[offset...].withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
            if n > 0 { offset += Int(n); continue }
            try handleIOError(SSL_get_error(ssl, n), savedErrno: errno, deadline: deadline, phase: "send")
        }
    }

    func receive(maxCount: Int, deadline: Deadline) throws(HTTPClientError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maxCount)
        while true {
            errno = 0
            let n = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32(maxCount)) }
            if n > 0 { return Array(buffer[0..<Int(n)]) }
            let error = SSL_get_error(ssl, n)
            if error == SSL_ERROR_ZERO_RETURN { return [] }
            if error == SSL_ERROR_SYSCALL && errno == 0 { ERR_clear_error(); return [] }
            try handleIOError(error, savedErrno: errno, deadline: deadline, phase: "receive")
        }
    }

    private func handleIOError(_ error: Int32, savedErrno: Int32, deadline: Deadline, phase: String) throws(HTTPClientError) {
        switch error {
        case SSL_ERROR_WANT_READ:
            try waitReady(fd: plain.fd, events: Int16(POLLIN), deadline: deadline, cancel: plain.cancel, phase: phase)
        case SSL_ERROR_WANT_WRITE:
            try waitReady(fd: plain.fd, events: Int16(POLLOUT), deadline: deadline, cancel: plain.cancel, phase: phase)
        case SSL_ERROR_SYSCALL where savedErrno != 0:
            ERR_clear_error()
            throw .connectionLost(errno: savedErrno, errnoText(savedErrno))
        default:
            throw .connectionLost(errno: 0, "TLS: \(TLSContext.lastErrorText())")
        }
    }

    /// Decrypted bytes already read from the socket and not yet returned.
    var pendingByteCount: Int { Int(SSL_pending(ssl)) }

    func close() {
        plain.close()
    }
}
