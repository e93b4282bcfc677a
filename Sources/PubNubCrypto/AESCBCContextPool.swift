// SPDX-License-Identifier: MIT
internal import COpenSSL
import Synchronization

/// AES-256-CBC (PKCS#7) contexts for one key and one direction, keyed once and reused.
///
/// A context is created with the key (the key schedule is computed once). Decryption sets each message's IV
/// (`EVP_DecryptInit_ex2` with a null cipher and key keeps the schedule and resets the padding state) and lets
/// libcrypto check the padding. Encryption needs no per-message set-up at all: the context runs without
/// libcrypto's padding and keeps chaining from the last ciphertext block it wrote (`chain`), so the pool pads
/// the plaintext itself and XORs the first block with `iv ⊕ chain`; CBC then computes
/// `E(P1 ⊕ iv ⊕ chain ⊕ chain) = E(P1 ⊕ iv)`, exactly as a context freshly set to `iv` would.
/// Free contexts wait in a small stack behind a mutex, so concurrent callers each get their own context.
final class AESCBCContextPool: @unchecked Sendable {
    // Sendable invariant: `free` is only touched under its lock, a context taken from it is used by one
    // thread until it is pushed back, and `key`/`encrypting` never change.
    private let key: [UInt8]
    private let encrypting: Bool
    private let free = Mutex<[OwnedContext]>([])
    private static let maxIdleContexts = 16

    init(key: [UInt8], encrypting: Bool) {
        precondition(key.count == 32, "AES-256 key must be 32 bytes")
        self.key = key
        self.encrypting = encrypting
    }

    deinit {
        free.withLock { contexts in
            for context in contexts { EVP_CIPHER_CTX_free(context.pointer) }
            contexts.removeAll()
        }
    }

    /// Runs AES-256-CBC with PKCS#7 padding over `input` with `iv` (16 bytes) and writes to `out`.
    ///
    /// `out` must have room for `input.count + 16` bytes; encryption needs `out` not to overlap `input`.
    /// Returns the number of bytes written. When encrypting, `progress` is called after each chunk of
    /// ``progressChunk`` bytes (and not after the last) with the number of ciphertext bytes at `out` that are
    /// final, so the caller can work on them while the rest is encrypted.
    func run(
        iv: UnsafePointer<UInt8>,
        input: UnsafeBufferPointer<UInt8>,
        into out: UnsafeMutablePointer<UInt8>,
        progress: (Int) -> Void = { _ in }
    ) throws(CryptoError) -> Int {
        var context = try takeContext()
        if encrypting {
            // A context whose chaining state is unknown (libcrypto failed half-way) is freed, not pooled.
            let written = try encrypt(&context, iv: iv, input: input, into: out, progress: progress)
            giveBack(context)
            return written
        }
        defer { giveBack(context) }
        return try decrypt(context, iv: iv, input: input, into: out)
    }

    /// Encryption chunk between two `progress` calls: small enough that the caller's work on one chunk overlaps
    /// the (latency-bound, sequential) CBC encryption of the next, large enough to keep libcrypto's per-call
    /// cost small.
    static let progressChunk = 256

