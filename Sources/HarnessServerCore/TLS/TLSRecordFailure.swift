// SPDX-License-Identifier: MIT

/// Why ``DetachedTLSStream`` ended a connection (``TLSError/record(_:)``).
public enum TLSRecordFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// A record failed authentication (sent: bad_record_mac).
    case badRecordMAC
    /// A record longer than TLS 1.3 allows (sent: record_overflow).
    case recordOverflow(bodyLength: Int)
    /// A record or message a server does not accept after the handshake (sent: unexpected_message).
    case unexpectedMessage(String)
    /// The peer sent this alert (other than close_notify).
    case peerAlert(code: UInt8, name: String)
    /// The connection ended inside a record.
    case truncatedRecord(bytes: Int)
    /// libcrypto failed to seal, open or derive (sent: internal_error when possible).
    case crypto(String)

    static func peerAlert(_ alert: TLSAlert) -> TLSRecordFailure { .peerAlert(code: alert.code, name: alert.name) }

    public var description: String {
        switch self {
        case .badRecordMAC: "bad_record_mac: a record failed authentication"
        case .recordOverflow(let length): "record_overflow: a record of \(length) bytes"
        case .unexpectedMessage(let what): "unexpected_message: \(what)"
        case .peerAlert(_, let name): "the peer sent the alert \(name)"
        case .truncatedRecord(let bytes): "the connection ended inside a record (\(bytes) bytes of it received)"
        case .crypto(let what): "libcrypto failed: \(what)"
        }
    }
}
