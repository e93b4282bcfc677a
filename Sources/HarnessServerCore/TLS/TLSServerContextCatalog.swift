// SPDX-License-Identifier: MIT

/// One server context per TLS catalog entry that has a certificate, built once per server.
///
/// Listeners pick a context per port (their fault) or per connection (the next queued fault).
struct TLSServerContextCatalog: Sendable {
    /// The faults served through an `SSL_CTX` (the rest are applied by the listener on the raw socket).
    static let contextFaults: [ListenerFault] = [
        .tlsTrusted, .tlsSelfSigned, .tlsUntrustedCA, .tlsExpired, .tlsNotYetValid, .tlsWrongHost,
        .tlsVersionMismatch, .tlsNoSharedCipher,
    ]

    private let contexts: [ListenerFault: TLSServerContext]

    init(material: TLSMaterial, recordLayer: TLSRecordLayer = .own) throws(TLSError) {
        var contexts: [ListenerFault: TLSServerContext] = [:]
        for fault in Self.contextFaults {
            contexts[fault] = try TLSServerContext(material: material, fault: fault, recordLayer: recordLayer)
        }
        self.contexts = contexts
    }

    /// The context for `fault` on a TLS port; `none` serves the trusted leaf. Nil for faults without one.
    func context(for fault: ListenerFault) -> TLSServerContext? {
        contexts[fault == .none ? .tlsTrusted : fault]
    }
}
