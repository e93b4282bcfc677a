// SPDX-License-Identifier: MIT
import MockPubNubServer

/// A small deterministic mutator for the seeded fuzz runs of `swift test`: byte flips, inserts,
/// deletions, duplications, splices from other seeds and insertion of tokens that matter to the
/// decoders (CRLF, quotes, brackets, escapes, digits). Not a replacement for libFuzzer's guided
/// search; it keeps every entry point exercised on every test run.
public struct SeededMutator: Sendable {
    private var random: FaultRandom

    /// Creates a mutator; the same seed gives the same mutations.
    public init(seed: UInt64) {
        random = FaultRandom(seed: seed)
    }

    /// Tokens inserted whole (they are what the decoders branch on).
    static let tokens: [[UInt8]] = [
        "\r\n", "\n", "\r\n\r\n", " ", ":", "\"", "\\", "\\u", "\\ud800", "{", "}", "[", "]", ",", "0", "-", "1e999",
        "9223372036854775808", "null", "true", "Content-Length: ", "Transfer-Encoding: chunked", "0\r\n\r\n",
        "HTTP/1.1", "GET ", "%", "%zz", "?", "&", "=", "\u{00}", "\u{7F}", "\u{FF}", "\"type\":", "\"rules\":[",
        "\"fault\":{\"kind\":", "\"id\":",
    ].map { Array($0.utf8) }

    /// The next pseudo-random number (the fault layer's SplitMix64).
    public mutating func next() -> UInt64 { random.next() }

    mutating func below(_ bound: Int) -> Int {
        bound <= 1 ? 0 : Int(next() % UInt64(bound))
    }

    /// `input` with one to four mutations applied; `others` are splice sources. At most `maxLength` bytes.
    public mutating func mutate(_ input: [UInt8], splicingFrom others: [[UInt8]], maxLength: Int = 4096) -> [UInt8] {
        var bytes = input
        for _ in 0...below(4) {
            switch below(7) {
            case 0 where !bytes.isEmpty:
                bytes[below(bytes.count)] ^= UInt8(truncatingIfNeeded: 1 << below(8))
            case 1:
                bytes.insert(UInt8(truncatingIfNeeded: next()), at: below(bytes.count + 1))
            case 2 where !bytes.isEmpty:
                let start = below(bytes.count)
                bytes.removeSubrange(start..<min(bytes.count, start + 1 + below(16)))
            case 3 where !bytes.isEmpty:
                let start = below(bytes.count)
                let piece = bytes[start..<min(bytes.count, start + 1 + below(32))]
                bytes.insert(contentsOf: piece, at: below(bytes.count + 1))
            case 4 where !others.isEmpty:
                let other = others[below(others.count)]
                let cut = below(bytes.count + 1)
                let from = below(other.count + 1)
                bytes = Array(bytes[..<cut]) + other[from...]
            case 5:
                bytes.insert(contentsOf: Self.tokens[below(Self.tokens.count)], at: below(bytes.count + 1))
            default:
                if !bytes.isEmpty { bytes[below(bytes.count)] = Self.tokens[below(Self.tokens.count)].first ?? 0 }
            }
        }
        return bytes.count > maxLength ? Array(bytes[..<maxLength]) : bytes
    }
}
