// SPDX-License-Identifier: MIT

/// A frame with every header field free, for deliberately broken frames (reserved bits, unknown
/// opcodes, fragmented or oversized control frames, non-minimal or MSB-set lengths, wrong masking).
public struct WebSocketRawFrame: Hashable, Sendable {
    /// How the payload length is written.
    public enum LengthEncoding: Hashable, Sendable {
        /// The shortest form (7, 16 or 64 bits), as RFC 6455 requires.
        case minimal
        /// Always the 16-bit form (marker 126).
        case sixteenBit
        /// Always the 64-bit form (marker 127).
        case sixtyFourBit
        /// The 64-bit form with this exact value, whatever the payload's real length.
        case declared64(UInt64)
    }

    public var fin: Bool
    /// The three reserved bits RSV1-RSV3 as a value 0-7.
    public var reservedBits: UInt8
    /// The 4-bit opcode; any value, known or not.
    public var opcode: UInt8
    public var maskKey: WebSocketMaskKey?
    public var payload: [UInt8]
    public var lengthEncoding: LengthEncoding

    public init(
        fin: Bool = true, reservedBits: UInt8 = 0, opcode: UInt8, maskKey: WebSocketMaskKey? = nil,
        payload: [UInt8] = [], lengthEncoding: LengthEncoding = .minimal
    ) {
        self.fin = fin
        self.reservedBits = reservedBits
        self.opcode = opcode
        self.maskKey = maskKey
        self.payload = payload
        self.lengthEncoding = lengthEncoding
    }

    /// The wire bytes; the payload is masked with `maskKey` when there is one.
    public var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(payload.count + 14)
        out.append((fin ? 0x80 : 0) | (reservedBits & 0x7) << 4 | (opcode & 0x0F))
        let maskBit: UInt8 = maskKey == nil ? 0 : 0x80
        let length = UInt64(payload.count)
        switch lengthEncoding {
        case .minimal where length <= 125:
            out.append(maskBit | UInt8(length))
        case .minimal where length <= 0xFFFF, .sixteenBit:
            out.append(maskBit | 126)
            out.append(UInt8(truncatingIfNeeded: length >> 8))
            out.append(UInt8(truncatingIfNeeded: length))
        case .minimal, .sixtyFourBit:
            out.append(maskBit | 127)
            Self.appendBigEndian(length, to: &out)
        case .declared64(let declared):
            out.append(maskBit | 127)
            Self.appendBigEndian(declared, to: &out)
        }
        if let maskKey {
            out.append(contentsOf: maskKey.bytes)
            var masked = payload
            maskKey.apply(to: &masked)
            out.append(contentsOf: masked)
        } else {
            out.append(contentsOf: payload)
        }
        return out
    }

    private static func appendBigEndian(_ value: UInt64, to out: inout [UInt8]) {
        for shift in stride(from: 56, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }
}
