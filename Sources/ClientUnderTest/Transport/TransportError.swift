// SPDX-License-Identifier: MIT
import HarnessHTTPClient

/// Why a request failed below HTTP, as the client reports it: the HTTP layer's own failure
/// cases, which this module reads as status categories (``HTTPClientError/category``).
public typealias TransportError = HTTPClientError

extension HTTPClientError {
    /// The status category this failure is reported with.
    public var category: PNStatusCategory {
        switch self {
        case .nameResolution, .connectFailed, .connectionLost, .closedBeforeResponse: .networkIssues
        case .timedOut: .timeout
        case .cancelled: .cancelled
        case .tlsHandshakeFailed: .tlsConnectionFailed
        case .tlsUntrustedCertificate: .tlsUntrustedCertificate
        case .malformedHTTP: .malformedResponse
        case .localFailure: .unknown
        }
    }
}
