// SPDX-License-Identifier: MIT
import HarnessPrimitives
import Testing

@Suite("Digests and MACs", .timeLimit(.minutes(5)))
struct DigestTests {
    /// FIPS 180 / RFC 1321 vectors for "abc" and the empty input.
    @Test func digestsOfKnownInputs() {
        #expect(ByteEncoding.hex(Digest.sha1(Array("abc".utf8))) == "a9993e364706816aba3e25717850c26c9cd0d89d")
        #expect(ByteEncoding.hex(Digest.sha256(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(ByteEncoding.hex(Digest.md5(Array("abc".utf8))) == "900150983cd24fb0d6963f7d28e17f72")
        #expect(ByteEncoding.hex(Digest.md5([UInt8]())) == "d41d8cd98f00b204e9800998ecf8427e")
        #expect(Digest.sha256([UInt8]()).count == 32)
    }

    /// RFC 4231 test cases 1 and 2.
    @Test func hmacSHA256MatchesRFC4231() {
        let key = [UInt8](repeating: 0x0B, count: 20)
        #expect(ByteEncoding.hex(HMAC.sha256(key: key, data: Array("Hi There".utf8)))
            == "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7")
        #expect(ByteEncoding.hex(HMAC.sha256(key: "Jefe", message: "what do ya want for nothing?"))
            == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    @Test func constantTimeComparison() {
        #expect(constantTimeEqual("abc", "abc"))
        #expect(!constantTimeEqual("abc", "abd"))
        #expect(!constantTimeEqual("abc", "abcd"))
        #expect(constantTimeEqual([UInt8](), [UInt8]()))
        #expect(!constantTimeEqual([1, 2, 3] as [UInt8], [1, 2, 4] as [UInt8]))
    }
}

@Suite("base64url and percent coding", .timeLimit(.minutes(5)))
struct TextEncodingTests {
    /// RFC 4648 §5: `-` and `_` replace `+` and `/`; no padding.
    @Test func base64URLUsesTheURLAlphabetWithoutPadding() {
        #expect(ByteEncoding.base64URL([0xFB, 0xFF, 0xBF]) == "-_-_")
        #expect(ByteEncoding.base64URL(Array("f".utf8)) == "Zg")
        #expect(ByteEncoding.base64URL(Array("fo".utf8)) == "Zm8")
        #expect(ByteEncoding.base64URL([]) == "")
        #expect(ByteEncoding.base64([0xFB, 0xFF, 0xBF, 0x00]) == "+/+/AA==")
    }

    @Test func percentEncodingKeepsTheChosenSet() {
        #expect(PercentCoding.encode("a b/~é,") == "a%20b%2F~%C3%A9%2C")
        #expect(PercentCoding.encode("a~b", keeping: .unreservedWithoutTilde) == "a%7Eb")
        #expect(PercentCoding.encode("a,b c", keeping: PercentCoding.Kept(extra: [UInt8(ascii: ",")])) == "a,b%20c")
        #expect(PercentCoding.encode("A-Z_a.z09") == "A-Z_a.z09")
    }

    @Test func percentDecodingRefusesMalformedEscapes() {
        #expect(PercentCoding.decode("a%20b+c", plusAsSpace: true) == "a b c")
        #expect(PercentCoding.decode("a%20b+c", plusAsSpace: false) == "a b+c")
        #expect(PercentCoding.decode("%C3%A9", plusAsSpace: false) == "é")
        #expect(PercentCoding.decode("%zz", plusAsSpace: false) == nil)
        #expect(PercentCoding.decode("%2", plusAsSpace: false) == nil)
        #expect(PercentCoding.decode("%FF", plusAsSpace: false) == nil)
    }

    @Test func splitMix64IsDeterministic() {
        var a = SplitMix64(seed: 42)
        var b = SplitMix64(seed: 42)
        let first = (0..<4).map { _ in a.next() }
        #expect(first == (0..<4).map { _ in b.next() })
        #expect(Set(first).count == 4)
        #expect((0..<100).allSatisfy { _ in (0..<1).contains(a.nextUnit()) })
    }
}
