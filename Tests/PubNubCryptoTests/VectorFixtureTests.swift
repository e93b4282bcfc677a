// SPDX-License-Identifier: MIT
import PubNubCrypto
import Testing

@Suite("Vector fixtures", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct VectorFixtureTests {
    static let vectors = FixtureLocator.allVectors()

    @Test func fixtureFilesAllParse() throws {
        let paths = FixtureLocator.vectorFilePaths()
        #expect(paths.count == 7)
        #expect(FixtureLocator.loadFiles().count == paths.count)
        #expect(Self.vectors.count >= 130)
        let ids = Self.vectors.map { "\($0.file):\($0.vector.id)" }
        #expect(Set(ids).count == ids.count, "vector ids are unique within their file")
    }

    @Test(arguments: vectors)
    func vectorHolds(_ labeled: LabeledVector) throws {
        let vector = labeled.vector
        let plaintext: [UInt8]? = vector.plaintext.map { Array($0.utf8) } ?? vector.plaintextHex.map(hex)
        let iv = vector.iv.map(hex)
        func makeModule() throws(CryptoError) -> CryptoModule {
            var module = try CryptoModule(cipherKey: vector.cipherKey, scheme: vector.scheme)
            if let fallback = vector.legacyFallback { module.legacyFallback = fallback }
            return module
        }
        if let expected = vector.error {
            let kind: CryptoError.Kind?
            if let ciphertext = vector.ciphertext {
                kind = thrownKind { () throws(CryptoError) in
                    let module = try makeModule()
                    switch vector.kind {
                    case .message: _ = try module.decryptMessage(ciphertext)
                    case .binary: _ = try module.decrypt(base64: ciphertext)
                    }
                }
            } else {
                let input = try #require(plaintext)
                kind = thrownKind { () throws(CryptoError) in
                    let module = try makeModule()
                    switch (vector.kind, iv) {
                    case (.message, let iv?): _ = try module.encryptMessage(String(decoding: input, as: UTF8.self), iv: iv)
                    case (.message, nil): _ = try module.encryptMessage(String(decoding: input, as: UTF8.self))
                    case (.binary, let iv?): _ = try module.encrypt(input, iv: iv)
                    case (.binary, nil): _ = try module.encrypt(input)
                    }
                }
            }
            #expect(kind == expected)
            return
        }
        let expectedPlaintext = try #require(plaintext)
        let ciphertext = try #require(vector.ciphertext)
        let module = try makeModule()
        if vector.decryptOnly != true {
            #expect(vector.scheme == .legacy || iv != nil, "generated vectors fix their IV")
            let produced: String
            switch (vector.kind, iv) {
            case (.message, let iv?): produced = try module.encryptMessage(vector.plaintext!, iv: iv)
            case (.message, nil): produced = try module.encryptMessage(vector.plaintext!)
            case (.binary, let iv?): produced = ByteEncoding.base64(try module.encrypt(expectedPlaintext, iv: iv))
            case (.binary, nil): produced = ByteEncoding.base64(try module.encrypt(expectedPlaintext))
            }
            #expect(produced == ciphertext)
        }
        switch vector.kind {
        case .message:
            let text = try module.decryptMessage(ciphertext)
            #expect(Array(text.utf8) == expectedPlaintext)
        case .binary:
            #expect(try module.decrypt(base64: ciphertext) == expectedPlaintext)
        }
    }

    @Test func everyDecodableErrorKindHasNegativeVectors() {
        let covered = Set(Self.vectors.compactMap(\.vector.error))
        // encryptionFailed needs libcrypto itself to fail; no input can cause it.
        let expected = Set(CryptoError.Kind.allCases).subtracting([.encryptionFailed])
        #expect(covered == expected)
    }

    @Test(arguments: CryptoScheme.allCases)
    func everySchemeHasTheRequiredPlaintextSizes(_ scheme: CryptoScheme) {
        let ofScheme = Self.vectors.map(\.vector).filter { $0.scheme == scheme }
        let binarySizes = Set(ofScheme.filter { $0.kind == .binary }.compactMap { $0.plaintextHex.map { $0.count / 2 } })
        #expect(binarySizes.isSuperset(of: [0, 1, 15, 16, 17, 31, 32, 33]))
        let messageSizes = Set(ofScheme.filter { $0.kind == .message && $0.error == nil }.compactMap { $0.plaintext?.utf8.count })
        #expect(messageSizes.isSuperset(of: [1, 15, 16, 17, 31, 32, 33, 65536]))
        #expect(ofScheme.contains { $0.plaintext?.contains("🙃") == true && $0.error == nil })
    }

    @Test func verifierPassesEveryFixtureFile() {
        for path in FixtureLocator.vectorFilePaths() {
            let failures = CryptoVectorVerifier.verify(fileAt: path).filter { !$0.passed }
            #expect(failures.isEmpty, "\(failures.map(\.line))")
        }
    }
}
