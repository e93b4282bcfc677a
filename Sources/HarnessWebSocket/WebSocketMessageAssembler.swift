// SPDX-License-Identifier: MIT

/// Joins data frames into messages (RFC 6455 §5.4). Control frames may arrive between fragments and
/// come out at once. Text is validated as UTF-8 once the message is complete (1007); a continuation
/// with no open message or a new data frame inside one is 1002; a message over `maxMessageSize` is 1009.
public struct WebSocketMessageAssembler: Sendable {
    public let maxMessageSize: Int
    private var openOpcode: WebSocketOpcode?
    private var fragments: [UInt8] = []

    public init(maxMessageSize: Int = 1 << 20) {
        self.maxMessageSize = maxMessageSize
    }

    /// Whether a fragmented message has started and not yet finished.
    public var isInsideFragmentedMessage: Bool { openOpcode != nil }

    /// Takes one frame; returns a message when one is complete.
    public mutating func push(_ frame: WebSocketFrame) throws(WebSocketProtocolError) -> WebSocketMessage? {
        switch frame.opcode {
        case .ping: return .ping(frame.payload)
        case .pong: return .pong(frame.payload)
        case .close: return .close(try WebSocketClosePayload.parse(frame.payload))
        case .text, .binary:
            if openOpcode != nil { throw .messageStartDuringFragmentedMessage }
            if frame.fin { return try complete(frame.opcode, frame.payload) }
            openOpcode = frame.opcode
            try append(frame.payload)
            return nil
        case .continuation:
            guard let opcode = openOpcode else { throw .continuationWithoutStart }
            try append(frame.payload)
            guard frame.fin else { return nil }
            let payload = fragments
            openOpcode = nil
            fragments = []
            return try complete(opcode, payload)
        }
    }

    private mutating func append(_ payload: [UInt8]) throws(WebSocketProtocolError) {
        if fragments.count + payload.count > maxMessageSize { throw .messageTooBig(limit: maxMessageSize) }
        fragments.append(contentsOf: payload)
    }

    private func complete(_ opcode: WebSocketOpcode, _ payload: [UInt8]) throws(WebSocketProtocolError) -> WebSocketMessage {
        if payload.count > maxMessageSize { throw .messageTooBig(limit: maxMessageSize) }
        if opcode == .binary { return .binary(payload) }
        guard let text = WebSocketUTF8.decode(payload) else { throw .invalidUTF8Text }
        return .text(text)
    }
}
