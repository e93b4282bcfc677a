// SPDX-License-Identifier: MIT
import COpenSSL

/// A client `SSL_CTX`: TLS ≥ 1.2, peer verification against the configured CAs, ALPN http/1.1.
// @unchecked Sendable: the SSL_CTX is fully configured in init and only read afterwards
// (SSL_new is thread-safe on a configured context); it is freed in deinit.
final class TLSContext: @unchecked Sendable {
    let ctx: OpaquePointer

    init(trust: HTTPTrust) throws(HTTPClientError) {
        guard let ctx = SSL_CTX_new(TLS_client_method()) else { throw .localFailure("SSL_CTX_new failed") }
        self.ctx = ctx
        _ = copenssl_ctx_set_min_proto_version(ctx, TLS1_2_VERSION)
        // SSL_OP_IGNORE_UNEXPECTED_EOF (1 << 7): a close without close_notify reads as end of stream;
        // the HTTP layer then decides whether the response was complete.
        _ = copenssl_ctx_set_options(ctx, 1 << 7)
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, nil)
        switch trust {
        case .system:
            SSL_CTX_set_default_verify_paths(ctx)
        case .file(let path):
            guard SSL_CTX_load_verify_locations(ctx, path, nil) == 1 else {
                throw .localFailure("cannot load CA file \(path): \(Self.lastErrorText())")
            }
        case .pem(let pem):
            try Self.addPEM(pem, to: ctx)
        }
        let alpn: [UInt8] = [8] + Array("http/1.1".utf8)
        _ = SSL_CTX_set_alpn_protos(ctx, alpn, UInt32(alpn.count))
    }

    deinit { SSL_CTX_free(ctx) }

    private static func addPEM(_ pem: String, to ctx: OpaquePointer) throws(HTTPClientError) {
        let bytes = Array(pem.utf8)
        guard let store = SSL_CTX_get_cert_store(ctx) else { throw .localFailure("no certificate store") }
        let added: Int = bytes.withUnsafeBytes { raw in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else { return 0 }
            defer { BIO_free(bio) }
            var count = 0
            while let cert = PEM_read_bio_X509(bio, nil, nil, nil) {
                if X509_STORE_add_cert(store, cert) == 1 { count += 1 }
                X509_free(cert)
            }
            ERR_clear_error()
            return count
        }
        if added == 0 { throw .localFailure("no CA certificate could be read from the PEM text") }
    }

    /// The text of the newest OpenSSL error on this thread's queue, and clears the queue.
    static func lastErrorText() -> String {
        let code = ERR_peek_last_error()
        ERR_clear_error()
        guard code != 0 else { return "no OpenSSL error" }
        var buffer = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &buffer, buffer.count)
        return String(decoding: buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
