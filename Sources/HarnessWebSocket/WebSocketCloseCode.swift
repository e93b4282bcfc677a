// SPDX-License-Identifier: MIT

/// A close status code (RFC 6455 §7.4). Any `UInt16` can be held; `isValidOnWire` says whether a
/// peer may send it in a close frame.
public struct WebSocketCloseCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }
    public init(_ rawValue: UInt16) { self.rawValue = rawValue }

    public static let normalClosure = WebSocketCloseCode(1000)
    public static let goingAway = WebSocketCloseCode(1001)
    public static let protocolError = WebSocketCloseCode(1002)
    public static let unsupportedData = WebSocketCloseCode(1003)
    /// Reserved: never sent; reported when a close frame carries no code.
    public static let noStatusReceived = WebSocketCloseCode(1005)
    /// Reserved: never sent; reported when the connection ended without a close frame.
    public static let abnormalClosure = WebSocketCloseCode(1006)
    public static let invalidFramePayloadData = WebSocketCloseCode(1007)
    public static let policyViolation = WebSocketCloseCode(1008)
    public static let messageTooBig = WebSocketCloseCode(1009)
    public static let mandatoryExtension = WebSocketCloseCode(1010)
    public static let internalError = WebSocketCloseCode(1011)
    /// Reserved: never sent; TLS handshake failure.
    public static let tlsHandshake = WebSocketCloseCode(1015)

    /// Codes a close frame may carry: 1000-1003, 1007-1014 (1012-1014 are IANA-registered) and
    /// 3000-4999 (libraries and applications). 1004-1006, 1015, other 1xxx/2xxx and ≥ 5000 are not.
    public var isValidOnWire: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000...4999: return true
        default: return false
        }
    }

    public var description: String { String(rawValue) }
}
