// SPDX-License-Identifier: MIT
internal import PubNubCrypto

extension FaultLayer {
    /// The `foreign-encrypted` encryptor over PubNubCrypto: `CryptoModule(cipherKey:scheme:).encryptMessage`.
    ///
    /// Schemes are `legacy`, `legacy-random-iv` and `aescbc` (`Fault.cipherSchemes`); random-IV
    /// schemes give a different ciphertext each time, which the client cannot tell apart anyway.
    package static let cryptoModuleEncryptor: ForeignMessageEncryptor = { cipherKey, schemeName, jsonText in
        guard let scheme = CryptoScheme(rawValue: schemeName) else {
            throw FaultPlanError(path: "scheme", message: "expected one of \(Fault.cipherSchemes.joined(separator: ", "))")
        }
        return try CryptoModule(cipherKey: cipherKey, scheme: scheme).encryptMessage(jsonText)
    }
}
