// SPDX-License-Identifier: MIT
import HarnessWebSocket
import Testing

@Suite("WebSocket message assembler", .timeLimit(.minutes(5)))
struct MessageAssemblerTests {
    private func messages(_ frames: [WebSocketFrame], max: Int = 1 << 20) throws -> [WebSocketMessage] {
        var assembler = WebSocketMessageAssembler(maxMessageSize: max)
        return try frames.compactMap { try assembler.push($0) }
    }

    private func error(_ frames: [WebSocketFrame], max: Int = 1 << 20) -> WebSocketProtocolError? {
        do {
            _ = try messages(frames, max: max)
            return nil
        } catch let error as WebSocketProtocolError {
            return error
        } catch {
            return nil
        }
    }

    @Test func rfcFragmentedHelloWithInterleavedPing() throws {
        // §5.7: "Hel" (0x01 0x03) then "lo" (0x80 0x02), unmasked; a ping sits between them.
        var decoder = WebSocketFrameDecoder(role: .client)
        decoder.feed([0x01, 0x03, 0x48, 0x65, 0x6C] + [0x89, 0x01, 0x21] + [0x80, 0x02, 0x6C, 0x6F])
        var assembler = WebSocketMessageAssembler()
        var out: [WebSocketMessage] = []
        while let frame = try decoder.nextFrame() {
            if let message = try assembler.push(frame) { out.append(message) }
        }
        #expect(out == [.ping([0x21]), .text("Hello")])
        #expect(!assembler.isInsideFragmentedMessage)
    }

    @Test func fragmentedBinary() throws {
        let frames = [
            WebSocketFrame(fin: false, opcode: .binary, payload: [1, 2]),
            WebSocketFrame(fin: false, opcode: .continuation, payload: []),
            WebSocketFrame(fin: true, opcode: .continuation, payload: [3]),
        ]
        #expect(try messages(frames) == [.binary([1, 2, 3])])
    }

    @Test func utf8SplitAcrossFragmentsIsValidOnceComplete() throws {
        let euro = Array("€".utf8)  // E2 82 AC
        let frames = [
            WebSocketFrame(fin: false, opcode: .text, payload: [euro[0]]),
            WebSocketFrame(fin: true, opcode: .continuation, payload: Array(euro[1...])),
        ]
        #expect(try messages(frames) == [.text("€")])
    }

    @Test func continuationWithoutStartIsProtocolError() {
        let found = error([WebSocketFrame(opcode: .continuation, payload: [1])])
        #expect(found == .continuationWithoutStart)
        #expect(found?.closeCode == .protocolError)
    }

    @Test func newMessageInsideFragmentedMessageIsProtocolError() {
        let found = error([WebSocketFrame(fin: false, opcode: .text, payload: [0x41]), WebSocketFrame(opcode: .text, payload: [0x42])])
        #expect(found == .messageStartDuringFragmentedMessage)
        #expect(found?.closeCode == .protocolError)
    }

    @Test func invalidUTF8IsInvalidPayload() {
        for bad: [UInt8] in [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82]] {
            let found = error([WebSocketFrame(opcode: .text, payload: bad)])
            #expect(found == .invalidUTF8Text)
            #expect(found?.closeCode.rawValue == 1007)
        }
    }

    @Test func fragmentsOverTheLimitAreMessageTooBig() {
        let frames = [
            WebSocketFrame(fin: false, opcode: .binary, payload: [UInt8](repeating: 0, count: 60)),
            WebSocketFrame(fin: true, opcode: .continuation, payload: [UInt8](repeating: 0, count: 60)),
        ]
        let found = error(frames, max: 100)
        #expect(found == .messageTooBig(limit: 100))
        #expect(found?.closeCode == .messageTooBig)
    }

    @Test func closePayloads() throws {
        #expect(try messages([WebSocketFrame(opcode: .close)]) == [.close(nil)])
        let normal = try messages([WebSocketFrame(opcode: .close, payload: [0x03, 0xE8] + Array("bye".utf8))])
        #expect(normal == [.close(WebSocketClosePayload(code: .normalClosure, reason: "bye"))])
        let app = try messages([WebSocketFrame(opcode: .close, payload: [0x0F, 0xA1])])
        #expect(app == [.close(WebSocketClosePayload(code: WebSocketCloseCode(4001)))])
    }

    @Test func invalidClosePayloads() {
        #expect(error([WebSocketFrame(opcode: .close, payload: [0x03])]) == .closePayloadTooShort)
        for code: UInt16 in [0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000] {
            let found = error([WebSocketFrame(opcode: .close, payload: [UInt8(code >> 8), UInt8(code & 0xFF)])])
            #expect(found == .invalidCloseCode(code))
            #expect(found?.closeCode == .protocolError)
        }
        let badReason = error([WebSocketFrame(opcode: .close, payload: [0x03, 0xE8, 0xFF])])
        #expect(badReason == .invalidUTF8CloseReason)
        #expect(badReason?.closeCode == .invalidFramePayloadData)
    }

    @Test func closeCodeValidity() {
        for code: UInt16 in [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 3000, 4000, 4999] {
            #expect(WebSocketCloseCode(code).isValidOnWire)
        }
        #expect(WebSocketCloseCode.noStatusReceived.rawValue == 1005)
        #expect(WebSocketCloseCode.abnormalClosure.rawValue == 1006)
        #expect(!WebSocketCloseCode.tlsHandshake.isValidOnWire)
    }
}
