// SPDX-License-Identifier: MIT

/// One decoded or to-be-encoded frame (RFC 6455 §5.2). `payload` is always unmasked; `maskKey` says
/// whether the frame is (or will be) masked on the wire and with which key.
public struct WebSocketFrame: Hashable, Sendable {
    public var fin: Bool
    public var opcode: WebSocketOpcode
    public var payload: [UInt8]
    public var maskKey: WebSocketMaskKey?

    public init(fin: Bool = true, opcode: WebSocketOpcode, payload: [UInt8] = [], maskKey: WebSocketMaskKey? = nil) {
        self.fin = fin
        self.opcode = opcode
        self.payload = payload
        self.maskKey = maskKey
    }

    public var isMasked: Bool { maskKey != nil }
}
