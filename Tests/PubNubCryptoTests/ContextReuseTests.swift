// SPDX-License-Identifier: MIT
import PubNubCrypto
import Testing

/// Encryption contexts are reused without resetting their IV (the first block absorbs the difference), carry
/// their own random-IV batch and a scratch buffer for message text: none of it may change a single byte.
@Suite("Encryption context reuse", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct ContextReuseTests {
    /// Lengths around AES blocks, base64 groups and the 256-byte encryption chunks.
    static let lengths = Array(0...70) + [95, 96, 97, 239, 240, 241, 255, 256, 257, 270, 511, 512, 513, 1023, 1024, 1025, 3000]

    @Test(arguments: CryptoScheme.allCases)
    func aReusedModuleWritesWhatFreshModulesWrite(_ scheme: CryptoScheme) throws {
        var generator = TestRandom(seed: 0xC4A1)
        let reused = try CryptoModule(cipherKey: "reuse", scheme: scheme)
        for length in Self.lengths where length > 0 || scheme != .aesCBC {
            let plaintext = generator.bytes(length)
            let iv = scheme == .legacy ? Array("0123456789012345".utf8) : generator.bytes(16)
            // A fresh module has fresh contexts; the reused one carries the previous messages' chaining state.
            let fresh = try CryptoModule(cipherKey: "reuse", scheme: scheme)
            let expected = try fresh.encrypt(plaintext, iv: iv)
            #expect(try reused.encrypt(plaintext, iv: iv) == expected, "length \(length)")
            #expect(try reused.decrypt(expected) == plaintext, "length \(length)")
            // Random-IV encryption on the same context in between must not disturb the next fixed-IV result.
            #expect(try reused.decrypt(try reused.encrypt(plaintext)) == plaintext, "length \(length)")
        }
    }

    @Test(arguments: CryptoScheme.allCases)
    func messageTextIsTheBase64OfTheEncryptedBytes(_ scheme: CryptoScheme) throws {
        var generator = TestRandom(seed: 0xB64C)
        let module = try CryptoModule(cipherKey: "chunks", scheme: scheme)
        for length in Self.lengths where length > 0 {
            let text = String(decoding: generator.bytes(length).map { 0x20 + $0 % 0x5F }, as: UTF8.self)
            let iv = scheme == .legacy ? Array("0123456789012345".utf8) : generator.bytes(16)
            let message = try module.encryptMessage(text, iv: iv)
            #expect(message == ByteEncoding.base64(try module.encrypt(Array(text.utf8), iv: iv)), "length \(length)")
            #expect(try module.decryptMessage(message) == text, "length \(length)")
        }
    }

    /// More messages than one context's 4 KiB batch of random IVs holds (256), from the message and the bytes
    /// path in turn: every IV is new and every message decrypts.
    @Test(arguments: [CryptoScheme.legacyRandomIV, .aesCBC])
    func randomIVsStayFreshAcrossBatchRefills(_ scheme: CryptoScheme) throws {
        let module = try CryptoModule(cipherKey: "batches", scheme: scheme)
        let ivOffset = scheme == .aesCBC ? 10 : 0
        var ivs = Set<[UInt8]>()
        for index in 0..<700 {
            let text = "{\"n\":\(index)}"
            let data: [UInt8]
            if index % 2 == 0 {
                let message = try module.encryptMessage(text)
                #expect(try module.decryptMessage(message) == text, "message \(index)")
                data = try CryptoModule.bytes(fromBase64: message)
            } else {
                data = try module.encrypt(Array(text.utf8))
                #expect(try module.decrypt(data) == Array(text.utf8), "bytes \(index)")
            }
            ivs.insert(Array(data[ivOffset..<(ivOffset + 16)]))
        }
        #expect(ivs.count == 700, "every encryption used a fresh IV")
    }

    /// Messages larger than the scratch buffer a context keeps (64 KiB), then small ones on the same context:
    /// the text is still exactly the base64 of the encrypted bytes.
    @Test(arguments: CryptoScheme.allCases)
    func largeThenSmallMessagesKeepTheirExactText(_ scheme: CryptoScheme) throws {
        var generator = TestRandom(seed: 0x5C7A)
        let module = try CryptoModule(cipherKey: "scratch", scheme: scheme)
        for length in [100_000, 5, 70_000, 1, 2048, 65_536, 31] {
            let text = String(decoding: generator.bytes(length).map { 0x20 + $0 % 0x5F }, as: UTF8.self)
            let iv = scheme == .legacy ? Array("0123456789012345".utf8) : generator.bytes(16)
            let message = try module.encryptMessage(text, iv: iv)
            #expect(message == ByteEncoding.base64(try module.encrypt(Array(text.utf8), iv: iv)), "length \(length)")
            #expect(try module.decryptMessage(message) == text, "length \(length)")
        }
    }

    /// One `aescbc` module decrypting, in turn, its own messages, headerless legacy ones (another key, another
    /// context), bad base64 and large messages: the scratch buffer of the context it holds serves each of them.
    @Test func decryptionScratchServesEveryFormatInTurn() throws {
        var generator = TestRandom(seed: 0xDEC5)
        let module = try CryptoModule(cipherKey: "turns", scheme: .aesCBC)
        let legacy = try CryptoModule(cipherKey: "turns", scheme: .legacyRandomIV)
        for length in [1, 100_000, 16, 70_000, 1024, 3] {
            let text = String(decoding: generator.bytes(length).map { 0x20 + $0 % 0x5F }, as: UTF8.self)
            #expect(try module.decryptMessage(module.encryptMessage(text)) == text, "aescbc, length \(length)")
            #expect(try module.decryptMessage(legacy.encryptMessage(text)) == text, "legacy, length \(length)")
            #expect(thrownKind { () throws(CryptoError) in try module.decryptMessage("not base64!") } == .invalidBase64)
        }
    }
}
