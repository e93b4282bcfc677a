// SPDX-License-Identifier: MIT
import HarnessHTTP
internal import HarnessPrimitives

/// Server side of the opening handshake (RFC 6455 §4.2): checks an upgrade request's method and
/// headers and builds the 101 response head. Extensions (permessage-deflate) and subprotocols are
/// declined by never echoing them, which RFC 7692 §5 and RFC 6455 §4.2.2 allow.
public enum WebSocketServerHandshake {
    /// Whether the request asks for a WebSocket upgrade at all (`Upgrade` lists `websocket`); such
    /// requests are then either accepted or refused with `validate`, never served as plain HTTP.
    public static func isUpgradeRequest(headers: HTTPHeaders) -> Bool {
        headers.tokens(for: "upgrade").contains("websocket")
    }

    /// The accepted upgrade, or the refusal to send instead.
    public static func validate(method: String, headers: HTTPHeaders) -> Result<WebSocketUpgrade, WebSocketHandshakeRefusal> {
        guard method == "GET" else { return .failure(.badRequest("WebSocket upgrade requires GET, got \(method)")) }
        guard headers.tokens(for: "upgrade").contains("websocket") else {
            return .failure(.badRequest("Upgrade header does not name websocket"))
        }
        guard headers.tokens(for: "connection").contains("upgrade") else {
            return .failure(.badRequest("Connection header does not contain the upgrade token"))
        }
        let versions = headers.values(for: "sec-websocket-version").map { $0.trimmingHTTPWhitespace() }
        guard versions == ["13"] else {
            return .failure(.unsupportedVersion(versions.isEmpty ? "Sec-WebSocket-Version missing" : "Sec-WebSocket-Version \(versions.joined(separator: ",")) is not 13"))
        }
        let keys = headers.values(for: "sec-websocket-key").map { $0.trimmingHTTPWhitespace() }
        guard keys.count == 1, let key = keys.first else {
            return .failure(.badRequest(keys.isEmpty ? "Sec-WebSocket-Key missing" : "Sec-WebSocket-Key repeated"))
        }
        guard WebSocketServerHandshake.canonicalBase64(key)?.count == 16 else {
            return .failure(.badRequest("Sec-WebSocket-Key is not base64 of 16 bytes"))
        }
        return .success(WebSocketUpgrade(key: key, offeredExtensions: headers.values(for: "sec-websocket-extensions")))
    }
}

/// A valid upgrade request: its key and what the 101 answer has to say.
public struct WebSocketUpgrade: Hashable, Sendable {
    public let key: String
    /// `Sec-WebSocket-Extensions` values the client offered; never accepted.
    public let offeredExtensions: [String]

    public var acceptValue: String { WebSocketAccept.value(forKey: key) }

    /// The exact `101 Switching Protocols` head, `extraHeaders` appended after the required ones.
    public func responseHead(extraHeaders: HTTPHeaders = HTTPHeaders()) -> [UInt8] {
        var text = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        text += "Sec-WebSocket-Accept: \(acceptValue)\r\n"
        for field in extraHeaders { text += "\(field.name): \(field.value)\r\n" }
        text += "\r\n"
        return Array(text.utf8)
    }
}

/// Why an upgrade request is refused, with the HTTP status and headers to answer with.
public struct WebSocketHandshakeRefusal: Error, Hashable, Sendable {
    /// 400 for a malformed request, 426 (with `Sec-WebSocket-Version: 13`) for a wrong version.
    public let status: Int
    public let message: String
    public let headers: HTTPHeaders

    public static func badRequest(_ message: String) -> WebSocketHandshakeRefusal {
        WebSocketHandshakeRefusal(status: 400, message: message, headers: HTTPHeaders())
    }

    public static func unsupportedVersion(_ message: String) -> WebSocketHandshakeRefusal {
        WebSocketHandshakeRefusal(status: 426, message: message, headers: ["Sec-WebSocket-Version": "13"])
    }
}

extension WebSocketServerHandshake {
    /// The bytes of `text` when it is canonical padded base64 (what RFC 6455 §4.1 asks of
    /// `Sec-WebSocket-Key`), else nil: unpadded or non-canonical forms are refused.
    static func canonicalBase64(_ text: String) -> [UInt8]? {
        guard text.utf8.count % 4 == 0, let bytes = try? ByteEncoding.bytes(fromBase64: text),
            ByteEncoding.base64(bytes) == text
        else { return nil }
        return bytes
    }
}
