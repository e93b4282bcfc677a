// SPDX-License-Identifier: MIT
import HarnessWebSocket
import Testing

@Suite("WebSocket frame decoder", .timeLimit(.minutes(5)))
struct FrameDecoderTests {
    /// RFC 6455 §5.7: a masked "Hello" from a client.
    static let maskedHello: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
    /// RFC 6455 §5.7: an unmasked "Hello" from a server.
    static let unmaskedHello: [UInt8] = [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]

    private func decodeAll(_ bytes: [UInt8], role: WebSocketRole, max: Int = 1 << 20) throws -> [WebSocketFrame] {
        var decoder = WebSocketFrameDecoder(role: role, maxPayloadLength: max)
        decoder.feed(bytes)
        var frames: [WebSocketFrame] = []
        while let frame = try decoder.nextFrame() { frames.append(frame) }
        return frames
    }

    private func decodeError(_ bytes: [UInt8], role: WebSocketRole = .server, max: Int = 1 << 20) -> WebSocketProtocolError? {
        do {
            _ = try decodeAll(bytes, role: role, max: max)
            return nil
        } catch let error as WebSocketProtocolError {
            return error
        } catch {
            return nil
        }
    }

    @Test func maskedHelloAsServer() throws {
        let frames = try decodeAll(Self.maskedHello, role: .server)
        #expect(frames == [WebSocketFrame(opcode: .text, payload: Array("Hello".utf8), maskKey: WebSocketMaskKey(0x37, 0xFA, 0x21, 0x3D))])
    }

    @Test func unmaskedHelloAsClient() throws {
        let frames = try decodeAll(Self.unmaskedHello, role: .client)
        #expect(frames == [WebSocketFrame(opcode: .text, payload: Array("Hello".utf8))])
    }

    @Test func byteByByteFeedingGivesTheSameFrame() throws {
        var decoder = WebSocketFrameDecoder(role: .server)
        var frames: [WebSocketFrame] = []
        for byte in Self.maskedHello + Self.maskedHello {
            decoder.feed([byte])
            while let frame = try decoder.nextFrame() { frames.append(frame) }
        }
        #expect(frames.count == 2)
        #expect(frames.allSatisfy { $0.payload == Array("Hello".utf8) })
        #expect(decoder.bufferedByteCount == 0)
    }

    @Test func pingAndPongFromRFCExamples() throws {
        // §5.7: unmasked ping "Hello", masked pong "Hello".
        let ping = try decodeAll([0x89, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F], role: .client)
        #expect(ping == [WebSocketFrame(opcode: .ping, payload: Array("Hello".utf8))])
        let pong = try decodeAll([0x8A, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58], role: .server)
        #expect(pong.first?.opcode == .pong)
        #expect(pong.first?.payload == Array("Hello".utf8))
    }

    @Test func sixteenBitLength() throws {
        // §5.7: 256 bytes binary, unmasked: 0x82 0x7E 0x01 0x00.
        let payload = (0..<256).map { UInt8(truncatingIfNeeded: $0) }
        let frames = try decodeAll([0x82, 0x7E, 0x01, 0x00] + payload, role: .client)
        #expect(frames == [WebSocketFrame(opcode: .binary, payload: payload)])
    }

    @Test func sixtyFourBitLength() throws {
        // §5.7: 64 KiB binary, unmasked: 0x82 0x7F 0x00 0x00 0x00 0x00 0x00 0x01 0x00 0x00.
        let payload = [UInt8](repeating: 0xAB, count: 65536)
        let frames = try decodeAll([0x82, 0x7F, 0, 0, 0, 0, 0, 1, 0, 0] + payload, role: .client)
        #expect(frames.count == 1)
        #expect(frames.first?.payload == payload)
    }

