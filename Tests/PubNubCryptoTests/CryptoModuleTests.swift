// SPDX-License-Identifier: MIT
import PubNubCrypto
import Testing

@Suite("CryptoModule", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct CryptoModuleTests {
    static let fixedIV: [UInt8] = Array(0..<16)

    @Test(arguments: CryptoScheme.allCases)
    func seededRandomBinaryRoundTrips(_ scheme: CryptoScheme) throws {
        var generator = TestRandom(seed: 0xC0FFEE ^ UInt64(scheme.rawValue.utf8.count))
        let module = try CryptoModule(cipherKey: "round-trip key", scheme: scheme)
        for round in 0..<150 {
            let count = round < 130 ? Int.random(in: 1...300, using: &generator) : Int.random(in: 1000...5000, using: &generator)
            let plaintext = generator.bytes(count)
            let encrypted = try module.encrypt(plaintext)
            #expect(encrypted.count == Self.expectedSize(count, scheme))
            #expect(try module.decrypt(encrypted) == plaintext)
        }
    }

    @Test(arguments: CryptoScheme.allCases)
    func seededRandomMessagesRoundTrip(_ scheme: CryptoScheme) throws {
        var generator = TestRandom(seed: 0x5EED)
        let module = try CryptoModule(cipherKey: "clé 🔑", scheme: scheme)
        let pool: [Character] = ["a", "Z", "0", "\"", "\\", " ", "é", "漢", "🙃", "👍🏽", "\n", "{", "}"]
        for _ in 0..<100 {
            let length = Int.random(in: 1...120, using: &generator)
            let text = "\"" + String((0..<length).map { _ in pool.randomElement(using: &generator)! }) + "\""
            let decrypted = try module.decryptMessage(try module.encryptMessage(text))
            #expect(Array(decrypted.utf8) == Array(text.utf8))
        }
    }

    @Test func wireFormatsCarryTheFixedIV() throws {
        let plaintext = Array("{\"a\":1}".utf8)
        let legacy = try CryptoModule(cipherKey: "enigma", scheme: .legacy)
        let random = try CryptoModule(cipherKey: "enigma", scheme: .legacyRandomIV)
        let acrh = try CryptoModule(cipherKey: "enigma", scheme: .aesCBC)
        let randomOut = try random.encrypt(plaintext, iv: Self.fixedIV)
        #expect(Array(randomOut.prefix(16)) == Self.fixedIV)
        let acrhOut = try acrh.encrypt(plaintext, iv: Self.fixedIV)
        #expect(ByteEncoding.hex(acrhOut.prefix(10)) == "504e4544014143524810")
        #expect(Array(acrhOut[10..<26]) == Self.fixedIV)
        // The legacy formats differ only by the IV: with the static IV, random-IV data is IV ‖ legacy data.
        let staticIV = Array("0123456789012345".utf8)
        #expect(try random.encrypt(plaintext, iv: staticIV) == staticIV + legacy.encrypt(plaintext))
        #expect(try legacy.encrypt(plaintext, iv: staticIV) == legacy.encrypt(plaintext))
    }

    @Test func randomIVsDifferAndLegacyIsDeterministic() throws {
        let plaintext = Array("same".utf8)
        for scheme in [CryptoScheme.legacyRandomIV, .aesCBC] {
            let module = try CryptoModule(cipherKey: "k", scheme: scheme)
            let outputs = try (0..<64).map { _ throws(CryptoError) in try module.encrypt(plaintext) }
            #expect(Set(outputs).count == outputs.count)
        }
        let legacy = try CryptoModule(cipherKey: "k", scheme: .legacy)
        #expect(try legacy.encrypt(plaintext) == legacy.encrypt(plaintext))
    }

    @Test func emptyPlaintextFollowsTheSchemeAndCanBeConfigured() throws {
        var acrh = try CryptoModule(cipherKey: "k", scheme: .aesCBC)
        #expect(thrownKind { () throws(CryptoError) in try acrh.encrypt([]) } == .emptyData)
        #expect(thrownKind { () throws(CryptoError) in try acrh.encryptMessage("") } == .emptyData)
        acrh.encryptsEmptyPlaintext = true
        #expect(try acrh.decrypt(try acrh.encrypt([])) == [])
        var legacy = try CryptoModule(cipherKey: "k", scheme: .legacy)
        #expect(try legacy.encrypt([]).count == 16)
        legacy.encryptsEmptyPlaintext = false
        #expect(thrownKind { () throws(CryptoError) in try legacy.encrypt([]) } == .emptyData)
    }

    @Test func aesCBCModuleReadsLegacyDataWithItsFallback() throws {
        let plaintext = Array("legacy payload".utf8)
        let staticData = try CryptoModule(cipherKey: "k", scheme: .legacy).encrypt(plaintext)
        let randomData = try CryptoModule(cipherKey: "k", scheme: .legacyRandomIV).encrypt(plaintext)
        var module = try CryptoModule(cipherKey: "k", scheme: .aesCBC)
        #expect(module.legacyFallback == .randomIV)
        #expect(try module.decrypt(randomData) == plaintext)
        module.legacyFallback = .staticIV
        #expect(try module.decrypt(staticData) == plaintext)
        module.legacyFallback = .none
        #expect(thrownKind { () throws(CryptoError) in try module.decrypt(staticData) } == .unknownCryptor)
        // Headered data is read whatever the fallback and scheme.
        let acrhData = try module.encrypt(plaintext)
        #expect(try CryptoModule(cipherKey: "k", scheme: .legacy).decrypt(acrhData) == plaintext)
    }

    @Test func fixedIVMustBe16BytesAndLegacyHasNone() throws {
        let acrh = try CryptoModule(cipherKey: "k", scheme: .aesCBC)
        #expect(thrownKind { () throws(CryptoError) in try acrh.encrypt([1], iv: [UInt8](repeating: 0, count: 15)) } == .invalidIV)
        #expect(thrownKind { () throws(CryptoError) in try acrh.encryptMessage("1", iv: []) } == .invalidIV)
        let legacy = try CryptoModule(cipherKey: "k", scheme: .legacy)
        #expect(thrownKind { () throws(CryptoError) in try legacy.encrypt([1], iv: Self.fixedIV) } == .invalidIV)
    }

    @Test func corruptedDataNeverCrashes() throws {
        var generator = TestRandom(seed: 0xBAD)
        for scheme in CryptoScheme.allCases {
            let module = try CryptoModule(cipherKey: "k", scheme: scheme)
            let good = try module.encrypt(Array("a message of some length".utf8))
            var failures = 0
            for _ in 0..<200 {
                var bad = good
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bad[Int.random(in: 0..<bad.count, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator)
                case 1: bad.removeLast(Int.random(in: 1..<bad.count, using: &generator))
                default: bad = generator.bytes(Int.random(in: 0...64, using: &generator))
                }
                do throws(CryptoError) { _ = try module.decrypt(bad) } catch { failures += 1 }
            }
            // Most corruptions are detected (a flipped byte in an early block can still decrypt to garbage).
            #expect(failures > 100)
        }
    }

    @Test func invalidUTF8MessageIsATypedError() throws {
        let module = try CryptoModule(cipherKey: "k", scheme: .aesCBC)
        let data = try module.encrypt([0x22, 0xF0, 0x9F, 0x98, 0x22])  // a truncated 4-byte sequence
        #expect(thrownKind { () throws(CryptoError) in try module.decryptMessage(ByteEncoding.base64(data)) } == .invalidUTF8)
    }

    @Test func concurrentUseOfOneModuleIsCorrect() async throws {
        let module = try CryptoModule(cipherKey: "shared", scheme: .aesCBC)
        let ciphertexts = try await withThrowingTaskGroup(of: [String].self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var produced: [String] = []
                    for index in 0..<100 {
                        let text = "{\"worker\":\(worker),\"index\":\(index)}"
                        let encrypted = try module.encryptMessage(text)
                        guard try module.decryptMessage(encrypted) == text else { throw CryptoError(.wrongKeyOrPadding, "mismatch") }
                        produced.append(encrypted)
                    }
                    return produced
                }
            }
            var all: [String] = []
            for try await batch in group { all += batch }
            return all
        }
        #expect(ciphertexts.count == 400)
        let ivs = Set(try ciphertexts.map { text throws(CryptoError) in Array(try CryptoModule.bytes(fromBase64: text)[10..<26]) })
        #expect(ivs.count == 400, "every encryption used a fresh IV")
    }

    static func expectedSize(_ count: Int, _ scheme: CryptoScheme) -> Int {
        let padded = (count / 16 + 1) * 16
        switch scheme {
        case .legacy: return padded
        case .legacyRandomIV: return 16 + padded
        case .aesCBC: return 26 + padded
        }
    }
}
