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
/// A free context waits in a lock-free slot (the common case of one caller at a time costs two atomic exchanges)
/// or, when that is taken, in a small stack behind a mutex, so concurrent callers each get their own context.
final class AESCBCContextPool: @unchecked Sendable {
    // Sendable invariant: a context is owned by exactly one of: the `hot` slot, the `free` stack (only touched under
    // its lock), or one caller between take and give-back; `key`/`encrypting` never change.
    private let key: [UInt8]
    private let encrypting: Bool
    /// The bit pattern of a free `Context` pointer, or 0.
    private let hot = Atomic<Int>(0)
    private let free = Mutex<[ContextHandle]>([])
    private static let maxIdleContexts = 16

    init(key: [UInt8], encrypting: Bool) {
        precondition(key.count == 32, "AES-256 key must be 32 bytes")
        self.key = key
        self.encrypting = encrypting
    }

    deinit {
        if let context = UnsafeMutablePointer<Context>(bitPattern: hot.exchange(0, ordering: .acquiring)) {
            Self.destroy(context)
        }
        free.withLock { contexts in
            for handle in contexts { Self.destroy(handle.context) }
            contexts.removeAll()
        }
    }

    /// Runs AES-256-CBC with PKCS#7 padding over `input` with `iv` (16 bytes) and writes to `out`.
    ///
    /// `out` must have room for `input.count + 16` bytes; encryption needs `out` not to overlap `input`.
    /// Returns the number of bytes written.
    func run(
        iv: UnsafePointer<UInt8>,
        input: UnsafeBufferPointer<UInt8>,
        into out: UnsafeMutablePointer<UInt8>
    ) throws(CryptoError) -> Int {
        let context = try takeContext()
        if encrypting {
            // A context whose chaining state is unknown (libcrypto failed half-way) is freed, not pooled.
            let written = try encrypt(context, iv: iv, input: input, into: out)
            giveBack(context)
            return written
        }
        defer { giveBack(context) }
        return try decrypt(context, iv: iv, input: input, into: out)
    }

    private func encrypt(
        _ context: UnsafeMutablePointer<Context>,
        iv: UnsafePointer<UInt8>,
        input: UnsafeBufferPointer<UInt8>,
        into out: UnsafeMutablePointer<UInt8>
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
            let mask = ivRaw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ context.pointee.chain[half]
            let first = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            raw.storeBytes(of: first ^ mask, toByteOffset: offset, as: UInt64.self)
        }
        var offset = 0
        // EVP lengths are Int32: very large inputs go in chunks of whole blocks.
        while offset < total {
            let chunk = min(total - offset, 1 << 30)
            var produced: Int32 = 0
            guard EVP_EncryptUpdate(context.pointee.cipher, out + offset, &produced, out + offset, Int32(chunk)) == 1,
                Int(produced) == chunk
            else {
                Self.destroy(context)
                throw failure("AES-CBC update failed")
            }
            offset += chunk
        }
        let last = UnsafeRawPointer(out + total - 16)
        context.pointee.chain = SIMD2(last.loadUnaligned(as: UInt64.self), last.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        return total
    }

    private func decrypt(
        _ context: UnsafeMutablePointer<Context>,
        iv: UnsafePointer<UInt8>,
        input: UnsafeBufferPointer<UInt8>,
        into out: UnsafeMutablePointer<UInt8>
    ) throws(CryptoError) -> Int {
        let cipher = context.pointee.cipher
        guard EVP_DecryptInit_ex2(cipher, nil, nil, iv, nil) == 1 else { throw failure("setting the IV failed") }
        var written = 0
        var offset = 0
        // EVP lengths are Int32: feed very large inputs in chunks of whole blocks.
        while offset < input.count {
            let chunk = min(input.count - offset, 1 << 30)
            var produced: Int32 = 0
            let status = EVP_DecryptUpdate(cipher, out + written, &produced, input.baseAddress! + offset, Int32(chunk))
            guard status == 1 else { throw failure("AES-CBC update failed") }
            written += Int(produced)
            offset += chunk
        }
        var produced: Int32 = 0
        guard EVP_DecryptFinal_ex(cipher, out + written, &produced) == 1 else {
            ERR_clear_error()
            throw CryptoError(.wrongKeyOrPadding, "AES-CBC padding is invalid: wrong key, wrong scheme or corrupted data")
        }
        return written + Int(produced)
    }

    private func takeContext() throws(CryptoError) -> UnsafeMutablePointer<Context> {
        if let context = UnsafeMutablePointer<Context>(bitPattern: hot.exchange(0, ordering: .acquiring)) { return context }
        if let handle = free.withLock({ $0.popLast() }) { return handle.context }
        guard let cipher = EVP_CIPHER_CTX_new() else { throw failure("EVP_CIPHER_CTX_new failed") }
        // Encryption contexts start chaining from an all-zero IV and never pad (see the type's documentation).
        let zeroIV = [UInt8](repeating: 0, count: 16)
        let status = key.withUnsafeBufferPointer { key in
            encrypting
                ? EVP_EncryptInit_ex2(cipher, EVP_aes_256_cbc(), key.baseAddress, zeroIV, nil) == 1
                    && EVP_CIPHER_CTX_set_padding(cipher, 0) == 1
                : EVP_DecryptInit_ex2(cipher, EVP_aes_256_cbc(), key.baseAddress, nil, nil) == 1
        }
        guard status else {
            EVP_CIPHER_CTX_free(cipher)
            throw failure("AES-256-CBC initialisation failed")
        }
        let context = UnsafeMutablePointer<Context>.allocate(capacity: 1)
        context.initialize(to: Context(cipher: cipher, chain: .zero))
        return context
    }

    private func giveBack(_ context: UnsafeMutablePointer<Context>) {
        let bits = Int(bitPattern: context)
        if hot.compareExchange(expected: 0, desired: bits, ordering: .releasing).exchanged { return }
        let kept = free.withLock { contexts in
            guard contexts.count < Self.maxIdleContexts else { return false }
            contexts.append(ContextHandle(context: context))
            return true
        }
        if !kept { Self.destroy(context) }
    }

    private static func destroy(_ context: UnsafeMutablePointer<Context>) {
        EVP_CIPHER_CTX_free(context.pointee.cipher)
        context.deinitialize(count: 1)
        context.deallocate()
    }

    private func failure(_ what: String) -> CryptoError {
        ERR_clear_error()
        return CryptoError(encrypting ? .encryptionFailed : .wrongKeyOrPadding, "libcrypto: \(what)")
    }
}

/// One `EVP_CIPHER_CTX` with, when it encrypts, its CBC chaining value.
private struct Context {
    let cipher: OpaquePointer
    /// The last ciphertext block this context wrote (its running IV), as two native-order words.
    var chain: SIMD2<UInt64>
}

/// A free context in the pool's stack.
private struct ContextHandle: @unchecked Sendable {
    // Sendable invariant: exactly one owner at a time (the pool under its lock, or the caller that took it).
    let context: UnsafeMutablePointer<Context>
}
