// SPDX-License-Identifier: MIT

/// How a listener treats a connection before any HTTP is read: plain and TLS transport faults.
///
/// A listener applies one of these to every connection (a fault "per port"), or the next queued
/// one to the next accepted connection (a fault "per connection"). The TLS cases form the
/// catalog of ../docs/faults.md; each names the client-side condition it produces.
public enum ListenerFault: String, Sendable, Hashable, Codable, CaseIterable {
    /// Serve normally (plain HTTP, or TLS with the trusted leaf on a TLS listener).
    case none
    /// Accept, then close with FIN before reading or writing a byte.
    case closeOnAccept = "close-on-accept"
    /// Accept, then abort with RST at once.
    case resetOnAccept = "reset-on-accept"
    /// Accept and never read nor write (the client's connect succeeds, then nothing happens).
    case stallOnAccept = "stall-on-accept"
    /// TLS with a leaf signed by the run's test CA for localhost and 127.0.0.1 (the trusted case).
    case tlsTrusted = "tls-trusted"
    /// TLS with a self-signed leaf.
    case tlsSelfSigned = "tls-self-signed"
    /// TLS with a leaf from a CA the client was not given.
    case tlsUntrustedCA = "tls-untrusted-ca"
    /// TLS with an expired leaf (signed by the test CA).
    case tlsExpired = "tls-expired"
    /// TLS with a leaf whose validity starts in the future.
    case tlsNotYetValid = "tls-not-yet-valid"
    /// TLS with a leaf for another host name (wrong.host.invalid), signed by the test CA.
    case tlsWrongHost = "tls-wrong-host"
    /// Read the ClientHello, then close with FIN without answering.
    case tlsAbortAfterClientHello = "tls-abort-after-client-hello"
    /// Read the ClientHello, then abort with RST.
    case tlsResetDuringHandshake = "tls-reset-during-handshake"
    /// Accept and never answer the ClientHello.
    case tlsStallHandshake = "tls-stall-handshake"
    /// Answer the ClientHello with plain HTTP/1.1 bytes, as a plain server on a TLS port would.
    case tlsPlainHTTP = "tls-plain-http"
    /// Offer only TLS 1.0/1.1, which a modern client refuses (protocol-version alert).
    case tlsVersionMismatch = "tls-version-mismatch"
    /// Offer only cipher suites a normal client does not (PSK-only), so the handshake fails.
    case tlsNoSharedCipher = "tls-no-shared-cipher"

    /// Whether the listener speaks (or pretends to speak) TLS.
    public var isTLS: Bool { rawValue.hasPrefix("tls-") }
}
