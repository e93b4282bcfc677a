// SPDX-License-Identifier: MIT

/// The status categories of the PubNub 4.x client model (spec §11.1), by their 4.x names.
///
/// Closed on purpose: it is the vocabulary cases are written in and reports speak.
public enum StatusCategory: String, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case unknown = "PNUnknownCategory"
    case acknowledgment = "PNAcknowledgmentCategory"
    case resourceNotFound = "PNResourceNotFoundCategory"
    case accessDenied = "PNAccessDeniedCategory"
    case timeout = "PNTimeoutCategory"
    case networkIssues = "PNNetworkIssuesCategory"
    case requestMessageCountExceeded = "PNRequestMessageCountExceededCategory"
    case connected = "PNConnectedCategory"
    case reconnected = "PNReconnectedCategory"
    case disconnected = "PNDisconnectedCategory"
    case unexpectedDisconnect = "PNUnexpectedDisconnectCategory"
    case cancelled = "PNCancelledCategory"
    case badRequest = "PNBadRequestCategory"
    case requestURITooLong = "PNRequestURITooLongCategory"
    case malformedFilterExpression = "PNMalformedFilterExpressionCategory"
    case malformedResponse = "PNMalformedResponseCategory"
    case decryptionError = "PNDecryptionErrorCategory"
    case tlsConnectionFailed = "PNTLSConnectionFailedCategory"
    case tlsUntrustedCertificate = "PNTLSUntrustedCertificateCategory"
    /// HTTP 412: an App Context write whose `If-Match` eTag is stale.
    case preconditionFailed = "PNPreconditionFailedCategory"
    /// Event engines: the handshake failed after the retry policy's last attempt.
    case connectionError = "PNConnectionErrorCategory"
    /// Event engines: a long-poll failed after the retry policy's last attempt.
    case disconnectedUnexpectedly = "PNDisconnectedUnexpectedlyCategory"
    /// Event engines: the channel list changed while receiving.
    case subscriptionChanged = "PNSubscriptionChangedCategory"

    /// The 4.x `error` flag: no for lifecycle categories and acknowledgments (spec §11.1).
    public var isError: Bool {
        switch self {
        case .connected, .reconnected, .disconnected, .unexpectedDisconnect, .cancelled, .acknowledgment:
            return false
        default:
            return true
        }
    }

    /// Categories the catalog does not check, each with the reason (the file categories of 4.x
    /// are out of the protocol this harness speaks, so they are not in this enum at all).
    public static let notApplicable: [StatusCategory: String] = [
        .cancelled: "internal to a client (a long-poll restarted on a list change); not a protocol outcome, ignored when comparing"
    ]

    public static func < (lhs: StatusCategory, rhs: StatusCategory) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
