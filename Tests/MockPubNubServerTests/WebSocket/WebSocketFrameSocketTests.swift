// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Frames over a real socket: fragmentation, control frames, lengths, and every protocol error's close code.
@Suite(.serialized, .offPool, .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct WebSocketFrameSocketTests {
    /// Opens `/ws` (or `path`) and runs `body` with the client.
    private func withOpenSocket(
        path: String = "/ws", configure: (inout MockServerConfiguration) -> Void = { _ in },
        _ body: (WebSocketTestClient, WebSocketEventLog, MockServer) throws -> Void
    ) throws {
        try withWebSocketServer(configure: configure) { server, log in
            let client = try WebSocketTestClient(port: server.address!.port)
            _ = try client.handshake(target: path)
            #expect(log.wait { $0.first.map { if case .opened = $0 { true } else { false } } ?? false } != nil)
            try body(client, log, server)
        }
    }

    /// The close frame the server sends, then EOF; returns its payload.
    private func expectCloseThenEOF(_ client: WebSocketTestClient) -> WebSocketClosePayload? {
        let (frames, end) = client.readFramesToEnd()
        #expect(end == .eof)
        guard frames.count == 1, let frame = frames.first, frame.opcode == .close else {
            Issue.record("expected one close frame, got \(frames)")
            return nil
        }
        return try? WebSocketClosePayload.parse(frame.payload)
    }

    @Test func fragmentedMessageWithAPingInBetween() throws {
        try withOpenSocket { client, log, _ throws in
            var encoder = WebSocketFrameEncoder.client(maskSource: FixedMaskSource([WebSocketMaskKey(rawValue: 0x1122_3344)]))
            client.send(encoder.encodeFrame(fin: false, opcode: .text, payload: Array("Hel".utf8)))
            client.send(encoder.encodeFrame(opcode: .ping, payload: [9, 8, 7]))
            client.send(encoder.encodeFrame(fin: true, opcode: .continuation, payload: Array("lo".utf8)))
            #expect(try client.readFrame().get() == WebSocketFrame(opcode: .pong, payload: [9, 8, 7]))
            #expect(try client.readFrame().get() == WebSocketFrame(opcode: .text, payload: Array("Hello".utf8)))
            // The handler hears of the ping (activity), after the transport answered it.
            #expect(log.wait { $0.contains(.text("Hello")) }?.filter { $0 == .ping([9, 8, 7]) || $0 == .text("Hello") }
                == [.ping([9, 8, 7]), .text("Hello")])
        }
    }

    /// The decoder exists only while input is half received: a frame split over two writes, a
    /// fragmented message whose parts arrive in separate events, and a message after the decoder
    /// was let go all arrive whole.
    @Test func framesAndFragmentsSplitAcrossReadsArriveWhole() throws {
        try withOpenSocket { client, log, _ throws in
            let frame = client.encoder.encodeText("split-frame")
            client.send(Array(frame.prefix(3)))
            client.send(Array(frame.dropFirst(3)))
            #expect(try client.readFrame().get() == WebSocketFrame(opcode: .text, payload: Array("split-frame".utf8)))
            client.send(client.encoder.encodeFrame(fin: false, opcode: .text, payload: Array("frag".utf8)))
            client.send(client.encoder.encodeFrame(opcode: .ping, payload: [4]))
            // The pong proves the first fragment was read before the rest is sent.
            #expect(try client.readFrame().get() == WebSocketFrame(opcode: .pong, payload: [4]))
            client.send(client.encoder.encodeFrame(fin: true, opcode: .continuation, payload: Array("ment".utf8)))
            #expect(try client.readFrame().get() == WebSocketFrame(opcode: .text, payload: Array("fragment".utf8)))
            client.send(text: "again")
            #expect(try client.readFrame().get() == WebSocketFrame(opcode: .text, payload: Array("again".utf8)))
            #expect(log.wait { $0.contains(.text("again")) }?.filter { if case .text = $0 { true } else { false } }
                == [.text("split-frame"), .text("fragment"), .text("again")])
        }
    }

    @Test func sixtyFourBitLengthBothWays() throws {
        try withOpenSocket { client, log, _ throws in
            let payload = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 * 7) }
            let sent = client.encoder.encodeBinary(payload)
            #expect(Array(sent.prefix(10)) == [0x82, 0xFF, 0, 0, 0, 0, 0, 1, 0x11, 0x70])
            client.send(sent)
            let echoed = try client.readFrame().get()
            #expect(echoed == WebSocketFrame(opcode: .binary, payload: payload))
            #expect(log.wait { $0.contains(.binary(70_000)) } != nil)
        }
    }

    @Test func serverPingIsAnsweredAndReported() throws {
        try withOpenSocket { client, log, _ throws in
            client.send(text: "ping-me")
            let ping = try client.readFrame().get()
            #expect(ping == WebSocketFrame(opcode: .ping, payload: [1, 2, 3]))
            client.send(client.encoder.encodePong(ping.payload))
            #expect(log.wait { $0.contains(.pong([1, 2, 3])) } != nil)
        }
    }

    @Test func unmaskedFrameCloses1002() throws {
        try withOpenSocket { client, log, _ throws in
            client.send([0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F])
            #expect(expectCloseThenEOF(client)?.code == .protocolError)
            #expect(log.waitForClose() == .closed(code: 1002, reason: "client frame is not masked", clean: false))
        }
    }

    @Test func reservedBitsUnknownOpcodesAndBadControlFramesClose1002() throws {
        let key = WebSocketMaskKey(rawValue: 0x0BAD_F00D)
        let broken: [[UInt8]] = [
            WebSocketRawFrame(reservedBits: 4, opcode: 1, maskKey: key, payload: [0x41]).bytes,
            WebSocketRawFrame(opcode: 3, maskKey: key).bytes,
            WebSocketRawFrame(fin: false, opcode: 9, maskKey: key).bytes,
            WebSocketRawFrame(opcode: 9, maskKey: key, payload: [UInt8](repeating: 0, count: 126)).bytes,
            WebSocketRawFrame(opcode: 0, maskKey: key, payload: [0x41]).bytes,
            WebSocketRawFrame(opcode: 8, maskKey: key, payload: [0x03, 0xED]).bytes,  // code 1005 may not be sent
        ]
        for bytes in broken {
            try withOpenSocket { client, log, _ throws in
                client.send(bytes)
                #expect(expectCloseThenEOF(client)?.code == .protocolError)
                #expect(log.waitForClose().map { if case .closed(1002, _, false) = $0 { true } else { false } } == true)
            }
        }
    }

    @Test func invalidUTF8Closes1007() throws {
        try withOpenSocket { client, log, _ throws in
            client.send(client.encoder.encodeMessage(opcode: .text, payload: [0x48, 0xC0, 0xAF], fragments: 2))
            #expect(expectCloseThenEOF(client)?.code == .invalidFramePayloadData)
            #expect(log.waitForClose() == .closed(code: 1007, reason: "text message is not valid UTF-8", clean: false))
            #expect(!log.all.contains { if case .text = $0 { true } else { false } })
        }
    }

    @Test func tooBigCloses1009() throws {
        try withOpenSocket(configure: { $0.webSocket.maxMessageBytes = 1000 }) { client, log, _ throws in
            client.send(text: String(repeating: "a", count: 600), fragments: 1)
            #expect(try client.readFrame().get().payload.count == 600)
            // Two fragments of 600: each frame fits, the message does not.
            client.send(text: String(repeating: "b", count: 1200), fragments: 2)
            #expect(expectCloseThenEOF(client)?.code == .messageTooBig)
            #expect(log.waitForClose() == .closed(code: 1009, reason: "message exceeds 1000 bytes", clean: false))
        }
    }

    @Test func binaryIsRefusedWith1003WhenTheHandlerSaysSo() throws {
        try withOpenSocket(path: "/text-only") { client, log, _ throws in
            client.send(binary: [1, 2, 3])
            #expect(expectCloseThenEOF(client)?.code == .unsupportedData)
            #expect(log.waitForClose() == .closed(code: 1003, reason: "binary messages are not supported", clean: false))
        }
    }
}
