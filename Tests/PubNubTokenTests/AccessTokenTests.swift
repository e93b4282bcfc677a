// SPDX-License-Identifier: MIT
import HarnessJSON
import PubNubToken
import Testing

@Suite(.timeLimit(.minutes(5))) struct AccessTokenTests {
    private func sample(uuid: String? = "u1") -> AccessToken {
        var resources = TokenGrants()
        resources[.channels] = [TokenGrantEntry(name: "ch", mask: 239)]
        resources[.uuids] = [TokenGrantEntry(name: "u1", mask: 104)]
        var patterns = TokenGrants()
        patterns[.groups] = [TokenGrantEntry(name: "^g-.*$", mask: 5)]
        return AccessToken(
            timestamp: 1_739_306_763, ttl: 60, resources: resources, patterns: patterns,
            meta: CBORJSON.cbor(["n": -3, "f": .double(1.5), "a": [true, .null]]), authorizedUUID: uuid,
            signature: Array(repeating: 7, count: 32))
    }

    @Test func encodesByteStringKeysInTheLiveOrder() throws {
        let token = sample()
        let raw = try #require(try? CBORCodec.decode(CBORCodec.encode(.bytes([]))))
        #expect(raw == .bytes([]))
        // map(8), then b"v" (0x41 0x76) = 2, b"t" with a 32-bit integer.
        #expect(token.text.hasPrefix("qEF2AkF0Gm"))
        #expect(sample(uuid: nil).text.hasPrefix("p0F2AkF0Gm"))
        #expect(token.text.count % 4 == 0)
    }

    @Test func parseReadsBackEveryField() throws {
        let token = sample()
        #expect(try AccessToken.parse(token.text) == token)
        let unpadded = String(token.text.drop { _ in false }.reversed().drop { $0 == "=" }.reversed())
        #expect(try AccessToken.parse(unpadded) == token)
        let percent = token.text.replacingOccurrencesOfEquals()
        #expect(try AccessToken.parse(percent) == token)
        #expect(try AccessToken.parse(token.text).metaJSON == ["n": -3, "f": .double(1.5), "a": [true, .null]])
        #expect(token.expiresAt == 1_739_306_763 + 3600)
    }

    @Test func refusesWhatIsNotAToken() {
        #expect(throws: AccessTokenError.notBase64) { try AccessToken.parse("") }
        #expect(throws: AccessTokenError.notBase64) { try AccessToken.parse("***") }
        #expect(throws: AccessTokenError.self) { try AccessToken.parse("AAAA") }
        let noSig = CBORCodec.encode(.map([CBORMapEntry(.bytes(Array("v".utf8)), .int(2))]))
        #expect(throws: AccessTokenError.self) { try AccessToken.parse(String(ByteEncodingProxy.base64(noSig))) }
    }

    @Test func codecRoundTripsEveryKind() throws {
        let value = CBORValue.array([
            .unsigned(0), .unsigned(23), .unsigned(24), .unsigned(65_536), .unsigned(UInt64.max), .int(-1), .int(-1_000_000),
            .bytes([1, 2]), .text("héllo"), .text(""), .map([CBORMapEntry(.text("k"), .null)]), .bool(true), .bool(false), .float(0.25),
        ])
        #expect(try CBORCodec.decode(CBORCodec.encode(value)) == value)
        #expect(CBORCodec.encode(.unsigned(23)) == [0x17])
        #expect(CBORCodec.encode(.unsigned(239)) == [0x18, 0xEF])
        #expect(CBORCodec.encode(.bytes(Array("v".utf8))) == [0x41, 0x76])
        #expect(throws: CBORError.trailingBytes) { try CBORCodec.decode([0x01, 0x02]) }
        #expect(throws: CBORError.malformed) { try CBORCodec.decode([0x18]) }
        // Claims larger than the input are refused before libcbor allocates for them.
        #expect(throws: CBORError.malformed) { try CBORCodec.decode([0xBB, 0x00, 0x00, 0x00, 0x10, 0x00, 0x00, 0x00, 0x00]) }
        #expect(throws: CBORError.malformed) { try CBORCodec.decode([0x5A, 0xFF, 0xFF, 0xFF, 0xFF, 0x00]) }
        #expect(throws: CBORError.malformed) { try CBORCodec.decode(Array(repeating: 0x81, count: 100) + [0x00]) }
        #expect(throws: CBORError.malformed) { try CBORCodec.decode([0x9F, 0xFF]) }
        #expect(try CBORCodec.decode(Array(repeating: 0x81, count: 60) + [0x00]) != .null)
    }
}

extension String {
    fileprivate func replacingOccurrencesOfEquals() -> String {
        var out = ""
        for c in self { out += c == "=" ? "%3D" : String(c) }
        return out
    }
}

/// Standard base64 for a test token built by hand.
enum ByteEncodingProxy {
    static func base64(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
        var out = ""
        var index = 0
        while index < bytes.count {
            let chunk = Array(bytes[index..<min(index + 3, bytes.count)])
            var value = 0
            for (offset, byte) in chunk.enumerated() { value |= Int(byte) << (16 - 8 * offset) }
            for position in 0..<4 {
                out.append(position <= chunk.count ? alphabet[(value >> (18 - 6 * position)) & 0x3F] : "=")
            }
            index += 3
        }
        return out
    }
}
