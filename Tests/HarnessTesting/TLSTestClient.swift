// SPDX-License-Identifier: MIT
import COpenSSL
import Glibc

/// How the blocking TLS test clients (`TLSTestClient`, `WebSocketTestClient`) connect.
package struct TLSClientOptions: Sendable {
    /// PEM of the CA the client trusts (nil: trusts nothing).
    package var trustedCAPEM: String?
    /// SSL_VERIFY_PEER (abort the handshake on a verification failure) or SSL_VERIFY_NONE.
    package var verifyPeer = true
    /// SNI and the name checked with SSL_set1_host.
    package var host = "localhost"
    /// ALPN protocols offered, in order (empty: no ALPN extension).
    package var alpn: [String] = []
    package var minVersion: Int32 = TLS1_2_VERSION
    package var maxVersion: Int32 = 0
    /// TLS ≤ 1.2 cipher list and security level overrides (nil: OpenSSL defaults).
    package var cipherList: String?
    package var securityLevel: Int32?
    /// Bytes sent after a successful handshake; the client then reads until EOF.
    package var request: [UInt8]?
    /// When set, `request` goes out as one TLS record per this many bytes, written back to back.
    package var recordSize: Int?
    /// SO_RCVTIMEO / SO_SNDTIMEO of the client socket (a budget unless a test times a stall).
    package var timeoutMilliseconds = Int(TestTime.budgetMs(5_000))

    package init(trustedCAPEM: String? = nil, verifyPeer: Bool = true, host: String = "localhost") {
        self.trustedCAPEM = trustedCAPEM
        self.verifyPeer = verifyPeer
        self.host = host
    }
}

/// What the client observed.
package struct TLSClientReport: Sendable {
    package var handshakeSucceeded = false
    /// SSL_get_verify_result (X509_V_OK or X509_V_ERR_*).
    package var verifyResult = -1
    /// OpenSSL reason strings from the handshake error stack ("tlsv1 alert protocol version").
    package var handshakeErrors: [String] = []
    /// SSL_get_error of the failed SSL_connect (0 when it succeeded).
    package var sslError: Int32 = 0
    /// errno of a failed system call during the handshake or the read (0 if none).
    package var errno: Int32 = 0
    package var selectedALPN: String?
    package var protocolVersion: String?
    package var response: [UInt8] = []
    /// The server ended the stream cleanly (close_notify or FIN) after the response.
    package var sawEOF = false
    /// A setup step that failed before any TLS happened (socket, context).
    package var setupFailure: String?

    package init() {}
}

