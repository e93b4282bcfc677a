// SPDX-License-Identifier: MIT
@testable import HarnessJSON
import Testing

/// Seeded random documents: written text parses back to the same value, and mutated text never
/// traps; validation accepts all that parsing accepts, and the same when the text is UTF-8 without
/// `\u` escapes (parsing also refuses lone surrogates and broken UTF-8, which validation of Swift
/// strings never meets).
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct JSONFuzzTests {
    static func value(_ random: inout TestRandom, depth: Int = 0) -> JSONValue {
        switch random.below(depth > 3 ? 4 : 6) {
        case 0: return .null
        case 1: return .bool(random.below(2) == 0)
        case 2: return random.below(2) == 0 ? .int(Int64(bitPattern: random.next())) : .number("-1.5e-7")
        case 3: return .string(String(decoding: random.bytes(random.below(6)).map { $0 % 0x7F }, as: UTF8.self) + "é😀")
        case 4: return .array((0..<random.below(4)).map { _ in value(&random, depth: depth + 1) })
        default:
            return .object(JSONObject((0..<random.below(4)).map { index in ("k\(index)", value(&random, depth: depth + 1)) }))
        }
    }

    @Test func repeatedNamesCompareEqualToThemselves() throws {
        let text = #"{"id":"a","match":1,"id":"b","match":2}"#
        #expect(try JSONValue.parse(text) == JSONValue.parse(text))
        #expect(try JSONValue.parse(text) != JSONValue.parse(#"{"id":"b","match":1,"id":"a","match":2}"#))
    }

    @Test func writtenTextParsesBackExactly() throws {
        var random = TestRandom(seed: 0x15_0A)
        for _ in 0..<500 {
            let original = Self.value(&random)
            let parsed = try JSONValue.parse(original.jsonBytes)
            #expect(parsed == original)
            #expect(parsed.jsonText == original.jsonText)
        }
    }

    @Test func mutatedTextIsJudgedConsistently() {
        var random = TestRandom(seed: 0xF022)
        let alphabet = Array(#"{}[]":,-0123456789.eE+\u truefalsenull "#.utf8)
        for _ in 0..<2_000 {
            var bytes = Self.value(&random).jsonBytes
            for _ in 0..<(1 + random.below(3)) where !bytes.isEmpty {
                let position = random.below(bytes.count)
                switch random.below(3) {
                case 0: bytes[position] = alphabet[random.below(alphabet.count)]
                case 1: bytes.remove(at: position)
                default: bytes.insert(alphabet[random.below(alphabet.count)], at: position)
                }
            }
            var scanner = JSONScanner(bytes)
            let valid = (try? scanner.scanDocument()) != nil
            let parsed = (try? JSONValue.parse(bytes)) != nil
            let plain = String(validating: bytes, as: UTF8.self).map { !$0.contains("\\u") } ?? false
            #expect(plain ? valid == parsed : valid || !parsed, "\(String(decoding: bytes, as: UTF8.self))")
        }
    }
}
