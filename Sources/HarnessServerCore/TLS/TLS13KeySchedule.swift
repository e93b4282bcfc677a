// SPDX-License-Identifier: MIT
internal import COpenSSL

/// The parts of the TLS 1.3 key schedule a record layer needs after the handshake (RFC 8446 §7):
/// traffic key and iv from a traffic secret, and the next secret after a KeyUpdate.
enum TLS13KeySchedule {
    /// The `HkdfLabel` structure (RFC 8446 §7.1): length, "tls13 " + label, context.
    static func hkdfLabel(_ label: String, context: [UInt8] = [], length: Int) -> [UInt8] {
        let fullLabel = Array("tls13 ".utf8) + Array(label.utf8)
        var info: [UInt8] = [UInt8(truncatingIfNeeded: length >> 8), UInt8(truncatingIfNeeded: length)]
        info.append(UInt8(fullLabel.count))
        info += fullLabel
        info.append(UInt8(context.count))
        info += context
        return info
    }

    /// HKDF-Expand-Label(secret, label, "", out.count) with the suite's hash, through libcrypto.
    static func expandLabel(
        _ suite: TLS13CipherSuite, secret: UnsafeRawBufferPointer, label: String, into out: UnsafeMutableRawBufferPointer
    ) throws(TLSError) {
        let info = hkdfLabel(label, length: out.count)
        guard let kdf = FetchedHKDF.kdf else {
            throw .streamCreation(step: "EVP_KDF_fetch HKDF", openSSLErrors: OpenSSLErrorStack.drain())
        }
        let ok = info.withUnsafeBytes { infoBytes in
            copenssl_hkdf_expand(
                kdf, suite.digestName, secret.baseAddress?.assumingMemoryBound(to: UInt8.self), secret.count,
                infoBytes.baseAddress?.assumingMemoryBound(to: UInt8.self), infoBytes.count,
                out.baseAddress?.assumingMemoryBound(to: UInt8.self), out.count) == 1
        }
        guard ok else {
            throw .streamCreation(step: "HKDF-Expand-Label \(label)", openSSLErrors: OpenSSLErrorStack.drain())
        }
    }
}

/// libcrypto's HKDF implementation, fetched once.
private enum FetchedHKDF {
    // nonisolated(unsafe): fetched once by the lazy global initialiser and never changed; a
    // fetched EVP_KDF is immutable and may be shared (each derivation makes its own context).
    nonisolated(unsafe) static let kdf: OpaquePointer? = EVP_KDF_fetch(nil, "HKDF", nil)
}

/// One direction's traffic secret, AEAD key and iv, and its record sequence number, in 96 bytes
/// owned by the detached stream (zeroed when it is released).
struct TrafficKeys {
    private static let secretOffset = 0
    private static let keyOffset = TLS13CipherSuite.maxSecretLength
    private static let ivOffset = keyOffset + TLS13CipherSuite.maxKeyLength
    /// The bytes one direction takes.
    static let byteCount = ivOffset + TLS13CipherSuite.ivLength + 4

    let suite: TLS13CipherSuite
    private let base: UnsafeMutableRawPointer
    /// The sequence number of the next record in this direction (RFC 8446 §5.3).
    var sequence: UInt64 = 0

    /// Keys over `base` (``byteCount`` bytes) derived from `secret`.
    init(suite: TLS13CipherSuite, base: UnsafeMutableRawPointer, secret: UnsafeRawBufferPointer) throws(TLSError) {
        self.suite = suite
        self.base = base
        precondition(secret.count == suite.hashLength, "traffic secret of the wrong length")
        self.secret.copyMemory(from: secret)
        try derive()
    }

    /// The current traffic secret.
    var secret: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(start: base + Self.secretOffset, count: suite.hashLength)
    }
    /// The AEAD key.
    var key: UnsafeMutableRawBufferPointer { UnsafeMutableRawBufferPointer(start: base + Self.keyOffset, count: suite.keyLength) }
    /// The static iv the sequence number is XORed into.
    var iv: UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(start: base + Self.ivOffset, count: TLS13CipherSuite.ivLength)
    }

    /// Writes the per-record nonce (iv XOR the 64-bit sequence number, left-padded) into `nonce` (12 bytes).
    func nonce(into nonce: UnsafeMutableRawBufferPointer) {
        nonce.copyMemory(from: UnsafeRawBufferPointer(iv))
        var sequence = sequence
        for index in stride(from: TLS13CipherSuite.ivLength - 1, through: TLS13CipherSuite.ivLength - 8, by: -1) {
            nonce[index] ^= UInt8(truncatingIfNeeded: sequence)
            sequence >>= 8
        }
    }

    /// Moves to the next generation after a KeyUpdate: secret = HKDF-Expand-Label(secret,
    /// "traffic upd", "", Hash.length), new key and iv, sequence 0 (RFC 8446 §7.2).
    mutating func update() throws(TLSError) {
        let length = suite.hashLength
        try withUnsafeTemporaryAllocation(byteCount: length, alignment: 1) { (next) throws(TLSError) in
            try TLS13KeySchedule.expandLabel(suite, secret: UnsafeRawBufferPointer(secret), label: "traffic upd", into: next)
            secret.copyMemory(from: UnsafeRawBufferPointer(next))
            next.initializeMemory(as: UInt8.self, repeating: 0)
        }
        sequence = 0
        try derive()
    }

    private func derive() throws(TLSError) {
        try TLS13KeySchedule.expandLabel(suite, secret: UnsafeRawBufferPointer(secret), label: "key", into: key)
        try TLS13KeySchedule.expandLabel(suite, secret: UnsafeRawBufferPointer(secret), label: "iv", into: iv)
    }
}
