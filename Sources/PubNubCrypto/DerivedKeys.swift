// SPDX-License-Identifier: MIT
import HarnessPrimitives

/// The two AES-256 keys PubNub derives from a cipher key, both from one SHA-256 of its UTF-8 bytes.
public struct DerivedKeys: Sendable, Hashable {
    /// The raw 32-byte SHA-256 digest: the CryptoModule (`ACRH`) key.
    public let digest: [UInt8]
    /// The ASCII bytes of the first 32 lowercase hex characters of the digest: the legacy key.
    ///
    /// The hex text is used as key bytes as-is (not hex-decoded), so the effective key space is 128 bits.
    public let legacyKey: [UInt8]

    /// Derives both keys from `cipherKey`.
    /// - Throws: ``CryptoError/Kind/emptyKey`` for an empty key, ``CryptoError/Kind/encryptionFailed`` if
    ///   libcrypto cannot hash.
    public init(cipherKey: String) throws(CryptoError) {
        guard !cipherKey.isEmpty else { throw CryptoError(.emptyKey, "the cipher key is empty") }
        let digest = Digest.sha256(Array(cipherKey.utf8))
        guard digest.count == 32 else {
            throw CryptoError(.encryptionFailed, "SHA-256 of the cipher key failed in libcrypto")
        }
        self.digest = digest
        self.legacyKey = Array(ByteEncoding.hex(digest.prefix(16)).utf8)
    }
}
