// SPDX-License-Identifier: MIT

/// Incremental frame decoder: feed bytes in pieces of any size, take complete frames out.
///
/// Checks per frame: masking required by `role`, no reserved bits (no extension is ever negotiated),
/// known opcodes only, control frames ≤ 125 bytes and unfragmented, 64-bit lengths with the top bit
/// clear, and payloads no larger than `maxPayloadLength` (1009, detected from the header before the
/// payload is buffered). Non-minimal length encodings are accepted. After an error the decoder stays
/// failed: the connection has to be closed.
public struct WebSocketFrameDecoder: Sendable {
    public let role: WebSocketRole
    public let maxPayloadLength: Int
    private var buffer: [UInt8] = []
    private var readIndex = 0
    private var failure: WebSocketProtocolError?


    public init(role: WebSocketRole, maxPayloadLength: Int = 1 << 20) {
        precondition(maxPayloadLength >= 125, "maxPayloadLength must admit control frames")
        self.role = role
        self.maxPayloadLength = maxPayloadLength
    }

    /// Bytes fed but not yet returned as frames.
    public var bufferedByteCount: Int { buffer.count - readIndex }

    /// Appends received bytes.
    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if readIndex > 0, readIndex == buffer.count {
            buffer = []
            readIndex = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete frame, or nil when more bytes are needed.
    public mutating func nextFrame() throws(WebSocketProtocolError) -> WebSocketFrame? {
        if let failure { throw failure }
        do {
            guard let header = try parseHeader() else { return nil }
            let available = buffer.count - readIndex - header.headerLength
            guard available >= header.payloadLength else { return nil }
            let start = readIndex + header.headerLength
            var payload = Array(buffer[start..<(start + header.payloadLength)])
            header.maskKey?.apply(to: &payload)
            readIndex = start + header.payloadLength
            compact()
            return WebSocketFrame(fin: header.fin, opcode: header.opcode, payload: payload, maskKey: header.maskKey)
        } catch {
            failure = error
            throw error
        }
    }

    private struct Header {
        var fin: Bool
        var opcode: WebSocketOpcode
        var maskKey: WebSocketMaskKey?
        var payloadLength: Int
        var headerLength: Int
    }

    private func byte(_ offset: Int) -> UInt8 { buffer[readIndex + offset] }

    private func parseHeader() throws(WebSocketProtocolError) -> Header? {
        let available = buffer.count - readIndex
        guard available >= 2 else { return nil }
        let first = byte(0), second = byte(1)
        let reserved = (first >> 4) & 0x7
        if reserved != 0 { throw .reservedBitsSet(reserved) }
        guard let opcode = WebSocketOpcode(rawValue: first & 0x0F) else { throw .unknownOpcode(first & 0x0F) }
        let fin = first & 0x80 != 0
        if opcode.isControl, !fin { throw .fragmentedControlFrame }
        let masked = second & 0x80 != 0
        if masked != role.expectsMaskedFrames { throw role == .server ? .unmaskedFrameFromClient : .maskedFrameFromServer }
        var length = UInt64(second & 0x7F)
        var offset = 2
        if length == 126 {
            guard available >= 4 else { return nil }
            length = UInt64(byte(2)) << 8 | UInt64(byte(3))
            offset = 4
        } else if length == 127 {
            guard available >= 10 else { return nil }
            length = 0
            for index in 2..<10 { length = length << 8 | UInt64(byte(index)) }
            if length & (1 << 63) != 0 { throw .lengthMostSignificantBitSet }
            offset = 10
        }
        if opcode.isControl, length > 125 { throw .controlFrameTooLong(Int(length)) }
        if length > UInt64(maxPayloadLength) { throw .messageTooBig(limit: maxPayloadLength) }
        var maskKey: WebSocketMaskKey?
        if masked {
            guard available >= offset + 4 else { return nil }
            maskKey = WebSocketMaskKey(byte(offset), byte(offset + 1), byte(offset + 2), byte(offset + 3))
            offset += 4
        }
        return Header(fin: fin, opcode: opcode, maskKey: maskKey, payloadLength: Int(length), headerLength: offset)
    }

    private mutating func compact() {
        if readIndex == buffer.count {
            // Released, not kept: an idle connection holds no buffer at all.
            buffer = []
            readIndex = 0
        } else if readIndex > 4096, readIndex * 2 > buffer.count {
            buffer.removeSubrange(0..<readIndex)
            readIndex = 0
        }
    }
}
