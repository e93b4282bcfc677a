// SPDX-License-Identifier: MIT
internal import COpenSSL

/// An immutable server `SSL_CTX` configured for one entry of the TLS fault catalog.
///
/// - trusted / `none`: the trusted leaf, TLS 1.2–1.3.
/// - certificate faults (self-signed, untrusted CA, expired, not yet valid, wrong host): that leaf, TLS 1.2–1.3.
/// - `tls-version-mismatch`: only TLS 1.0–1.1 at security level 0, so a client requiring TLS 1.2+
///   receives a protocol_version alert.
/// - `tls-no-shared-cipher`: TLS 1.2 only with PSK-only suites and no PSK callback, so the server
///   finds no usable cipher in a normal ClientHello and sends a handshake_failure alert.
///
/// ALPN: the server agrees to `http/1.1` when offered and never selects anything else (no `h2`).
/// The server sends only its leaf (no chain), so an untrusted CA shows as an unknown issuer.
// @unchecked Sendable: the SSL_CTX is fully configured in init and never mutated afterwards;
// OpenSSL allows concurrent SSL_new on one SSL_CTX from several threads.
final class TLSServerContext: @unchecked Sendable {
    /// The catalog entry this context implements.
    let fault: ListenerFault
    let pointer: OpaquePointer
    /// Who carries records after a TLS 1.3 handshake on connections of this context.
    let recordLayer: TLSRecordLayer

    init(material: TLSMaterial, fault: ListenerFault, recordLayer: TLSRecordLayer = .own) throws(TLSError) {
        guard let identity = material.identity(for: fault) else { throw .noContextForFault(fault) }
        OpenSSLErrorStack.clear()
        guard let ctx = SSL_CTX_new(TLS_server_method()) else { throw Self.failure("SSL_CTX_new") }
        self.fault = fault
        self.pointer = ctx
        self.recordLayer = recordLayer
        try configure(identity: identity)
        // The own record layer needs the application traffic secrets (caught per SSL, never logged).
        if recordLayer == .own { TLS13SecretCapture.install(on: ctx) }
    }

    deinit { SSL_CTX_free(pointer) }

    private func configure(identity: TLSIdentity) throws(TLSError) {
        let ctx = pointer
        _ = copenssl_ctx_set_options_u64(
            ctx, copenssl_op_ignore_unexpected_eof() | copenssl_op_no_renegotiation()
                | copenssl_op_cipher_server_preference())
        // RELEASE_BUFFERS: an idle connection (parked long-poll, WebSocket) holds no TLS record buffers.
        _ = copenssl_ctx_set_mode(
            ctx, Int(SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_RELEASE_BUFFERS))
        // No TLS 1.3 session tickets: nothing is written after the handshake that the client did not ask for.
        guard SSL_CTX_set_num_tickets(ctx, 0) == 1 else { throw Self.failure("SSL_CTX_set_num_tickets") }

        switch fault {
        case .tlsVersionMismatch:
            // OpenSSL 3 refuses TLS < 1.2 at the default security level; level 0 re-enables it.
            SSL_CTX_set_security_level(ctx, 0)
            try setVersions(min: TLS1_VERSION, max: TLS1_1_VERSION)
            guard SSL_CTX_set_cipher_list(ctx, "DEFAULT:@SECLEVEL=0") == 1 else {
                throw Self.failure("cipher list DEFAULT:@SECLEVEL=0")
            }
        case .tlsNoSharedCipher:
            try setVersions(min: TLS1_2_VERSION, max: TLS1_2_VERSION)
            guard SSL_CTX_set_cipher_list(ctx, "PSK") == 1 else { throw Self.failure("cipher list PSK") }
        default:
            try setVersions(min: TLS1_2_VERSION, max: TLS1_3_VERSION)
        }

        let certificate = try PEMReader.certificate(identity.certificatePEM, what: "\(fault.rawValue) certificate")
        let key = try PEMReader.privateKey(identity.privateKeyPEM, what: "\(fault.rawValue) private key")
        OpenSSLErrorStack.clear()
        // SSL_CTX_use_* take their own references; keep ours alive until they have.
        let installed = withExtendedLifetime((certificate, key)) {
            SSL_CTX_use_certificate(ctx, certificate.pointer) == 1 && SSL_CTX_use_PrivateKey(ctx, key.pointer) == 1
        }
        guard installed else { throw Self.failure("SSL_CTX_use_certificate / SSL_CTX_use_PrivateKey") }
        guard SSL_CTX_check_private_key(ctx) == 1 else { throw Self.failure("SSL_CTX_check_private_key") }
        copenssl_ctx_use_http11_only_alpn(ctx)
    }

    private func setVersions(min: Int32, max: Int32) throws(TLSError) {
        guard copenssl_ctx_set_min_proto_version(pointer, min) == 1,
              copenssl_ctx_set_max_proto_version(pointer, max) == 1
        else { throw Self.failure("protocol versions \(min)...\(max)") }
    }

    private static func failure(_ step: String) -> TLSError {
        .contextConfiguration(step: step, openSSLErrors: OpenSSLErrorStack.drain())
    }
}
