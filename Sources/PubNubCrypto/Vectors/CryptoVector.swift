// SPDX-License-Identifier: MIT

/// One known-answer or negative test of a ``CryptoModule`` (format documented in docs/crypto.md).
public struct CryptoVector: Sendable, Hashable, Codable {
    /// How the plaintext and ciphertext are handled.
    public enum Kind: String, Sendable, Hashable, Codable {
        /// `plaintext` is message text: ``CryptoModule/encryptMessage(_:)`` / ``CryptoModule/decryptMessage(_:)``.
        case message
        /// Raw bytes: ``CryptoModule/encrypt(_:iv:)`` / ``CryptoModule/decrypt(_:)``; `ciphertext` is their base64.
        case binary
    }

    /// Unique within its file.
    public var id: String
    public var scheme: CryptoScheme
    public var cipherKey: String
    /// The plaintext as UTF-8 text (either this or `plaintextHex`).
    public var plaintext: String?
    /// The plaintext bytes as hex.
    public var plaintextHex: String?
    /// The fixed IV as hex (random-IV and `aescbc` formats; absent for `legacy`).
    public var iv: String?
    /// Standard base64 of the encrypted bytes.
    public var ciphertext: String?
    public var kind: Kind
    /// For negative vectors: the ``CryptoError/Kind`` that must be raised. With `ciphertext` the vector is a
    /// decryption that must fail; without it an encryption of the plaintext that must fail.
    public var error: CryptoError.Kind?
    /// ``CryptoModule/legacyFallback`` for `aescbc` modules (default `random-iv`).
    public var legacyFallback: LegacyFallback?
    /// `true` when the ciphertext is not what this scheme would write (e.g. legacy data read by an `aescbc`
    /// module): only decryption is checked.
    public var decryptOnly: Bool?
    /// Free text about the vector's origin.
    public var note: String?

    public init(
        id: String, scheme: CryptoScheme, cipherKey: String, kind: Kind,
        plaintext: String? = nil, plaintextHex: String? = nil, iv: String? = nil, ciphertext: String? = nil,
        error: CryptoError.Kind? = nil, legacyFallback: LegacyFallback? = nil, decryptOnly: Bool? = nil,
        note: String? = nil
    ) {
        self.id = id
        self.scheme = scheme
        self.cipherKey = cipherKey
        self.kind = kind
        self.plaintext = plaintext
        self.plaintextHex = plaintextHex
        self.iv = iv
        self.ciphertext = ciphertext
        self.error = error
        self.legacyFallback = legacyFallback
        self.decryptOnly = decryptOnly
        self.note = note
    }
}

/// A vector file: `{"description", "schemeVersion": 1, "vectors": [...]}`.
public struct CryptoVectorFile: Sendable, Hashable, Codable {
    /// The format version this code reads.
    public static let supportedSchemeVersion = 1

    public var description: String
    public var schemeVersion: Int
    public var vectors: [CryptoVector]

    public init(description: String, schemeVersion: Int = CryptoVectorFile.supportedSchemeVersion, vectors: [CryptoVector]) {
        self.description = description
        self.schemeVersion = schemeVersion
        self.vectors = vectors
    }
}
