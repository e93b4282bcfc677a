// SPDX-License-Identifier: MIT
import COpenSSL
import PubNubCrypto
import Testing

/// The AES-NI encryption kernel (`Sources/CAESCBC`), with each base64 code it runs between blocks, and the
/// libcrypto fallback write exactly what libcrypto's EVP API and its base64 encoder write, for many keys and IVs
/// and lengths from 0 to 4 KiB (every length mod 16 and mod 48, in each scheme's layout).
@Suite("AES encryption kernel", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct AESKernelTests {
    /// Every AES/base64 pair this machine can run: the kernel with each available base64 code (AVX-512 VBMI and
    /// AVX2 encode inside the loop, SSSE3 and scalar after it), and libcrypto.
    static let codes: [(aes: AESEncryptionCode, base64: Base64.Kernel)] =
        Base64.Kernel.allCases.filter(\.isAvailable).map { (AESEncryptionCode.aesni, $0) } + [(.libcrypto, .active)]

    /// AES-256-CBC with PKCS#7 through a fresh EVP context: the reference.
    static func evpEncrypt(key: [UInt8], iv: [UInt8], _ plaintext: [UInt8]) throws -> [UInt8] {
        let context = try #require(EVP_CIPHER_CTX_new())
        defer { EVP_CIPHER_CTX_free(context) }
        var out = [UInt8](repeating: 0, count: plaintext.count + 16)
        var updated: Int32 = 0
        var finished: Int32 = 0
        try #require(EVP_EncryptInit_ex2(context, EVP_aes_256_cbc(), key, iv, nil) == 1)
        try #require(EVP_EncryptUpdate(context, &out, &updated, plaintext, Int32(plaintext.count)) == 1)
        let final = out.withUnsafeMutableBufferPointer { EVP_EncryptFinal_ex(context, $0.baseAddress! + Int(updated), &finished) }
        try #require(final == 1)
        return Array(out.prefix(Int(updated + finished)))
    }

    /// libcrypto's base64 (`EVP_EncodeBlock`: standard alphabet, padding, no line breaks).
    static func evpBase64(_ bytes: [UInt8]) -> String {
        var text = [UInt8](repeating: 0, count: (bytes.count + 2) / 3 * 4 + 1)
        let count = EVP_EncodeBlock(&text, bytes, Int32(bytes.count))
        return String(decoding: text.prefix(Int(count)), as: UTF8.self)
    }

    /// The bytes `scheme` writes for `plaintext` with `iv`, built from the EVP reference.
    static func expectedBytes(_ scheme: CryptoScheme, keys: DerivedKeys, iv: [UInt8], _ plaintext: [UInt8]) throws -> [UInt8] {
        switch scheme {
        case .legacy:
            return try evpEncrypt(key: keys.legacyKey, iv: Array("0123456789012345".utf8), plaintext)
        case .legacyRandomIV:
            return try iv + evpEncrypt(key: keys.legacyKey, iv: iv, plaintext)
        case .aesCBC:
            return try Array("PNED".utf8) + [1] + Array("ACRH".utf8) + [16] + iv + evpEncrypt(key: keys.digest, iv: iv, plaintext)
        }
    }

    @Test func theKernelRunsWhereTheCPUHasAESNI() throws {
        let module = try CryptoModule(cipherKey: "kernel", scheme: .aesCBC, aes: .aesni, base64: .active)
        #expect(module.encryptionCode == (AESEncryptionCode.aesni.isAvailable ? .aesni : .libcrypto))
        let forced = try CryptoModule(cipherKey: "kernel", scheme: .aesCBC, aes: .libcrypto, base64: .active)
        #expect(forced.encryptionCode == .libcrypto)
    }

    /// Every length up to 1,200, then every 13th up to 4 KiB (13 is prime to 48, so those cover every residue mod
    /// 16 and 48 again), and 4096 itself.
    static let lengths = Array(0...1200) + Array(stride(from: 1201, through: 4096, by: 13)) + [4096]

    /// ``lengths`` in all three schemes, each length with one of 64 keys and its own IV; every code's bytes and
    /// message text equal the EVP reference, byte for byte, and decrypt back.
    @Test func everyCodeWritesWhatEVPWritesForEveryLength() throws {
        var generator = TestRandom(seed: 0xAE5C)
        let keyTexts = (0..<64).map { "kernel-key-\($0)-" + String(decoding: generator.bytes(8).map { 0x21 + $0 % 0x5E }, as: UTF8.self) }
        let modules = try keyTexts.map { key in
            try Self.codes.map { code in try CryptoModule(cipherKey: key, scheme: .legacy, aes: code.aes, base64: code.base64) }
        }
        var checked = 0
        for length in Self.lengths {
            let plaintext = generator.bytes(length)
            let text = String(decoding: plaintext.map { 0x20 + $0 % 0x5F }, as: UTF8.self)
            let keyIndex = length % 64
            let keys = modules[keyIndex][0].keys
            for scheme in CryptoScheme.allCases {
                let iv = scheme == .legacy ? Array("0123456789012345".utf8) : generator.bytes(16)
                let expected = try Self.expectedBytes(scheme, keys: keys, iv: iv, plaintext)
                let expectedText = Self.evpBase64(try Self.expectedBytes(scheme, keys: keys, iv: iv, Array(text.utf8)))
                for (index, base) in modules[keyIndex].enumerated() {
                    var module = base
                    module.scheme = scheme
                    module.encryptsEmptyPlaintext = true
                    let code = Self.codes[index]
                    let label = "\(scheme.rawValue) length \(length) \(code.aes) \(code.base64)"
                    let bytes = try module.encrypt(plaintext, iv: iv)
                    #expect(bytes == expected, "bytes: \(label)")
                    let message = try module.encryptMessage(text, iv: iv)
                    #expect(message == expectedText, "text: \(label)")
                    // A round trip through decryption for a sample (every length in one code each).
                    if length % Self.codes.count == index {
                        #expect(try module.decrypt(bytes) == plaintext, "decrypt: \(label)")
                        #expect(try module.decryptMessage(message) == text, "decryptMessage: \(label)")
                    }
                    checked += 1
                }
            }
        }
        #expect(checked == Self.lengths.count * 3 * Self.codes.count)
    }

    /// Random IVs from the kernel's contexts: fresh per message and the message decrypts (with every code).
    @Test(arguments: [CryptoScheme.legacyRandomIV, .aesCBC])
    func randomIVMessagesRoundTripWithEveryCode(_ scheme: CryptoScheme) throws {
        var ivs = Set<[UInt8]>()
        let ivOffset = scheme == .aesCBC ? 10 : 0
        for code in Self.codes {
            let module = try CryptoModule(cipherKey: "random", scheme: scheme, aes: code.aes, base64: code.base64)
            for length in [1, 47, 48, 1024, 4096] {
                let text = String(repeating: "x", count: length)
                let message = try module.encryptMessage(text)
                #expect(try module.decryptMessage(message) == text, "\(code.aes) \(code.base64) length \(length)")
                let data = try CryptoModule.bytes(fromBase64: message)
                ivs.insert(Array(data[ivOffset..<(ivOffset + 16)]))
            }
        }
        #expect(ivs.count == Self.codes.count * 5, "every message had its own IV")
    }
}
