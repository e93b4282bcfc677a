// SPDX-License-Identifier: MIT

/// A violation of RFC 6455 found while decoding; `closeCode` is the code to close the connection with.
public enum WebSocketProtocolError: Error, Hashable, Sendable, CustomStringConvertible {
    case unmaskedFrameFromClient
    case maskedFrameFromServer
    case reservedBitsSet(UInt8)
    case unknownOpcode(UInt8)
    case controlFrameTooLong(Int)
    case fragmentedControlFrame
    case lengthMostSignificantBitSet
    case messageTooBig(limit: Int)
    case continuationWithoutStart
    case messageStartDuringFragmentedMessage
    case invalidUTF8Text
    case closePayloadTooShort
    case invalidCloseCode(UInt16)
    case invalidUTF8CloseReason

    public var closeCode: WebSocketCloseCode {
        switch self {
        case .messageTooBig: return .messageTooBig
        case .invalidUTF8Text, .invalidUTF8CloseReason: return .invalidFramePayloadData
        default: return .protocolError
        }
    }

    public var description: String {
        switch self {
        case .unmaskedFrameFromClient: return "client frame is not masked"
        case .maskedFrameFromServer: return "server frame is masked"
        case .reservedBitsSet(let bits): return "reserved bits set (\(bits)) without a negotiated extension"
        case .unknownOpcode(let opcode): return "unknown opcode \(opcode)"
        case .controlFrameTooLong(let length): return "control frame payload of \(length) bytes exceeds 125"
        case .fragmentedControlFrame: return "control frame is fragmented"
        case .lengthMostSignificantBitSet: return "64-bit payload length has its most significant bit set"
        case .messageTooBig(let limit): return "message exceeds \(limit) bytes"
        case .continuationWithoutStart: return "continuation frame without a message to continue"
        case .messageStartDuringFragmentedMessage: return "new data frame while a fragmented message is open"
        case .invalidUTF8Text: return "text message is not valid UTF-8"
        case .closePayloadTooShort: return "close payload of one byte"
        case .invalidCloseCode(let code): return "close code \(code) may not be sent"
        case .invalidUTF8CloseReason: return "close reason is not valid UTF-8"
        }
    }
}
