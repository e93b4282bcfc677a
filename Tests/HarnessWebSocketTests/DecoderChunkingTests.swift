// SPDX-License-Identifier: MIT
import HarnessWebSocket
import Testing

/// Seeded property checks: how bytes are split never changes what the decoder and assembler produce.
@Suite("WebSocket decoder chunking", .timeLimit(.minutes(5)))
struct DecoderChunkingTests {
    /// SplitMix64, so every run sees the same cases.
    struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Messages (or the first error) from `bytes` fed in pieces whose sizes `pieces` gives.
    private func decode(_ bytes: [UInt8], pieces: inout SeededGenerator, maxPiece: Int) -> ([WebSocketMessage], WebSocketProtocolError?) {
        var decoder = WebSocketFrameDecoder(role: .server, maxPayloadLength: 4096)
        var assembler = WebSocketMessageAssembler(maxMessageSize: 4096)
        var out: [WebSocketMessage] = []
        var offset = 0
        do {
            while offset < bytes.count {
                let size = Int.random(in: 1...maxPiece, using: &pieces)
                decoder.feed(bytes[offset..<min(bytes.count, offset + size)])
                offset += size
                while let frame = try decoder.nextFrame() {
                    if let message = try assembler.push(frame) { out.append(message) }
                }
            }
        } catch {
            return (out, error)
        }
        return (out, nil)
    }

    @Test func validStreamsDecodeTheSameInAnyPieces() {
        var generator = SeededGenerator(state: 20_261_123)
        for _ in 0..<200 {
            var encoder = WebSocketFrameEncoder.client(maskSource: FixedMaskSource([WebSocketMaskKey(rawValue: generator.next() >> 32 | 1)]))
            var stream: [UInt8] = []
            var expected: [WebSocketMessage] = []
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let length = Int.random(in: 0...3000, using: &generator)
                let fragments = Int.random(in: 1...4, using: &generator)
                if Bool.random(using: &generator) {
                    let text = String((0..<length).map { _ in Character(Unicode.Scalar(UInt8.random(in: 0x20...0x7E, using: &generator))) })
                    stream += encoder.encodeText(text, fragments: fragments)
                    expected.append(.text(text))
                } else {
                    let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                    stream += encoder.encodeBinary(bytes, fragments: fragments)
                    expected.append(.binary(bytes))
                }
                if Bool.random(using: &generator) {
                    stream += encoder.encodePing([7])
                    expected.append(.ping([7]))
                }
            }
            var pieces = SeededGenerator(state: generator.next())
            let whole = decode(stream, pieces: &pieces, maxPiece: stream.count)
            let split = decode(stream, pieces: &pieces, maxPiece: 7)
            #expect(whole.1 == nil && split.1 == nil)
            // A ping between fragments comes out before the message it interrupts, so compare as multisets per kind.
            #expect(whole.0.filter { if case .ping = $0 { false } else { true } } == expected.filter { if case .ping = $0 { false } else { true } })
            #expect(split.0 == whole.0)
        }
    }

    @Test func corruptedStreamsFailTheSameInAnyPieces() {
        var generator = SeededGenerator(state: 6455)
        for _ in 0..<500 {
            var encoder = WebSocketFrameEncoder.client(maskSource: FixedMaskSource([WebSocketMaskKey(rawValue: 0x0102_0304)]))
            var stream = encoder.encodeText(String(repeating: "é", count: Int.random(in: 1...300, using: &generator)), fragments: 3)
                + encoder.encodeBinary([1, 2, 3])
            for _ in 0..<Int.random(in: 1...3, using: &generator) {
                stream[Int.random(in: 0..<stream.count, using: &generator)] ^= UInt8.random(in: 1...255, using: &generator)
            }
            var pieces = SeededGenerator(state: generator.next())
            let whole = decode(stream, pieces: &pieces, maxPiece: stream.count)
            let split = decode(stream, pieces: &pieces, maxPiece: 5)
            #expect(split.0 == whole.0)
            #expect(split.1 == whole.1)
        }
    }
}
