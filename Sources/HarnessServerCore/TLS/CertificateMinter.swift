// SPDX-License-Identifier: MIT
internal import COpenSSL
import Glibc

/// An owned `EVP_PKEY` (freed on deinit). Used only during minting and context building.
final class OwnedKey {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { EVP_PKEY_free(pointer) }
}

/// An owned `X509` (freed on deinit). Used only during minting and context building.
final class OwnedCertificate {
    let pointer: OpaquePointer
    init(_ pointer: OpaquePointer) { self.pointer = pointer }
    deinit { X509_free(pointer) }
}

/// What one minted certificate says about itself.
struct CertificateSpec {
    var commonName: String
    var isCertificateAuthority: Bool
    /// subjectAltName value in OpenSSL's config syntax ("DNS:localhost,IP:127.0.0.1"), or nil.
    var subjectAltName: String?
    /// keyUsage value in config syntax, or nil for none. A self-signed *leaf* must have none (or
    /// keyCertSign) for OpenSSL to classify it as self-signed (verify error 18 rather than 20).
    var keyUsage: String?
    /// notBefore and notAfter as offsets in seconds from the minting time.
    var notBeforeOffset: Int
    var notAfterOffset: Int
}

/// Mints EC P-256 keys and X.509 v3 certificates with libcrypto, and encodes them as PEM.
enum CertificateMinter {
    static func makeKey() throws(TLSError) -> OwnedKey {
        OpenSSLErrorStack.clear()
        guard let key = copenssl_generate_ec_p256_key() else {
            throw .certificateGeneration(step: "EC P-256 key generation", openSSLErrors: OpenSSLErrorStack.drain())
        }
        return OwnedKey(key)
    }

    /// Builds and signs a certificate for `key`. `issuer` nil means self-signed with `key`.
    static func mint(
        _ spec: CertificateSpec, key: OwnedKey, issuer: (certificate: OwnedCertificate, key: OwnedKey)?, now: time_t
    ) throws(TLSError) -> OwnedCertificate {
        OpenSSLErrorStack.clear()
        guard let raw = X509_new() else { throw failure("X509_new") }
        let certificate = OwnedCertificate(raw)
        let x = certificate.pointer
        guard X509_set_version(x, 2) == 1 else { throw failure("X509_set_version") }
        guard ASN1_INTEGER_set_uint64(X509_get_serialNumber(x), try randomSerial()) == 1 else {
            throw failure("serial number")
        }
        var reference = now
        guard X509_time_adj_ex(X509_getm_notBefore(x), 0, spec.notBeforeOffset, &reference) != nil,
              X509_time_adj_ex(X509_getm_notAfter(x), 0, spec.notAfterOffset, &reference) != nil
        else { throw failure("validity period") }
        guard let subject = X509_get_subject_name(x) else { throw failure("subject name") }
        try addNameEntry(subject, field: "O", value: "pubnub-harness test")
        try addNameEntry(subject, field: "CN", value: spec.commonName)
        let issuerName = issuer.map { X509_get_subject_name($0.certificate.pointer) } ?? subject
        guard X509_set_issuer_name(x, issuerName) == 1 else { throw failure("issuer name") }
        guard X509_set_pubkey(x, key.pointer) == 1 else { throw failure("X509_set_pubkey") }

        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer?.certificate.pointer ?? x, x, nil, nil, 0)
        try addExtension(x, &context, NID_basic_constraints,
                         spec.isCertificateAuthority ? "critical,CA:TRUE" : "critical,CA:FALSE")
        if let usage = spec.keyUsage { try addExtension(x, &context, NID_key_usage, usage) }
        if !spec.isCertificateAuthority { try addExtension(x, &context, NID_ext_key_usage, "serverAuth") }
        if let names = spec.subjectAltName { try addExtension(x, &context, NID_subject_alt_name, names) }
        try addExtension(x, &context, NID_subject_key_identifier, "hash")
        if issuer != nil { try addExtension(x, &context, NID_authority_key_identifier, "keyid:always") }

        let signingKey = issuer?.key ?? key
        guard X509_sign(x, signingKey.pointer, EVP_sha256()) > 0 else { throw failure("X509_sign") }
        return certificate
    }

    static func pem(of certificate: OwnedCertificate) throws(TLSError) -> String {
        try withMemoryBIO("PEM_write_bio_X509") { PEM_write_bio_X509($0, certificate.pointer) }
    }

    static func pem(of key: OwnedKey) throws(TLSError) -> String {
        try withMemoryBIO("PEM_write_bio_PrivateKey") {
            PEM_write_bio_PrivateKey($0, key.pointer, nil, nil, 0, nil, nil)
        }
    }

    // MARK: - Steps

    private static func failure(_ step: String) -> TLSError {
        .certificateGeneration(step: step, openSSLErrors: OpenSSLErrorStack.drain())
    }

    private static func randomSerial() throws(TLSError) -> UInt64 {
        var serial: UInt64 = 0
        let ok = withUnsafeMutableBytes(of: &serial) { RAND_bytes($0.baseAddress!.assumingMemoryBound(to: UInt8.self), 8) }
        guard ok == 1 else { throw failure("RAND_bytes") }
        return (serial & 0x7FFF_FFFF_FFFF_FFFF) | 1  // positive and non-zero
    }

    private static func addNameEntry(_ name: OpaquePointer, field: String, value: String) throws(TLSError) {
        let ok = value.withCString { bytes in
            bytes.withMemoryRebound(to: UInt8.self, capacity: value.utf8.count + 1) {
                X509_NAME_add_entry_by_txt(name, field, MBSTRING_ASC, $0, -1, -1, 0)
            }
        }
        guard ok == 1 else { throw failure("name entry \(field)") }
    }

    private static func addExtension(
        _ x: OpaquePointer, _ context: inout X509V3_CTX, _ nid: Int32, _ value: String
    ) throws(TLSError) {
        guard let ext = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
            throw failure("extension \(String(cString: OBJ_nid2sn(nid))) = \(value)")
        }
        defer { X509_EXTENSION_free(ext) }
        guard X509_add_ext(x, ext, -1) == 1 else { throw failure("X509_add_ext") }
    }

    private static func withMemoryBIO(
        _ step: String, _ write: (OpaquePointer) -> Int32
    ) throws(TLSError) -> String {
        OpenSSLErrorStack.clear()
        guard let bio = BIO_new(BIO_s_mem()) else { throw failure("BIO_new") }
        defer { BIO_free(bio) }
        guard write(bio) == 1 else { throw failure(step) }
        var data: UnsafeMutablePointer<CChar>?
        let length = copenssl_bio_get_mem_data(bio, &data)
        guard length > 0, let data else { throw failure("\(step) produced no output") }
        return data.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
            String(decoding: UnsafeBufferPointer(start: $0, count: Int(length)), as: UTF8.self)
        }
    }
}