/// The tests' one OpenSSL client setup: a small blocking client that reports what a handshake did
/// (`connect`), and the context and session `WebSocketTestClient` speaks TLS through. Run it on a
/// dedicated thread, never on the pool.
package enum TLSTestClient {
    /// One connection to 127.0.0.1:`port`: handshake, then `options.request` if set, and what was seen.
    package static func connect(port: UInt16, options: TLSClientOptions) -> TLSClientReport {
        var report = TLSClientReport()
        ERR_clear_error()
        let ctx: OpaquePointer
        do { ctx = try makeContext(options) } catch { return failed(error.description) }
        defer { SSL_CTX_free(ctx) }
        let fd = TestSockets.connectLoopback(port: port, timeoutMilliseconds: options.timeoutMilliseconds)
        guard fd >= 0 else { return failed("connect errno \(-fd)") }
        defer { close(fd) }
        guard let ssl = makeSession(ctx, fd: fd, host: options.host) else { return failed("SSL_new") }
        defer { SSL_free(ssl) }

        ERR_clear_error()
        Glibc.errno = 0
        let rc = SSL_connect(ssl)
        let connectErrno = Glibc.errno
        report.verifyResult = SSL_get_verify_result(ssl)
        guard rc == 1 else {
            report.sslError = SSL_get_error(ssl, rc)  // before draining: it inspects the error queue
            report.handshakeErrors = reasons()
            // SYSCALL: a socket error or EOF. WANT_READ/WANT_WRITE on this blocking socket: SO_RCVTIMEO/SO_SNDTIMEO expired.
            let socketLevel = [SSL_ERROR_SYSCALL, SSL_ERROR_WANT_READ, SSL_ERROR_WANT_WRITE].contains(report.sslError)
            report.errno = socketLevel ? connectErrno : 0
            return report
        }
        report.handshakeSucceeded = true
        report.protocolVersion = String(cString: SSL_get_version(ssl))
        var alpn: UnsafePointer<UInt8>?
        var alpnLength: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &alpn, &alpnLength)
        if let alpn, alpnLength > 0 {
            report.selectedALPN = String(decoding: UnsafeBufferPointer(start: alpn, count: Int(alpnLength)), as: UTF8.self)
        }
        if let request = options.request { exchange(ssl, request, recordSize: options.recordSize, into: &report) }
        return report
    }

    /// A client `SSL_CTX` set up from `options` (the caller frees it with `SSL_CTX_free`), or the
    /// setup step that failed.
    package static func makeContext(_ options: TLSClientOptions) throws(BlockingTestClient.ClientError) -> OpaquePointer {
        guard let ctx = SSL_CTX_new(TLS_client_method()) else { throw .init(description: "SSL_CTX_new") }
        if let step = configure(ctx, options) {
            SSL_CTX_free(ctx)
            throw .init(description: step)
        }
        return ctx
    }

    /// An `SSL` on `fd` that sends SNI `host` and checks the certificate against it (the caller frees it).
    package static func makeSession(_ ctx: OpaquePointer, fd: Int32, host: String) -> OpaquePointer? {
        guard let ssl = SSL_new(ctx) else { return nil }
        _ = SSL_set_fd(ssl, fd)
        _ = copenssl_set_tlsext_host_name(ssl, host)
        _ = SSL_set1_host(ssl, host)
        return ssl
    }

    private static func configure(_ ctx: OpaquePointer, _ options: TLSClientOptions) -> String? {
        SSL_CTX_set_verify(ctx, options.verifyPeer ? SSL_VERIFY_PEER : SSL_VERIFY_NONE, nil)
        if let level = options.securityLevel { SSL_CTX_set_security_level(ctx, level) }
        if let list = options.cipherList, SSL_CTX_set_cipher_list(ctx, list) != 1 { return "cipher list" }
        guard copenssl_ctx_set_min_proto_version(ctx, options.minVersion) == 1,
              copenssl_ctx_set_max_proto_version(ctx, options.maxVersion) == 1 else { return "versions" }
        if let pem = options.trustedCAPEM {
            let bytes = Array(pem.utf8)
            let x509: OpaquePointer? = bytes.withUnsafeBytes { buffer in
                guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
                defer { BIO_free(bio) }
                return PEM_read_bio_X509(bio, nil, nil, nil)
            }
            guard let x509 else { return "CA PEM" }
            defer { X509_free(x509) }
            guard X509_STORE_add_cert(SSL_CTX_get_cert_store(ctx), x509) == 1 else { return "X509_STORE_add_cert" }
        }
        if !options.alpn.isEmpty {
            var wire: [UInt8] = []
            for name in options.alpn { wire.append(UInt8(name.utf8.count)); wire.append(contentsOf: name.utf8) }
            guard SSL_CTX_set_alpn_protos(ctx, wire, UInt32(wire.count)) == 0 else { return "ALPN" }
        }
        return nil
    }

    private static func exchange(
        _ ssl: OpaquePointer, _ request: [UInt8], recordSize: Int?, into report: inout TLSClientReport
    ) {
        let size = max(1, recordSize ?? request.count)
        for start in stride(from: 0, to: request.count, by: size) {
            let piece = Array(request[start..<min(start + size, request.count)])
            ERR_clear_error()
            let written = piece.withUnsafeBytes { SSL_write(ssl, $0.baseAddress, Int32($0.count)) }
            guard written == Int32(piece.count) else {
                report.handshakeErrors = reasons()
                return
            }
        }
        var buffer = [UInt8](repeating: 0, count: 16_384)
        for _ in 0..<10_000 {
            ERR_clear_error()
            Glibc.errno = 0
            let n = buffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if n > 0 { report.response.append(contentsOf: buffer[0..<Int(n)]); continue }
            let code = SSL_get_error(ssl, n)
            if code == SSL_ERROR_ZERO_RETURN || (code == SSL_ERROR_SYSCALL && Glibc.errno == 0) {
                report.sawEOF = true
            } else {
                report.errno = Glibc.errno
                report.handshakeErrors = reasons()
            }
            return
        }
    }

    private static func reasons() -> [String] {
        var result: [String] = []
        for _ in 0..<32 {
            let code = ERR_get_error()
            if code == 0 { break }
            result.append(ERR_reason_error_string(code).map { String(cString: $0) } ?? "reason \(code)")
        }
        return result
    }

    private static func failed(_ step: String) -> TLSClientReport {
        var report = TLSClientReport()
        report.setupFailure = step
        return report
    }
}