    private func encrypt(
        _ context: inout OwnedContext,
        iv: UnsafePointer<UInt8>,
        input: UnsafeBufferPointer<UInt8>,
        into out: UnsafeMutablePointer<UInt8>,
        progress: (Int) -> Void
    ) throws(CryptoError) -> Int {
        // Plaintext and PKCS#7 padding (1...16 bytes of the pad length) at `out`, encrypted in place.
        let count = input.count
        let padding = 16 - count % 16
        let total = count + padding
        if count > 0 { out.update(from: input.baseAddress!, count: count) }
        (out + count).update(repeating: UInt8(padding), count: padding)
        let raw = UnsafeMutableRawPointer(out)
        let ivRaw = UnsafeRawPointer(iv)
        for half in 0..<2 {
            let offset = half * 8
            let mask = ivRaw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ context.chain[half]
            let first = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            raw.storeBytes(of: first ^ mask, toByteOffset: offset, as: UInt64.self)
        }
        var offset = 0
        // EVP lengths are Int32: chunks of whole blocks (`progressChunk` is far below 2^31).
        while offset < total {
            let chunk = min(total - offset, Self.progressChunk)
            var produced: Int32 = 0
            guard EVP_EncryptUpdate(context.pointer, out + offset, &produced, out + offset, Int32(chunk)) == 1,
                Int(produced) == chunk
            else {
                EVP_CIPHER_CTX_free(context.pointer)
                throw failure("AES-CBC update failed")
            }
            offset += chunk
            if offset < total { progress(offset) }
        }
        let last = UnsafeRawPointer(out + total - 16)
        context.chain = SIMD2(last.loadUnaligned(as: UInt64.self), last.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        return total
    }

    private func decrypt(
        _ context: OwnedContext,
        iv: UnsafePointer<UInt8>,
        input: UnsafeBufferPointer<UInt8>,
        into out: UnsafeMutablePointer<UInt8>
    ) throws(CryptoError) -> Int {
        guard EVP_DecryptInit_ex2(context.pointer, nil, nil, iv, nil) == 1 else { throw failure("setting the IV failed") }
        var written = 0
        var offset = 0
        // EVP lengths are Int32: feed very large inputs in chunks of whole blocks.
        while offset < input.count {
            let chunk = min(input.count - offset, 1 << 30)
            var produced: Int32 = 0
            let status = EVP_DecryptUpdate(context.pointer, out + written, &produced, input.baseAddress! + offset, Int32(chunk))
            guard status == 1 else { throw failure("AES-CBC update failed") }
            written += Int(produced)
            offset += chunk
        }
        var produced: Int32 = 0
        guard EVP_DecryptFinal_ex(context.pointer, out + written, &produced) == 1 else {
            ERR_clear_error()
            throw CryptoError(.wrongKeyOrPadding, "AES-CBC padding is invalid: wrong key, wrong scheme or corrupted data")
        }
        return written + Int(produced)
    }

    private func takeContext() throws(CryptoError) -> OwnedContext {
        if let context = free.withLock({ $0.popLast() }) { return context }
        guard let context = EVP_CIPHER_CTX_new() else { throw failure("EVP_CIPHER_CTX_new failed") }
        // Encryption contexts start chaining from an all-zero IV and never pad (see the type's documentation).
        let zeroIV = [UInt8](repeating: 0, count: 16)
        let status = key.withUnsafeBufferPointer { key in
            encrypting
                ? EVP_EncryptInit_ex2(context, EVP_aes_256_cbc(), key.baseAddress, zeroIV, nil) == 1
                    && EVP_CIPHER_CTX_set_padding(context, 0) == 1
                : EVP_DecryptInit_ex2(context, EVP_aes_256_cbc(), key.baseAddress, nil, nil) == 1
        }
        guard status else {
            EVP_CIPHER_CTX_free(context)
            throw failure("AES-256-CBC initialisation failed")
        }
        return OwnedContext(pointer: context, chain: .zero)
    }

    private func giveBack(_ context: OwnedContext) {
        let kept = free.withLock { contexts in
            guard contexts.count < Self.maxIdleContexts else { return false }
            contexts.append(context)
            return true
        }
        if !kept { EVP_CIPHER_CTX_free(context.pointer) }
    }

    private func failure(_ what: String) -> CryptoError {
        ERR_clear_error()
        return CryptoError(encrypting ? .encryptionFailed : .wrongKeyOrPadding, "libcrypto: \(what)")
    }
}

/// An `EVP_CIPHER_CTX` moving between the pool and one caller, with its CBC chaining value when it encrypts.
private struct OwnedContext: @unchecked Sendable {
    // Sendable invariant: exactly one owner at a time (the pool under its lock, or the caller that took it).
    let pointer: OpaquePointer
    /// The last ciphertext block this context wrote (its running IV), as two native-order words.
    var chain: SIMD2<UInt64>
}
