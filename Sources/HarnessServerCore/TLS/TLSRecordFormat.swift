// SPDX-License-Identifier: MIT

/// TLS record content types (RFC 8446 §5.1).
enum TLSContentType: UInt8, Sendable {
    case changeCipherSpec = 20
    case alert = 21
    case handshake = 22
    case applicationData = 23
}

/// The pure parts of TLS 1.3 record framing after the handshake (RFC 8446 §5.2): the record
/// header, the inner plaintext, alerts and the one post-handshake message a server accepts.
enum TLSRecordFormat {
    /// Record header: opaque type 23, legacy version 0x0303, 16-bit length.
    static let headerLength = 5
    /// The longest TLSCiphertext body a peer may send (2^14 + 256).
    static let maxCiphertextBody = 16_384 + 256
    /// The longest TLSInnerPlaintext (content and type byte; padding included) (2^14 + 1).
    static let maxInnerPlaintext = 16_384 + 1

    /// Writes the header of an application_data record with a `length`-byte body.
    static func writeHeader(into buffer: UnsafeMutableRawBufferPointer, length: Int) {
        buffer[0] = TLSContentType.applicationData.rawValue
        buffer[1] = 0x03
        buffer[2] = 0x03
        buffer[3] = UInt8(truncatingIfNeeded: length >> 8)
        buffer[4] = UInt8(truncatingIfNeeded: length)
    }

    /// What a received header announces.
    enum Header: Equatable {
        /// Fewer than five bytes so far.
        case incomplete
        /// A protected record whose body is this long.
        case record(bodyLength: Int)
        /// Not a TLS 1.3 protected record (another outer type or version).
        case unexpected(type: UInt8, version: UInt16)
        /// A body longer than 2^14 + 256.
        case overflow(bodyLength: Int)
    }

    /// Reads the header at the start of `bytes`.
    static func header(_ bytes: UnsafeRawBufferPointer) -> Header {
        guard bytes.count >= headerLength else { return .incomplete }
        let version = UInt16(bytes[1]) << 8 | UInt16(bytes[2])
        let length = Int(bytes[3]) << 8 | Int(bytes[4])
        guard bytes[0] == TLSContentType.applicationData.rawValue, version == 0x0303 else {
            return .unexpected(type: bytes[0], version: version)
        }
        guard length <= maxCiphertextBody else { return .overflow(bodyLength: length) }
        return .record(bodyLength: length)
    }

    /// The content type and content length of a TLSInnerPlaintext: the last non-zero byte is the
    /// type, the zeros after it padding. Nil when every byte is zero (RFC 8446 §5.4:
    /// unexpected_message).
    static func innerContent(_ plaintext: UnsafeRawBufferPointer) -> (type: UInt8, length: Int)? {
        var index = plaintext.count - 1
        while index >= 0 {
            if plaintext[index] != 0 { return (plaintext[index], index) }
            index -= 1
        }
        return nil
    }

    /// A post-handshake handshake message from the client, as far as a server accepts one.
    enum PostHandshakeMessage: Equatable {
        /// KeyUpdate; `updateRequested` asks the receiver to update its own sending keys too.
        case keyUpdate(updateRequested: Bool)
        /// Anything else, or a malformed or fragmented message: unexpected_message.
        case unexpected(String)
    }

    /// Parses the content of a handshake record received after the handshake. A server accepts
    /// only one whole KeyUpdate per record (RFC 8446 §4.6.3: it must end the record, as it changes
    /// the keys); a message split over records is not supported (UNVERIFIED: no client seen
    /// fragments a five-byte KeyUpdate).
    static func postHandshakeMessage(_ content: UnsafeRawBufferPointer) -> PostHandshakeMessage {
        guard content.count >= 4 else { return .unexpected("handshake message fragment of \(content.count) bytes") }
        let type = content[0]
        let length = Int(content[1]) << 16 | Int(content[2]) << 8 | Int(content[3])
        guard type == 24 else { return .unexpected("handshake message type \(type) after the handshake") }
        guard length == 1, content.count == 5 else {
            return .unexpected("KeyUpdate of \(length) bytes in a record of \(content.count)")
        }
        switch content[4] {
        case 0: return .keyUpdate(updateRequested: false)
        case 1: return .keyUpdate(updateRequested: true)
        default: return .unexpected("KeyUpdate request_update \(content[4])")
        }
    }

    /// The handshake message KeyUpdate(update_not_requested).
    static let keyUpdateNotRequested: [UInt8] = [24, 0, 0, 1, 0]
}

/// A TLS alert description (RFC 8446 §6), named as the RFC names it.
struct TLSAlert: Equatable, Sendable {
    var code: UInt8

    static let closeNotify = TLSAlert(code: 0)
    static let unexpectedMessage = TLSAlert(code: 10)
    static let badRecordMAC = TLSAlert(code: 20)
    static let recordOverflow = TLSAlert(code: 22)
    static let decodeError = TLSAlert(code: 50)
    static let internalError = TLSAlert(code: 80)

    /// "bad_record_mac", or "alert 123" for a code without a name here.
    var name: String {
        switch code {
        case 0: "close_notify"
        case 10: "unexpected_message"
        case 20: "bad_record_mac"
        case 22: "record_overflow"
        case 40: "handshake_failure"
        case 42: "bad_certificate"
        case 43: "unsupported_certificate"
        case 44: "certificate_revoked"
        case 45: "certificate_expired"
        case 46: "certificate_unknown"
        case 47: "illegal_parameter"
        case 48: "unknown_ca"
        case 49: "access_denied"
        case 50: "decode_error"
        case 51: "decrypt_error"
        case 70: "protocol_version"
        case 71: "insufficient_security"
        case 80: "internal_error"
        case 86: "inappropriate_fallback"
        case 90: "user_canceled"
        case 109: "missing_extension"
        case 110: "unsupported_extension"
        case 112: "unrecognized_name"
        case 113: "bad_certificate_status_response"
        case 115: "unknown_psk_identity"
        case 116: "certificate_required"
        case 120: "no_application_protocol"
        default: "alert \(code)"
        }
    }

    /// The two bytes of a fatal alert (close_notify is sent at level warning, as OpenSSL does).
    var wire: [UInt8] { [self == .closeNotify ? 1 : 2, code] }
}
