// SPDX-License-Identifier: MIT
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The result of checking one vector.
public struct VectorOutcome: Sendable, Hashable {
    /// The vector id (or the file path when the file could not be read).
    public var id: String
    /// `nil` when the vector passed, otherwise a one-line reason.
    public var failure: String?
    /// Whether the vector passed.
    public var passed: Bool { failure == nil }

    /// `PASS id` or `FAIL id: reason`.
    public var line: String { failure.map { "FAIL \(id): \($0)" } ?? "PASS \(id)" }
}

/// Checks ``CryptoVector``s against ``CryptoModule``.
public enum CryptoVectorVerifier {
    /// Reads and checks the vector file at `path`. A file that cannot be read or parsed yields a single failed
    /// outcome named after the path.
    public static func verify(fileAt path: String) -> [VectorOutcome] {
        let file: CryptoVectorFile
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            file = try JSONDecoder().decode(CryptoVectorFile.self, from: data)
        } catch {
            return [VectorOutcome(id: path, failure: "cannot read vector file: \(oneLine(error))")]
        }
        guard file.schemeVersion == CryptoVectorFile.supportedSchemeVersion else {
            return [VectorOutcome(id: path, failure: "unsupported schemeVersion \(file.schemeVersion)")]
        }
        return file.vectors.map(check)
    }

    /// Checks one vector: positive vectors are re-encrypted (where the IV is known) and decrypted byte for byte;
    /// negative vectors must raise exactly their error kind.
    public static func check(_ vector: CryptoVector) -> VectorOutcome {
        VectorOutcome(id: vector.id, failure: failure(of: vector))
    }

    private static func failure(of vector: CryptoVector) -> String? {
        let plaintext: [UInt8]?
        switch (vector.plaintext, vector.plaintextHex) {
        case (let text?, nil): plaintext = Array(text.utf8)
        case (nil, let hex?):
            guard let bytes = ByteEncoding.bytes(fromHex: hex) else { return "plaintextHex is not hex" }
            plaintext = bytes
        case (nil, nil): plaintext = nil
        case (_?, _?): return "vector has both plaintext and plaintextHex"
        }
        var iv: [UInt8]?
        if let hex = vector.iv {
            guard let bytes = ByteEncoding.bytes(fromHex: hex) else { return "iv is not hex" }
            iv = bytes
        }
        if let expected = vector.error {
            return checkNegative(vector, plaintext: plaintext, iv: iv, expected: expected)
        }
        guard let plaintext, let ciphertext = vector.ciphertext else {
            return "a positive vector needs a plaintext and a ciphertext"
        }
        return checkPositive(vector, plaintext: plaintext, iv: iv, ciphertext: ciphertext)
    }

    private static func makeModule(_ vector: CryptoVector) throws(CryptoError) -> CryptoModule {
        var module = try CryptoModule(cipherKey: vector.cipherKey, scheme: vector.scheme)
        if let fallback = vector.legacyFallback { module.legacyFallback = fallback }
        return module
    }

    private static func checkPositive(_ vector: CryptoVector, plaintext: [UInt8], iv: [UInt8]?, ciphertext: String) -> String? {
        do throws(CryptoError) {
            let module = try makeModule(vector)
            if vector.decryptOnly != true {
                let produced = try encrypt(plaintext, with: module, iv: iv, kind: vector.kind, fixedIVNeeded: true)
                if let produced, produced != ciphertext {
                    return "encryption gave \(produced), expected \(ciphertext)"
                }
            }
            let decrypted = try decrypt(ciphertext, with: module, kind: vector.kind)
            guard decrypted == plaintext else {
                return "decryption gave hex \(ByteEncoding.hex(decrypted.prefix(48))), expected \(ByteEncoding.hex(plaintext.prefix(48)))"
            }
            if vector.decryptOnly != true, iv == nil, vector.scheme != .legacy {
                // The IV is not fixed: check a fresh encryption round-trips instead of comparing bytes.
                let fresh = try encrypt(plaintext, with: module, iv: nil, kind: vector.kind, fixedIVNeeded: false)
                guard let fresh, try decrypt(fresh, with: module, kind: vector.kind) == plaintext else {
                    return "a fresh random-IV encryption did not round-trip"
                }
            }
            return nil
        } catch {
            return "unexpected error \(error)"
        }
    }

    private static func checkNegative(
        _ vector: CryptoVector, plaintext: [UInt8]?, iv: [UInt8]?, expected: CryptoError.Kind
    ) -> String? {
        do throws(CryptoError) {
            let module = try makeModule(vector)
            if let ciphertext = vector.ciphertext {
                _ = try decrypt(ciphertext, with: module, kind: vector.kind)
            } else {
                guard let plaintext else { return "a negative vector needs a ciphertext or a plaintext" }
                _ = try encrypt(plaintext, with: module, iv: iv, kind: vector.kind, fixedIVNeeded: false)
            }
            return "expected error \(expected.rawValue), but it succeeded"
        } catch {
            return error.kind == expected ? nil : "expected error \(expected.rawValue), got \(error)"
        }
    }

    /// Encrypts and returns base64; `nil` when the IV is random and `fixedIVNeeded` (nothing to compare).
    private static func encrypt(
        _ plaintext: [UInt8], with module: CryptoModule, iv: [UInt8]?, kind: CryptoVector.Kind, fixedIVNeeded: Bool
    ) throws(CryptoError) -> String? {
        if iv == nil, fixedIVNeeded, module.scheme != .legacy { return nil }
        switch (kind, iv) {
        case (.message, let iv?):
            return try module.encryptMessage(String(decoding: plaintext, as: UTF8.self), iv: iv)
        case (.message, nil):
            return try module.encryptMessage(String(decoding: plaintext, as: UTF8.self))
        case (.binary, let iv?):
            return ByteEncoding.base64(try module.encrypt(plaintext, iv: iv))
        case (.binary, nil):
            return ByteEncoding.base64(try module.encrypt(plaintext))
        }
    }

    private static func decrypt(_ ciphertext: String, with module: CryptoModule, kind: CryptoVector.Kind) throws(CryptoError) -> [UInt8] {
        switch kind {
        case .message: Array(try module.decryptMessage(ciphertext).utf8)
        case .binary: try module.decrypt(base64: ciphertext)
        }
    }

    private static func oneLine(_ error: any Error) -> String {
        String(describing: error).split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
