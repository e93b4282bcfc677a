// SPDX-License-Identifier: MIT
import HarnessHTTP
internal import HarnessPrimitives

/// Client side of the opening handshake (RFC 6455 §4.1): the request head with a fresh key, and the
/// check of the server's 101 answer.
public struct WebSocketClientHandshake: Hashable, Sendable {
    public let host: String
    /// The request-target, e.g. `/app/KEY?protocol=7`.
    public let target: String
    /// `Sec-WebSocket-Key`: base64 of 16 random bytes.
    public let key: String
    public let extraHeaders: HTTPHeaders

    /// A handshake whose key is base64 of `keyBytes` (exactly 16 bytes, injectable for tests).
    public init(host: String, target: String, keyBytes: [UInt8], extraHeaders: HTTPHeaders = HTTPHeaders()) {
        precondition(keyBytes.count == 16, "Sec-WebSocket-Key needs 16 bytes")
        self.host = host
        self.target = target
        self.key = ByteEncoding.base64(keyBytes)
        self.extraHeaders = extraHeaders
    }

    /// A handshake with a key drawn from `generator`.
    public init<Generator: RandomNumberGenerator>(
        host: String, target: String, generator: inout Generator, extraHeaders: HTTPHeaders = HTTPHeaders()
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

    /// Reads the server's answer head from the start of `bytes` (``HTTPResponseHead/parse(_:maxLength:)``):
    /// nil while incomplete; otherwise the head and how many bytes it used (frames may follow at once).
    public static func readResponseHead(_ bytes: [UInt8]) throws(WebSocketClientHandshakeError) -> (head: HTTPResponseHead, consumed: Int)? {
        do throws(HTTPResponseHeadError) { return try HTTPResponseHead.parse(bytes) } catch { throw .malformedResponseHead }
    }

    /// Checks the server's answer: status 101, `Upgrade: websocket`, `Connection` with `upgrade`, the
    /// right accept value, and no extension or subprotocol the client did not ask for.
    public func verify(_ response: HTTPResponseHead) throws(WebSocketClientHandshakeError) {
        guard response.status == 101 else { throw .unexpectedStatus(response.status) }
        guard response.headers.tokens(for: "upgrade").contains("websocket") else { throw .missingUpgradeHeader }
        guard response.headers.tokens(for: "connection").contains("upgrade") else { throw .missingConnectionHeader }
        let accepts = response.headers.values(for: "sec-websocket-accept").map { $0.trimmingHTTPWhitespace() }
        guard accepts == [expectedAccept] else { throw .wrongAcceptValue(accepts.first) }
        if let offered = response.headers.values(for: "sec-websocket-extensions").first,
           extraHeaders.values(for: "sec-websocket-extensions").isEmpty {
            throw .unrequestedExtension(offered)
        }
        if let offered = response.headers.values(for: "sec-websocket-protocol").first,
           extraHeaders.values(for: "sec-websocket-protocol").isEmpty {
            throw .unrequestedSubprotocol(offered)
        }
    }
}

/// Why a client refuses the server's handshake answer.
public enum WebSocketClientHandshakeError: Error, Hashable, Sendable {
    /// The answer is not an HTTP/1.x response head (``HTTPResponseHead/parse(_:maxLength:)`` refused it).
    case malformedResponseHead
    case unexpectedStatus(Int)
    case missingUpgradeHeader
    case missingConnectionHeader
    case wrongAcceptValue(String?)
    case unrequestedExtension(String)
    case unrequestedSubprotocol(String)
}
