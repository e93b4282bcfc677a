// SPDX-License-Identifier: MIT

/// The 4-byte masking key of a client frame (RFC 6455 §5.3), held big-endian in `rawValue`.
public struct WebSocketMaskKey: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    /// A key from its four wire bytes.
    public init(_ b0: UInt8, _ b1: UInt8, _ b2: UInt8, _ b3: UInt8) {
        rawValue = UInt32(b0) << 24 | UInt32(b1) << 16 | UInt32(b2) << 8 | UInt32(b3)
    }

    /// The four key bytes in wire order.
    public var bytes: [UInt8] {
        [UInt8(truncatingIfNeeded: rawValue >> 24), UInt8(truncatingIfNeeded: rawValue >> 16),
         UInt8(truncatingIfNeeded: rawValue >> 8), UInt8(truncatingIfNeeded: rawValue)]
    }

    /// XORs `payload` in place with the key starting at key byte 0 (masking and unmasking are the same).
    public func apply(to payload: inout [UInt8]) {
        let key = bytes
        for index in payload.indices { payload[index] ^= key[(index - payload.startIndex) & 3] }
    }
}

/// Where a client encoder takes its masking keys from; injectable so tests are deterministic.
public protocol WebSocketMaskSource: Sendable {
    mutating func nextMaskKey() -> WebSocketMaskKey
}

/// Fresh keys from the system's cryptographic generator, as RFC 6455 §5.3 requires of real clients.
public struct SystemMaskSource: WebSocketMaskSource {
    public init() {}
    public mutating func nextMaskKey() -> WebSocketMaskKey {
        var generator = SystemRandomNumberGenerator()
        return WebSocketMaskKey(rawValue: generator.next())
    }
}

/// The given keys in turn, starting again after the last one (tests and fault injection).
public struct FixedMaskSource: WebSocketMaskSource {
    private let keys: [WebSocketMaskKey]
    private var next = 0

    /// `keys` must not be empty.
    public init(_ keys: [WebSocketMaskKey]) {
        precondition(!keys.isEmpty, "FixedMaskSource needs at least one key")
        self.keys = keys
    }

    public mutating func nextMaskKey() -> WebSocketMaskKey {
        defer { next = (next + 1) % keys.count }
        return keys[next]
    }
}
