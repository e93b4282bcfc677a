// SPDX-License-Identifier: MIT
import PubNubCrypto
import Testing

@Suite("Key derivation", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct KeyDerivationTests {
    @Test func enigmaMatchesTheSpecExample() throws {
        let keys = try DerivedKeys(cipherKey: "enigma")
        #expect(ByteEncoding.hex(keys.digest) == "67a4f45f0d1d9bc606486fc42dc4941668e71d34ee500735fe9b7ea4625c687c")
        #expect(ByteEncoding.hex(keys.legacyKey) == "3637613466343566306431643962633630363438366663343264633439343136")
        #expect(String(decoding: keys.legacyKey, as: UTF8.self) == "67a4f45f0d1d9bc606486fc42dc49416")
    }

    @Test func digestIsSHA256OfTheUTF8Bytes() throws {
        // FIPS 180-2 example "abc".
        #expect(ByteEncoding.hex(try DerivedKeys(cipherKey: "abc").digest)
            == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func emptyKeyIsRejected() {
        #expect(thrownKind { () throws(CryptoError) in try DerivedKeys(cipherKey: "") } == .emptyKey)
        #expect(thrownKind { () throws(CryptoError) in try CryptoModule(cipherKey: "", scheme: .aesCBC) } == .emptyKey)
    }
}

@Suite("Cryptor header", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct CryptorHeaderTests {
    /// Length encodings from the spec (python encode_header for these lengths).
    @Test(arguments: [
        (0, "00"), (1, "01"), (16, "10"), (254, "fe"), (255, "ff00ff"), (256, "ff0100"), (300, "ff012c"),
        (65535, "ffffff"),
    ])
    func lengthEncodingAndRoundTrip(_ length: Int, _ lengthHex: String) throws {
        let data = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let header = CryptorHeader(cryptorID: CryptorHeader.aesCBCCryptorID, cryptorData: data)
        let encoded = try #require(header.encoded())
        #expect(ByteEncoding.hex(encoded.prefix(9)) == "504e45440141435248")
        #expect(ByteEncoding.hex(encoded.dropFirst(9).prefix(lengthHex.count / 2)) == lengthHex)
        #expect(encoded.count == 9 + lengthHex.count / 2 + length)
        let parsed = try #require(try CryptorHeader.parse(encoded + [0xAA, 0xBB]))
        #expect(parsed.header == header)
        #expect(parsed.length == encoded.count)
    }

    @Test func unencodableFieldsGiveNil() {
        #expect(CryptorHeader(cryptorID: [1, 2, 3], cryptorData: []).encoded() == nil)
        #expect(CryptorHeader(cryptorID: [1, 2, 3, 4], cryptorData: [UInt8](repeating: 0, count: 65536)).encoded() == nil)
    }

    @Test func headerlessDataParsesAsNil() throws {
        #expect(try CryptorHeader.parse([]) == nil)
        #expect(try CryptorHeader.parse(Array("PNE".utf8)) == nil)
        #expect(try CryptorHeader.parse(Array("PNEX\u{1}ACRH\u{10}".utf8)) == nil)
    }

    @Test(arguments: [
        ("504e4544", CryptoError.Kind.truncatedHeader),
        ("504e454401", .truncatedHeader),
        ("504e45440141435248", .truncatedHeader),
        ("504e4544014143524810 0001020304", .truncatedHeader),
        ("504e45440141435248ff00", .truncatedHeader),
        ("504e45440141435248ff0003 0102", .truncatedHeader),
        ("504e454402", .unknownVersion),
        ("504e45440041435248 00", .unknownVersion),
        ("504e4544ff41435248 00", .unknownVersion),
    ])
    func malformedHeadersAreTypedErrors(_ bytes: String, _ kind: CryptoError.Kind) {
        #expect(thrownKind { () throws(CryptoError) in try CryptorHeader.parse(hex(bytes)) } == kind)
    }

    @Test func unknownCryptorIDParsesButCannotDecrypt() throws {
        let bytes = hex("504e45440141435242 10") + [UInt8](repeating: 1, count: 32)
        let parsed = try #require(try CryptorHeader.parse(bytes))
        #expect(parsed.header.cryptorID == Array("ACRB".utf8))
        let module = try CryptoModule(cipherKey: "enigma", scheme: .aesCBC)
        #expect(thrownKind { () throws(CryptoError) in try module.decrypt(bytes) } == .unknownCryptor)
    }
}
