// SPDX-License-Identifier: MIT
internal import PubNubCrypto

/// Client side of the opening handshake (RFC 6455 §4.1): the request head with a fresh key, and the
/// check of the server's 101 answer.
public struct WebSocketClientHandshake: Hashable, Sendable {
    public let host: String
    /// The request-target, e.g. `/app/KEY?protocol=7`.
    public let target: String
    /// `Sec-WebSocket-Key`: base64 of 16 random bytes.
    public let key: String
    public let extraHeaders: [WebSocketHeaderField]

    /// A handshake whose key is base64 of `keyBytes` (exactly 16 bytes, injectable for tests).
    public init(host: String, target: String, keyBytes: [UInt8], extraHeaders: [WebSocketHeaderField] = []) {
        precondition(keyBytes.count == 16, "Sec-WebSocket-Key needs 16 bytes")
        self.host = host
        self.target = target
        self.key = ByteEncoding.base64(keyBytes)
        self.extraHeaders = extraHeaders
    }

    /// A handshake with a key drawn from `generator`.
    public init<Generator: RandomNumberGenerator>(
        host: String, target: String, generator: inout Generator, extraHeaders: [WebSocketHeaderField] = []
    ) {
        let bytes = (0..<16).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        self.init(host: host, target: target, keyBytes: bytes, extraHeaders: extraHeaders)
    }

    /// The accept value the server must answer with.
    public var expectedAccept: String { WebSocketAccept.value(forKey: key) }

    /// The request head, ending with the blank line.
    public var requestHead: [UInt8] {
        var text = "GET \(target) HTTP/1.1\r\nHost: \(host)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        text += "Sec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        for field in extraHeaders { text += "\(field.name): \(field.value)\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// Checks the server's answer: status 101, `Upgrade: websocket`, `Connection` with `upgrade`, the
    /// right accept value, and no extension or subprotocol the client did not ask for.
    public func verify(_ response: WebSocketResponseHead) throws(WebSocketClientHandshakeError) {
        guard response.status == 101 else { throw .unexpectedStatus(response.status) }
        guard response.headers.tokens(named: "upgrade").contains("websocket") else { throw .missingUpgradeHeader }
        guard response.headers.tokens(named: "connection").contains("upgrade") else { throw .missingConnectionHeader }
        let accepts = response.headers.values(named: "sec-websocket-accept").map { $0.trimmingWhitespace() }
        guard accepts == [expectedAccept] else { throw .wrongAcceptValue(accepts.first) }
        if let offered = response.headers.values(named: "sec-websocket-extensions").first,
           extraHeaders.values(named: "sec-websocket-extensions").isEmpty {
            throw .unrequestedExtension(offered)
        }
        if let offered = response.headers.values(named: "sec-websocket-protocol").first,
           extraHeaders.values(named: "sec-websocket-protocol").isEmpty {
            throw .unrequestedSubprotocol(offered)
        }
    }
}

/// Why a client refuses the server's handshake answer.
public enum WebSocketClientHandshakeError: Error, Hashable, Sendable {
    case malformedResponseHead
    case unexpectedStatus(Int)
    case missingUpgradeHeader
    case missingConnectionHeader
    case wrongAcceptValue(String?)
    case unrequestedExtension(String)
    case unrequestedSubprotocol(String)
}
