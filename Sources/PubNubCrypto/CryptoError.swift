// SPDX-License-Identifier: MIT

/// Why an encryption or decryption failed.
public struct CryptoError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The failure classes; their raw values are used in vector files and CLI output and are stable.
    public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
        /// The cipher key is the empty string.
        case emptyKey
        /// The input is empty (decrypt: no bytes at all; encrypt: empty plaintext for `aescbc`).
        case emptyData
        /// The message is not standard base64.
        case invalidBase64
        /// The data starts with `PNED` but ends before the header (or its cryptor data) does.
        case truncatedHeader
        /// The `PNED` header has a version other than 1.
        case unknownVersion
        /// The `PNED` header names a cryptor this module does not have, or headerless data reaches a module
        /// without a legacy cryptor.
        case unknownCryptor
        /// The IV is not 16 bytes (a fixed IV, an `ACRH` cryptor-data length, or random-IV data shorter than 16 bytes).
        case invalidIV
        /// The ciphertext is empty or not a multiple of the 16-byte AES block.
        case invalidBlockSize
        /// AES-CBC decryption ended with invalid PKCS#7 padding: wrong key, wrong format or corrupted data.
        case wrongKeyOrPadding
        /// The decrypted message is not valid UTF-8.
        case invalidUTF8
        /// libcrypto reported an error while encrypting or producing random bytes.
        case encryptionFailed
    }

    /// The failure class.
    public var kind: Kind
    /// One line describing the failure (never contains the key).
    public var detail: String

    /// Creates an error of `kind` with a one-line `detail`.
    public init(_ kind: Kind, _ detail: String) {
        self.kind = kind
        self.detail = detail
    }

    public var description: String { "\(kind.rawValue): \(detail)" }
}
