// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Upgrades on a real listener: the exact 101, refusals, and the PubNub endpoints beside them.
@Suite(.serialized, .offPool, .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct WebSocketHandshakeSocketTests {
    static let expected101 =
        "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n"
    static let maskedHello: [UInt8] = [0x81, 0x85, 0x37, 0xFA, 0x21, 0x3D, 0x7F, 0x9F, 0x4D, 0x51, 0x58]
    static let serverHello: [UInt8] = [0x81, 0x05, 0x48, 0x65, 0x6C, 0x6C, 0x6F]

    @Test func exact101ThenEcho() throws {
        try withWebSocketServer { server, log in
            let client = try WebSocketTestClient(port: server.address!.port)
            let (text, _) = try client.handshake(target: "/ws")
            #expect(text == Self.expected101)
            client.send(Self.maskedHello)
            let frame = try client.readFrame().get()
            #expect(frame == WebSocketFrame(opcode: .text, payload: Array("Hello".utf8)))
            #expect(log.wait { $0.contains(.text("Hello")) } != nil)
            #expect(server.openWebSocketCount == 1)
        }
    }

    @Test func echoFrameBytesAreExact() throws {
        try withWebSocketServer { server, _ in
            let client = try WebSocketTestClient(port: server.address!.port)
            _ = try client.handshake(target: "/ws")
            client.send(Self.maskedHello)
            var received: [UInt8] = []
            for _ in 0..<10 where received.count < Self.serverHello.count {
                guard case .success(let bytes) = client.readOnce() else { break }
                received += bytes
            }
            #expect(received == Self.serverHello)
        }
    }

    @Test func framesPipelinedBehindTheRequestHeadAreKept() throws {
        try withWebSocketServer { server, _ in
            let client = try WebSocketTestClient(port: server.address!.port)
            var encoder = WebSocketFrameEncoder.client(maskSource: FixedMaskSource([WebSocketMaskKey(rawValue: 0xA1B2_C3D4)]))
            let pipelined = Self.maskedHello + encoder.encodeText("second", fragments: 2)
            let (text, _) = try client.handshake(target: "/ws", pipelined: pipelined)
            #expect(text == Self.expected101)
            #expect(try client.readFrame().get().payload == Array("Hello".utf8))
            #expect(try client.readFrame().get().payload == Array("second".utf8))
        }
    }

    @Test func wrongVersionIs426WithTheSupportedVersion() throws {
        try withWebSocketServer { server, log in
            let client = try WebSocketTestClient(port: server.address!.port)
            client.send(Array("GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 8\r\n\r\n".utf8))
            let (text, end) = client.readRawToEnd()
            #expect(text.hasPrefix("HTTP/1.1 426 Upgrade Required\r\n"))
            #expect(text.contains("\r\nSec-WebSocket-Version: 13\r\n"))
            #expect(text.contains("\r\nConnection: close\r\n"))
            #expect(end == .eof)
            #expect(log.all.isEmpty)
        }
    }

    @Test func missingKeyIs400() throws {
        try withWebSocketServer { server, log in
            let client = try WebSocketTestClient(port: server.address!.port)
            client.send(Array("GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n\r\n".utf8))
            let (text, end) = client.readRawToEnd()
            #expect(text.hasPrefix("HTTP/1.1 400 Bad Request\r\n"))
            #expect(text.hasSuffix("\r\n\r\nSec-WebSocket-Key missing\n"))
            #expect(end == .eof)
            #expect(log.all.isEmpty)
        }
    }

    @Test func http10UpgradeIs400() throws {
        try withWebSocketServer { server, log in
            let client = try WebSocketTestClient(port: server.address!.port)
            client.send(Array("GET /ws HTTP/1.0\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".utf8))
            let (text, end) = client.readRawToEnd()
            #expect(text.hasPrefix("HTTP/1.0 400 Bad Request\r\n"))
            #expect(text.hasSuffix("\r\n\r\nWebSocket upgrade requires HTTP/1.1, got HTTP/1.0\n"))
            #expect(end == .eof)
            #expect(log.all.isEmpty)
        }
    }

    @Test func extensionRefusalIsSentAndTheConnectionCloses() throws {
        try withWebSocketServer { server, _ in
            let client = try WebSocketTestClient(port: server.address!.port)
            client.send(WebSocketClientHandshake(host: "x", target: "/forbidden", keyBytes: [UInt8](repeating: 7, count: 16)).requestHead
                + Self.maskedHello)
            let (text, end) = client.readRawToEnd()
            #expect(text == "HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nContent-Length: 3\r\nConnection: close\r\n\r\nno\n")
            #expect(end == .eof)
        }
    }

    @Test func pubNubEndpointsAndExtensionPathsShareTheListener() throws {
        try withWebSocketServer { server, _ in
            let port = server.address!.port
            let ws = try WebSocketTestClient(port: port)
            _ = try ws.handshake(target: "/ws")
            let http = try BlockingTestClient(port: port)
            http.send("GET /time/0 HTTP/1.1\r\nHost: x\r\n\r\n")
            let time = http.readResponse() ?? ""
            #expect(time.hasPrefix("HTTP/1.1 200 OK\r\n"))
            #expect(time.hasSuffix("]"))
            http.send("GET /ext/hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(withoutCrossOrigin(http.readResponse() ?? "", "GET", "/ext/hello")
                == "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 14\r\nConnection: keep-alive\r\n\r\next /ext/hello")
            // An upgrade request for a path no extension claims is an ordinary PubNub request.
            http.send("GET /time/0 HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")
            #expect(http.readResponse()?.hasPrefix("HTTP/1.1 200 OK\r\n") == true)
            ws.send(text: "still here")
            #expect(try ws.readFrame().get().payload == Array("still here".utf8))
        }
    }

    @Test func pubNubAnswersAreUnchangedByAnInstalledExtension() throws {
        let request = "GET /publish/demo/demo/0/ch/0/%22hi%22?uuid=u HTTP/1.1\r\nHost: x\r\n\r\nGET /nope HTTP/1.1\r\nHost: x\r\n\r\n"
        func answers(extensions: Bool) throws -> [String] {
            var configuration = MockServerConfiguration.loopback(tls: false)
            configuration.eventLoopCount = 1
            if extensions { configuration.extensions = [EchoExtension(log: WebSocketEventLog())] }
            let server = try MockServer(configuration: configuration)
            try server.start()
            defer { server.stop() }
            let client = try BlockingTestClient(port: server.address!.port)
            client.send(request)
            // The publish timetoken differs between runs; compare everything but its digits.
            return [client.readResponse(), client.readResponse()].map { ($0 ?? "").filter { !$0.isNumber } }
        }
        let plain = try answers(extensions: false)
        #expect(plain.allSatisfy { !$0.isEmpty })
        #expect(try answers(extensions: true) == plain)
    }

    @Test func wssOverTheTestTLSMaterial() throws {
        try withWebSocketServer(tls: true) { server, log in
            let client = try WebSocketTestClient(port: server.tlsAddress!.port, trustedCAPEM: server.certificateAuthorityPEM)
            let (text, _) = try client.handshake(target: "/ws", pipelined: Self.maskedHello)
            #expect(text == Self.expected101)
            #expect(try client.readFrame().get().payload == Array("Hello".utf8))
            let big = String(repeating: "x", count: 100_000)
            client.send(text: big, fragments: 3)
            #expect(try client.readFrame().get().payload.count == 100_000)
            client.sendClose(WebSocketClosePayload(code: .normalClosure))
            let rest = client.readFramesToEnd()
            #expect(rest.frames.map(\.opcode) == [.close])
            #expect(rest.end == .eof)
            #expect(log.waitForClose() == .closed(code: 1000, reason: "", clean: true))
        }
    }
}

extension WebSocketHandshakeSocketTests {
    @Test func upgradeAfterAKeepAliveRequestOnTheSameConnection() throws {
        try withWebSocketServer { server, _ in
            let client = try WebSocketTestClient(port: server.address!.port)
            let upgrade = WebSocketClientHandshake(host: "x", target: "/ws", keyBytes: Array("the sample nonce".utf8))
            client.send(Array("GET /ext/first HTTP/1.1\r\nHost: x\r\n\r\n".utf8) + upgrade.requestHead + Self.maskedHello)
            let first = try client.readResponseHead()
            #expect(first.head.status == 200)
            // The first answer's body ("ext /ext/first") sits in front of the 101.
            let second = try client.readResponseHead(afterSkipping: 14)
            #expect(second.text == Self.expected101)
            #expect(try client.readFrame().get().payload == Array("Hello".utf8))
        }
    }

    @Test func handleSendsFromAnyThread() throws {
        try withWebSocketServer { server, log in
            let client = try WebSocketTestClient(port: server.address!.port)
            _ = try client.handshake(target: "/ws")
            let handle = try #require(log.wait { !$0.isEmpty } != nil ? log.lastHandle : nil)
            handle.send(text: "from the test thread")
            handle.send(binary: [0xFF, 0x00])
            handle.sendRaw(WebSocketRawFrame(fin: false, opcode: 1, payload: Array("sp".utf8)).bytes
                + WebSocketRawFrame(opcode: 0, payload: Array("lit".utf8)).bytes)
            #expect(try client.readFrame().get() == WebSocketFrame(opcode: .text, payload: Array("from the test thread".utf8)))
            #expect(try client.readFrame().get() == WebSocketFrame(opcode: .binary, payload: [0xFF, 0x00]))
            #expect(try client.readFrame().get() == WebSocketFrame(fin: false, opcode: .text, payload: Array("sp".utf8)))
            #expect(try client.readFrame().get() == WebSocketFrame(opcode: .continuation, payload: Array("lit".utf8)))
            handle.schedule(after: .milliseconds(20)) { handle.send(text: "tick") }
            #expect(try client.readFrame().get() == WebSocketFrame(opcode: .text, payload: Array("tick".utf8)))
            let cancelled = handle.schedule(after: .milliseconds(20)) { handle.send(text: "never") }
            cancelled.cancel()
            handle.schedule(after: .milliseconds(60)) { handle.ping(payload: [4]) }
            // Had the cancelled timer run, "never" would arrive before the later ping.
            #expect(try client.readFrame().get() == WebSocketFrame(opcode: .ping, payload: [4]))
            #expect(handle.peer.hasPrefix("127.0.0.1:"))
            #expect(!handle.isTLS)
        }
    }
}

/// Receives the server's scheduler at creation and fires one timer through it.
private final class TimedExtension: SchedulingServerExtension {
    let fired = WebSocketEventLog()

    func attach(scheduler: any Scheduler) {
        let log = fired
        scheduler.schedule(after: .milliseconds(10)) { log.append(.text("fired")) }
    }
}

extension WebSocketHandshakeSocketTests {
    @Test func schedulingExtensionsGetTheServerScheduler() throws {
        let timed = TimedExtension()
        var configuration = MockServerConfiguration.loopback(tls: false)
        configuration.eventLoopCount = 1
        configuration.extensions = [timed]
        let server = try MockServer(configuration: configuration)
        try server.start()
        defer { server.stop() }
        #expect(timed.fired.wait { $0 == [.text("fired")] } != nil)
    }
}
