// SPDX-License-Identifier: MIT
import PubNubCrypto

/// The message cipher backed by the `PubNubCrypto` module: legacy static IV, legacy random IV,
/// or the CryptoModule (`aescbc`, `PNED`/`ACRH` header).
public struct PubNubCryptoCipher: PubNubMessageCipher {
    public let module: CryptoModule

    /// Throws `ConfigurationError` with field `cipher` when the key is unusable (e.g. empty).
    public init(cipherKey: String, scheme: CryptoScheme) throws(ConfigurationError) {
        do {
            module = try CryptoModule(cipherKey: cipherKey, scheme: scheme)
        } catch {
            throw ConfigurationError(field: "cipher", reason: error.description)
        }
    }

    /// JSON text → base64 ciphertext.
    public func encrypt(jsonText: String) throws -> String { try module.encryptMessage(jsonText) }
    /// Base64 ciphertext → the JSON text that was encrypted.
    public func decrypt(base64: String) throws -> String { try module.decryptMessage(base64) }
}