    @Test func nonMinimalLengthIsAccepted() throws {
        let bytes = WebSocketRawFrame(opcode: 1, maskKey: WebSocketMaskKey(rawValue: 1), payload: Array("hi".utf8), lengthEncoding: .sixtyFourBit).bytes
        #expect(bytes[1] == 0x80 | 127)
        let frames = try decodeAll(bytes, role: .server)
        #expect(frames.first?.payload == Array("hi".utf8))
    }

    @Test func incompleteFrameWaits() throws {
        var decoder = WebSocketFrameDecoder(role: .server)
        decoder.feed(Self.maskedHello.prefix(10))
        #expect(try decoder.nextFrame() == nil)
        decoder.feed(Self.maskedHello.suffix(1))
        #expect(try decoder.nextFrame()?.payload == Array("Hello".utf8))
    }

    @Test func maskingMismatchIsProtocolError() {
        #expect(decodeError(Self.unmaskedHello, role: .server) == .unmaskedFrameFromClient)
        #expect(decodeError(Self.maskedHello, role: .client) == .maskedFrameFromServer)
        #expect(WebSocketProtocolError.unmaskedFrameFromClient.closeCode == .protocolError)
    }

    @Test func reservedBitsAreProtocolError() {
        let key = WebSocketMaskKey(rawValue: 7)
        for bits: UInt8 in 1...7 {
            let error = decodeError(WebSocketRawFrame(reservedBits: bits, opcode: 1, maskKey: key, payload: [0x41]).bytes)
            #expect(error == .reservedBitsSet(bits))
            #expect(error?.closeCode.rawValue == 1002)
        }
    }

    @Test func unknownOpcodesAreProtocolError() {
        for opcode: UInt8 in [3, 4, 5, 6, 7, 0xB, 0xC, 0xD, 0xE, 0xF] {
            let error = decodeError(WebSocketRawFrame(opcode: opcode, maskKey: WebSocketMaskKey(rawValue: 9)).bytes)
            #expect(error == .unknownOpcode(opcode))
            #expect(error?.closeCode == .protocolError)
        }
    }

    @Test func controlFrameRules() {
        let key = WebSocketMaskKey(rawValue: 3)
        let long = decodeError(WebSocketRawFrame(opcode: 9, maskKey: key, payload: [UInt8](repeating: 1, count: 126)).bytes)
        #expect(long == .controlFrameTooLong(126))
        #expect(long?.closeCode == .protocolError)
        let fragmented = decodeError(WebSocketRawFrame(fin: false, opcode: 9, maskKey: key, payload: [1]).bytes)
        #expect(fragmented == .fragmentedControlFrame)
        #expect(fragmented?.closeCode == .protocolError)
        // 125 bytes is still fine.
        #expect(decodeError(WebSocketRawFrame(opcode: 9, maskKey: key, payload: [UInt8](repeating: 1, count: 125)).bytes) == nil)
    }

    @Test func sixtyFourBitLengthWithTopBitIsProtocolError() {
        let bytes = WebSocketRawFrame(opcode: 2, maskKey: WebSocketMaskKey(rawValue: 5), lengthEncoding: .declared64(1 << 63)).bytes
        let error = decodeError(bytes)
        #expect(error == .lengthMostSignificantBitSet)
        #expect(error?.closeCode == .protocolError)
    }

    @Test func oversizedFrameIsMessageTooBigBeforeThePayloadArrives() throws {
        var decoder = WebSocketFrameDecoder(role: .server, maxPayloadLength: 1000)
        // Header only: 16-bit length 1001, mask key, no payload yet.
        decoder.feed([0x82, 0xFE, 0x03, 0xE9, 1, 2, 3, 4])
        #expect(throws: WebSocketProtocolError.messageTooBig(limit: 1000)) { try decoder.nextFrame() }
        #expect(WebSocketProtocolError.messageTooBig(limit: 1000).closeCode.rawValue == 1009)
        // The decoder stays failed.
        #expect(throws: WebSocketProtocolError.messageTooBig(limit: 1000)) { try decoder.nextFrame() }
    }
}
