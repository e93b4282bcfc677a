// SPDX-License-Identifier: MIT

/// The PubNub encryption formats (see docs/crypto.md).
public enum CryptoScheme: String, Sendable, Hashable, Codable, CaseIterable {
    /// Legacy cipher: static IV `"0123456789012345"`, key = ASCII of the first 32 lowercase hex chars of SHA-256(key).
    case legacy
    /// Legacy cipher with a random IV: same key, the 16 IV bytes are prepended to the ciphertext.
    case legacyRandomIV = "legacy-random-iv"
    /// CryptoModule AES-CBC: `"PNED" 01 "ACRH" 10 IV(16) ciphertext`, key = raw SHA-256 digest of the key.
    case aesCBC = "aescbc"
}

/// How an ``CryptoScheme/aesCBC`` module decrypts data that has no `PNED` header (legacy data).
///
/// The SDKs' `aesCbcCryptoModule(cipherKey, randomIV)` registers a legacy cryptor with the same random-IV
/// setting as the module's configuration, which defaults to random IV in every SDK; headerless data is
/// decrypted with that cryptor's own setting (the two legacy formats cannot be told apart from the bytes).
public enum LegacyFallback: String, Sendable, Hashable, Codable, CaseIterable {
    /// Headerless data is `IV ‖ ciphertext` (the SDKs' default).
    case randomIV = "random-iv"
    /// Headerless data is ciphertext under the static IV.
    case staticIV = "static-iv"
    /// No legacy cryptor is registered: headerless data is an ``CryptoError/Kind/unknownCryptor`` error.
    case none
}
