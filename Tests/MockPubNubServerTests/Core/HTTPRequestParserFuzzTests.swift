// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Seeded mutations of valid pipelines: the parser never traps, and the outcome does not depend
/// on how the bytes are split.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct HTTPRequestParserFuzzTests {
    enum Outcome: Equatable {
        case requests([HTTPRequestParser.Parsed], pending: Bool)
        case failed([HTTPRequestParser.Parsed], HTTPParseError)
    }

    static let seeds: [String] = [
        "GET /v2/subscribe/k/a,b/0?tt=0&uuid=u HTTP/1.1\r\nHost: h\r\n\r\n",
        "POST /publish/p/s/0/c/0?uuid=u HTTP/1.1\r\nContent-Length: 7\r\n\r\n\"hello\"",
        "POST /x HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;e\r\nabc\r\n0\r\nT: v\r\n\r\n",
        "GET /time/0 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
    ]

    private func run(_ bytes: [UInt8], cuts: [Int], limits: HTTPRequestParser.Limits) -> Outcome {
        var parser = HTTPRequestParser(limits: limits)
        var parsed: [HTTPRequestParser.Parsed] = []
        var start = 0
        for cut in cuts + [bytes.count] where cut >= start {
            parser.append(Array(bytes[start..<cut]))
            start = cut
            do {
                while let request = try parser.next() { parsed.append(request) }
            } catch {
                return .failed(parsed, error)
            }
        }
        return .requests(parsed, pending: parser.hasBufferedBytes)
    }

    @Test func mutatedPipelinesParseTheSameWhateverTheSplit() {
        var random = TestRandom(seed: 20_261_121)
        let limits = HTTPRequestParser.Limits(maxHeaderBytes: 256, maxTargetBytes: 64, maxBodyBytes: 64)
        let alphabet = Array("\r\n :;0123456789abcdefABCDEF/?%-GETPOST HTTP/1.1".utf8) + [0, 0x7F, 0xFF, 0x09]
        var failures = 0
        var successes = 0
        for _ in 0..<400 {
            var bytes: [UInt8] = []
            for _ in 0..<(1 + random.below(3)) { bytes += Array(Self.seeds[random.below(Self.seeds.count)].utf8) }
            for _ in 0..<random.below(4) {
                let position = random.below(bytes.count)
                switch random.below(3) {
                case 0: bytes[position] = alphabet[random.below(alphabet.count)]
                case 1: bytes.insert(alphabet[random.below(alphabet.count)], at: position)
                default: bytes.remove(at: position)
                }
            }
            let whole = run(bytes, cuts: [], limits: limits)
            let cuts = (0..<random.below(6)).map { _ in random.below(bytes.count + 1) }.sorted()
            #expect(run(bytes, cuts: cuts, limits: limits) == whole, "\(String(decoding: bytes, as: UTF8.self).debugDescription) cuts \(cuts)")
            if case .failed = whole { failures += 1 } else { successes += 1 }
        }
        // The corpus exercises both paths.
        #expect(failures > 20)
        #expect(successes > 20)
    }
}
