// SPDX-License-Identifier: MIT

/// Who carries TLS records after a TLS 1.3 handshake on a server connection.
///
/// - ``own``: once a TLS 1.3 handshake with an AES-GCM or ChaCha20-Poly1305 suite completes, the
///   stream derives the application traffic keys, frees OpenSSL's `SSL` object and seals and opens
///   records itself (``DetachedTLSStream``): an idle connection then holds a few hundred bytes
///   instead of OpenSSL's ~15 KB. TLS 1.2, other suites, or bytes OpenSSL already buffered keep
///   OpenSSL's stream.
/// - ``openssl``: OpenSSL carries every record for the whole connection (the behaviour before
///   ``own`` existed; `serve --tls-records openssl`).
public enum TLSRecordLayer: String, Sendable, CaseIterable {
    case own
    case openssl
}
