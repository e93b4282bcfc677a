// SPDX-License-Identifier: MIT

/// The certificate authorities a TLS connection trusts.
public enum HTTPTrust: Sendable, Equatable {
    /// The CA certificates in this PEM file.
    case file(String)
    /// The CA certificates in this PEM text.
    case pem(String)
    /// OpenSSL's default verify paths.
    case system
}
