// SPDX-License-Identifier: MIT
internal import COpenSSL

/// Parses PEM strings into owned OpenSSL objects.
enum PEMReader {
    static func certificate(_ pem: String, what: String) throws(TLSError) -> OwnedCertificate {
        guard let x = try withBIO(pem, what: what, { PEM_read_bio_X509($0, nil, nil, nil) }) else {
            throw .invalidPEM(what: what, openSSLErrors: OpenSSLErrorStack.drain())
        }
        return OwnedCertificate(x)
    }

    static func privateKey(_ pem: String, what: String) throws(TLSError) -> OwnedKey {
        guard let key = try withBIO(pem, what: what, { PEM_read_bio_PrivateKey($0, nil, nil, nil) }) else {
            throw .invalidPEM(what: what, openSSLErrors: OpenSSLErrorStack.drain())
        }
        return OwnedKey(key)
    }

    private static func withBIO<T>(
        _ pem: String, what: String, _ body: (OpaquePointer) -> T?
    ) throws(TLSError) -> T? {
        OpenSSLErrorStack.clear()
        let bytes = Array(pem.utf8)
        let result: Result<T?, TLSError> = bytes.withUnsafeBytes { buffer in
            guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else {
                return .failure(.invalidPEM(what: what, openSSLErrors: OpenSSLErrorStack.drain()))
            }
            defer { BIO_free(bio) }
            return .success(body(bio))
        }
        return try result.get()
    }
}
