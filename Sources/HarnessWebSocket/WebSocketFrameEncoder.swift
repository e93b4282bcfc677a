// SPDX-License-Identifier: MIT

/// Encodes frames for one role: a server's frames are unmasked, a client's are masked with keys from
/// `maskSource` (RFC 6455 §5.1, §5.3).
public struct WebSocketFrameEncoder: Sendable {
    public let role: WebSocketRole
    private var maskSource: any WebSocketMaskSource

    /// A server encoder (no masking).
    public static var server: WebSocketFrameEncoder { WebSocketFrameEncoder(role: .server) }

    /// A client encoder with keys from `maskSource` (system randomness by default).
    public static func client(maskSource: any WebSocketMaskSource = SystemMaskSource()) -> WebSocketFrameEncoder {
        WebSocketFrameEncoder(role: .client, maskSource: maskSource)
    }

    public init(role: WebSocketRole, maskSource: any WebSocketMaskSource = SystemMaskSource()) {
        self.role = role
        self.maskSource = maskSource
    }

    /// One frame with the given header bits; masked when the role is client.
    public mutating func encodeFrame(fin: Bool = true, opcode: WebSocketOpcode, payload: [UInt8]) -> [UInt8] {
        let key = role == .client ? maskSource.nextMaskKey() : nil
        return WebSocketRawFrame(fin: fin, opcode: opcode.rawValue, maskKey: key, payload: payload).bytes
    }

    /// A data message split into `fragments` frames (the first carries `opcode`, the rest are
    /// continuations; the last has FIN). `fragments` is clamped to 1...max(1, payload.count).
    public mutating func encodeMessage(opcode: WebSocketOpcode, payload: [UInt8], fragments: Int = 1) -> [UInt8] {
        precondition(!opcode.isControl && opcode != .continuation, "only text and binary messages are fragmented")
        let count = max(1, min(fragments, payload.count))
        guard count > 1 else { return encodeFrame(opcode: opcode, payload: payload) }
        var out: [UInt8] = []
        let base = payload.count / count, extra = payload.count % count
        var start = 0
        for index in 0..<count {
            let size = base + (index < extra ? 1 : 0)
            let piece = Array(payload[start..<(start + size)])
            start += size
            out += encodeFrame(fin: index == count - 1, opcode: index == 0 ? opcode : .continuation, payload: piece)
        }
        return out
    }

    public mutating func encodeText(_ text: String, fragments: Int = 1) -> [UInt8] {
        encodeMessage(opcode: .text, payload: Array(text.utf8), fragments: fragments)
    }

    public mutating func encodeBinary(_ bytes: [UInt8], fragments: Int = 1) -> [UInt8] {
        encodeMessage(opcode: .binary, payload: bytes, fragments: fragments)
    }

    /// A ping; the payload is cut to 125 bytes.
    public mutating func encodePing(_ payload: [UInt8] = []) -> [UInt8] {
        encodeFrame(opcode: .ping, payload: Array(payload.prefix(125)))
    }

    /// A pong; the payload is cut to 125 bytes.
    public mutating func encodePong(_ payload: [UInt8] = []) -> [UInt8] {
        encodeFrame(opcode: .pong, payload: Array(payload.prefix(125)))
    }

    /// A close frame; nil sends one without a status code.
    public mutating func encodeClose(_ payload: WebSocketClosePayload?) -> [UInt8] {
        encodeFrame(opcode: .close, payload: payload?.bytes ?? [])
    }
}
