// SPDX-License-Identifier: MIT
internal import COpenSSL

/// The TLS 1.3 cipher suites whose records ``DetachedTLSStream`` carries (RFC 8446 §B.4).
enum TLS13CipherSuite: UInt16, Sendable, CaseIterable {
    case aes128GCMSHA256 = 0x1301
    case aes256GCMSHA384 = 0x1302
    case chacha20Poly1305SHA256 = 0x1303

    /// The AEAD key length in bytes.
    var keyLength: Int {
        switch self {
        case .aes128GCMSHA256: 16
        case .aes256GCMSHA384, .chacha20Poly1305SHA256: 32
        }
    }

    /// The length of the suite's hash, and so of its traffic secrets.
    var hashLength: Int { self == .aes256GCMSHA384 ? 48 : 32 }

    /// The hash's name as libcrypto fetches it.
    var digestName: String { self == .aes256GCMSHA384 ? "SHA384" : "SHA256" }

    /// The AEAD nonce (and per-direction iv) length: 12 bytes for all three (RFC 8446 §5.3).
    static let ivLength = 12
    /// The AEAD tag length: 16 bytes for all three.
    static let tagLength = 16
    /// The longest secret of the three suites (SHA-384).
    static let maxSecretLength = 48
    /// The longest key of the three suites.
    static let maxKeyLength = 32

    /// The suite's AEAD cipher, fetched from the default provider once per process.
    var cipher: OpaquePointer? {
        switch self {
        case .aes128GCMSHA256: TLS13Ciphers.aes128GCM
        case .aes256GCMSHA384: TLS13Ciphers.aes256GCM
        case .chacha20Poly1305SHA256: TLS13Ciphers.chacha20Poly1305
        }
    }
}

/// The three EVP_CIPHERs, fetched once (an explicit fetch saves the implicit lookup per
/// initialisation that the legacy `EVP_aes_128_gcm()` objects cost in OpenSSL 3).
private enum TLS13Ciphers {
    // nonisolated(unsafe): each written once by its lazy global initialiser, read-only afterwards;
    // fetched EVP_CIPHERs are immutable and may be shared between threads.
    nonisolated(unsafe) static let aes128GCM: OpaquePointer? = EVP_CIPHER_fetch(nil, "AES-128-GCM", nil)
    nonisolated(unsafe) static let aes256GCM: OpaquePointer? = EVP_CIPHER_fetch(nil, "AES-256-GCM", nil)
    nonisolated(unsafe) static let chacha20Poly1305: OpaquePointer? = EVP_CIPHER_fetch(nil, "ChaCha20-Poly1305", nil)
}
