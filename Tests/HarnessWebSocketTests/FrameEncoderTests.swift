// SPDX-License-Identifier: MIT
import HarnessWebSocket
import Testing

@Suite("WebSocket frame encoder", .timeLimit(.minutes(5)))
struct FrameEncoderTests {
    @Test func serverHelloIsUnmasked() {
        var encoder = WebSocketFrameEncoder.server
        #expect(encoder.encodeText("Hello") == [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
    }

    @Test func clientHelloMatchesRFCExample() {
        var encoder = WebSocketFrameEncoder.client(maskSource: FixedMaskSource([WebSocketMaskKey(0x37, 0xFA, 0x21, 0x3D)]))
        #expect(encoder.encodeText("Hello") == [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58])
    }

    @Test func maskKeysComeFromTheSourceInTurn() {
        let keys = [WebSocketMaskKey(rawValue: 0x01020304), WebSocketMaskKey(rawValue: 0x0A0B0C0D)]
        var encoder = WebSocketFrameEncoder.client(maskSource: FixedMaskSource(keys))
        let first = encoder.encodePing([])
        let second = encoder.encodePing([])
        let third = encoder.encodePing([])
        #expect(first == [0x89, 0x80, 1, 2, 3, 4])
        #expect(second == [0x89, 0x80, 0x0A, 0x0B, 0x0C, 0x0D])
        #expect(third == first)
    }

    @Test func lengthForms() {
        var encoder = WebSocketFrameEncoder.server
        #expect(Array(encoder.encodeBinary([UInt8](repeating: 0, count: 125)).prefix(2)) == [0x82, 125])
        #expect(Array(encoder.encodeBinary([UInt8](repeating: 0, count: 256)).prefix(4)) == [0x82, 0x7E, 0x01, 0x00])
        #expect(Array(encoder.encodeBinary([UInt8](repeating: 0, count: 65535)).prefix(4)) == [0x82, 0x7E, 0xFF, 0xFF])
        let big = encoder.encodeBinary([UInt8](repeating: 0, count: 65536))
        #expect(Array(big.prefix(10)) == [0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0])
        #expect(big.count == 65546)
    }

    @Test func fragmentationSplitsIntoContinuations() throws {
        var encoder = WebSocketFrameEncoder.server
        let bytes = encoder.encodeText("Hello", fragments: 3)
        // "He" + "ll" + "o": text FIN=0, continuation FIN=0, continuation FIN=1.
        #expect(bytes == [0x01, 0x02, 0x48, 0x65, 0x00, 0x02, 0x6C, 0x6C, 0x80, 0x01, 0x6F])
        var decoder = WebSocketFrameDecoder(role: .client)
        decoder.feed(bytes)
        var assembler = WebSocketMessageAssembler()
        var out: [WebSocketMessage] = []
        while let frame = try decoder.nextFrame() { if let message = try assembler.push(frame) { out.append(message) } }
        #expect(out == [.text("Hello")])
    }

    @Test func clientFramesRoundTripThroughServerDecoder() throws {
        var encoder = WebSocketFrameEncoder.client(maskSource: FixedMaskSource([WebSocketMaskKey(rawValue: 0xDEADBEEF)]))
        let text = String(repeating: "ü", count: 40000)
        var decoder = WebSocketFrameDecoder(role: .server)
        decoder.feed(encoder.encodeText(text, fragments: 4) + encoder.encodeClose(WebSocketClosePayload(code: .goingAway, reason: "later")))
        var assembler = WebSocketMessageAssembler()
        var out: [WebSocketMessage] = []
        while let frame = try decoder.nextFrame() { if let message = try assembler.push(frame) { out.append(message) } }
        #expect(out == [.text(text), .close(WebSocketClosePayload(code: .goingAway, reason: "later"))])
    }

    @Test func closePayloadBytesAndReasonCut() {
        #expect(WebSocketClosePayload(code: .normalClosure, reason: "ok").bytes == [0x03, 0xE8, 0x6F, 0x6B])
        let long = WebSocketClosePayload(code: WebSocketCloseCode(4000), reason: String(repeating: "é", count: 100)).bytes
        #expect(long.count == 2 + 122)  // 61 two-byte characters fit in 123 bytes
        var encoder = WebSocketFrameEncoder.server
        #expect(encoder.encodeClose(nil) == [0x88, 0x00])
    }

    @Test func rawFramesCarryAnyHeader() {
        let frame = WebSocketRawFrame(fin: false, reservedBits: 5, opcode: 0xB, payload: [1, 2], lengthEncoding: .sixteenBit)
        #expect(frame.bytes == [0x5B, 0x7E, 0x00, 0x02, 1, 2])
    }
}
