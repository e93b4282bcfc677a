// SPDX-License-Identifier: MIT
import HarnessHTTP
import HarnessWebSocket
import Testing

@Suite("WebSocket handshake", .timeLimit(.minutes(5)))
struct HandshakeTests {
    static let sampleKey = "dGhlIHNhbXBsZSBub25jZQ=="

    private func headers(_ extra: [(String, String)] = [], dropping: Set<String> = []) -> HTTPHeaders {
        let base = [("Host", "example"), ("Upgrade", "websocket"), ("Connection", "Upgrade"),
                    ("Sec-WebSocket-Key", Self.sampleKey), ("Sec-WebSocket-Version", "13")]
        return HTTPHeaders(base.filter { !dropping.contains($0.0) } + extra)
    }

    private func refusal(_ fields: HTTPHeaders, method: String = "GET") -> WebSocketHandshakeRefusal? {
        if case .failure(let refusal) = WebSocketServerHandshake.validate(method: method, headers: fields) { return refusal }
        return nil
    }

    @Test func acceptValueMatchesRFCVector() {
        #expect(WebSocketAccept.value(forKey: Self.sampleKey) == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
    }

    @Test func validRequestGivesExact101Head() throws {
        let upgrade = try WebSocketServerHandshake.validate(method: "GET", headers: headers()).get()
        let head = String(decoding: upgrade.responseHead(), as: UTF8.self)
        #expect(head == "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n\r\n")
    }

    @Test func headerMatchingIsLenientWhereRFCAllows() throws {
        let pairs = [("host", "x"), ("UPGRADE", "WebSocket"), ("connection", "keep-alive, Upgrade"),
                      ("sec-websocket-key", " \(Self.sampleKey) "), ("SEC-WEBSOCKET-VERSION", "13"),
                      ("Sec-WebSocket-Extensions", "permessage-deflate; client_max_window_bits")]
        let fields = HTTPHeaders(pairs)
        let upgrade = try WebSocketServerHandshake.validate(method: "GET", headers: fields).get()
        #expect(upgrade.offeredExtensions == ["permessage-deflate; client_max_window_bits"])
        let head = String(decoding: upgrade.responseHead(), as: UTF8.self)
        #expect(!head.lowercased().contains("extensions"))
        #expect(WebSocketServerHandshake.isUpgradeRequest(headers: fields))
    }

    @Test func refusals() {
        #expect(refusal(headers(), method: "POST")?.status == 400)
        #expect(refusal(headers(dropping: ["Upgrade"]))?.status == 400)
        #expect(refusal(headers(dropping: ["Connection"]))?.status == 400)
        #expect(refusal(headers([("Connection", "keep-alive")], dropping: ["Connection"]))?.status == 400)
        #expect(refusal(headers(dropping: ["Sec-WebSocket-Key"]))?.status == 400)
        #expect(refusal(headers([("Sec-WebSocket-Key", "c2hvcnQ=")], dropping: ["Sec-WebSocket-Key"]))?.status == 400)
        #expect(refusal(headers([("Sec-WebSocket-Key", "not base64!!")], dropping: ["Sec-WebSocket-Key"]))?.status == 400)
        let version = refusal(headers([("Sec-WebSocket-Version", "8")], dropping: ["Sec-WebSocket-Version"]))
        #expect(version?.status == 426)
        #expect(version?.headers == ["Sec-WebSocket-Version": "13"])
        #expect(refusal(headers(dropping: ["Sec-WebSocket-Version"]))?.status == 426)
    }

    @Test func clientRequestHeadAndVerification() throws {
        let keyBytes = Array("the sample nonce".utf8)
        let client = WebSocketClientHandshake(host: "127.0.0.1:8080", target: "/app/key?protocol=7", keyBytes: keyBytes)
        #expect(client.key == Self.sampleKey)
        #expect(String(decoding: client.requestHead, as: UTF8.self)
            == "GET /app/key?protocol=7 HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
        // The server's own answer passes, with a frame pipelined behind it.
        let upgrade = try WebSocketServerHandshake.validate(method: "GET", headers: headers()).get()
        let bytes = upgrade.responseHead() + [0x81, 0x00]
        let parsed = try #require(try WebSocketClientHandshake.readResponseHead(bytes))
        #expect(parsed.consumed == bytes.count - 2)
        try client.verify(parsed.head)
        // Incomplete head: wait.
        #expect(try WebSocketClientHandshake.readResponseHead(Array(bytes.prefix(20))) == nil)
    }

    @Test func clientRejectsBadAnswers() throws {
        let client = WebSocketClientHandshake(host: "h", target: "/", keyBytes: [UInt8](repeating: 1, count: 16))
        let good = [("Upgrade", "websocket"), ("Connection", "Upgrade"), ("Sec-WebSocket-Accept", client.expectedAccept)]
        try client.verify(HTTPResponseHead(status: 101, reason: "Switching Protocols", headers: HTTPHeaders(good)))
        #expect(throws: WebSocketClientHandshakeError.unexpectedStatus(200)) {
            try client.verify(HTTPResponseHead(status: 200, reason: "OK", headers: HTTPHeaders(good)))
        }
        #expect(throws: WebSocketClientHandshakeError.wrongAcceptValue("x")) {
            try client.verify(HTTPResponseHead(status: 101, reason: "", headers: HTTPHeaders(Array(good.prefix(2)) + [("Sec-WebSocket-Accept", "x")])))
        }
        #expect(throws: WebSocketClientHandshakeError.missingUpgradeHeader) {
            try client.verify(HTTPResponseHead(status: 101, reason: "", headers: HTTPHeaders(Array(good.dropFirst()))))
        }
        #expect(throws: WebSocketClientHandshakeError.unrequestedExtension("permessage-deflate")) {
            try client.verify(HTTPResponseHead(status: 101, reason: "", headers: HTTPHeaders(good + [("Sec-WebSocket-Extensions", "permessage-deflate")])))
        }
        #expect(throws: WebSocketClientHandshakeError.malformedResponseHead) {
            try WebSocketClientHandshake.readResponseHead(Array("garbage\r\n\r\n".utf8))
        }
    }

    @Test func generatedKeysDecodeToSixteenBytes() throws {
        var generator = SystemRandomNumberGenerator()
        let client = WebSocketClientHandshake(host: "h", target: "/", generator: &generator)
        let fields: HTTPHeaders = ["Upgrade": "websocket", "Connection": "Upgrade", "Sec-WebSocket-Key": client.key, "Sec-WebSocket-Version": "13"]
        let upgrade = try WebSocketServerHandshake.validate(method: "GET", headers: fields).get()
        #expect(upgrade.acceptValue == client.expectedAccept)
    }
}
