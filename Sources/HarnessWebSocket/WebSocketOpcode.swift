// SPDX-License-Identifier: MIT

/// The frame opcodes of RFC 6455 §5.2. Values 3-7 and 11-15 are reserved and never decoded.
public enum WebSocketOpcode: UInt8, Sendable, Hashable, CaseIterable {
    case continuation = 0x0
    case text = 0x1
    case binary = 0x2
    case close = 0x8
    case ping = 0x9
    case pong = 0xA

    /// Close, ping and pong (RFC 6455 §5.5): at most 125 payload bytes, never fragmented.
    public var isControl: Bool { rawValue & 0x8 != 0 }
}
