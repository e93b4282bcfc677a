// SPDX-License-Identifier: MIT
internal import COpenSSL
import Synchronization

/// AES-256-CBC (PKCS#7) contexts for one key and one direction, keyed once and reused.
///
/// A context is created with the key (the key schedule is computed once). Decryption sets each message's IV
/// (`EVP_DecryptInit_ex2` with a null cipher and key keeps the schedule and resets the padding state) and lets
/// libcrypto check the padding. Encryption needs no per-message set-up at all: the context runs without
/// libcrypto's padding and keeps chaining from the last ciphertext block it wrote (see
/// ``AESCBCContext/encrypt(iv:input:into:text:)``). With ``AESEncryptionCode/aesni`` an encryption context also gets
/// the key's round keys (expanded once, when the context is made) and encrypts with the package's AES-NI kernel.
/// A free context waits in a lock-free slot (the common case of one caller at a time costs two atomic exchanges)
/// or, when that is taken, in a small stack behind a mutex, so concurrent callers each get their own context.
final class AESCBCContextPool: @unchecked Sendable {
    // Sendable invariant: a context is owned by exactly one of: the `hot` slot, the `free` stack (only touched under
    // its lock), or one caller between take and give-back; `key`/`encrypting`/`code` never change.
    private let key: [UInt8]
    private let encrypting: Bool
    /// The code that encrypts (decryption always uses libcrypto).
    let code: AESEncryptionCode
    /// The bit pattern of a free `AESCBCContext` pointer, or 0.
    private let hot = Atomic<Int>(0)
    private let free = Mutex<[ContextHandle]>([])
    private static let maxIdleContexts = 16

    init(key: [UInt8], encrypting: Bool, code: AESEncryptionCode = .active) {
        precondition(key.count == 32, "AES-256 key must be 32 bytes")
        self.key = key
        self.encrypting = encrypting
        self.code = code.isAvailable ? code : .libcrypto
    }

    deinit {
        if let context = UnsafeMutablePointer<AESCBCContext>(bitPattern: hot.exchange(0, ordering: .acquiring)) {
            Self.destroy(context)
        }
        free.withLock { contexts in
            for handle in contexts { Self.destroy(handle.context) }
            contexts.removeAll()
        }
    }

    /// Lends a context to `body` for the length of the call; `body` must not keep the pointer.
    ///
    /// An error thrown by an encrypting `body` frees the context (its chaining state is unknown); a decrypting
    /// context goes back to the pool either way.
    @inline(__always)
    func withContext<Result>(
        _ body: (UnsafeMutablePointer<AESCBCContext>) throws(CryptoError) -> Result
    ) throws(CryptoError) -> Result {
        let context = try takeContext()
        let result: Result
        do throws(CryptoError) { result = try body(context) } catch {
            if encrypting { Self.destroy(context) } else { giveBack(context) }
            throw error
        }
        giveBack(context)
        return result
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
            let written: Int
            do throws(CryptoError) { written = try context.pointee.encrypt(iv: iv, input: input, into: out).written } catch {
                // The chaining state is unknown after a failed update: the context is freed, not pooled.
                Self.destroy(context)
                throw error
            }
            giveBack(context)
            return written
        }
        defer { giveBack(context) }
        return try context.pointee.decrypt(iv: iv, input: input, into: out)
    }

    private func takeContext() throws(CryptoError) -> UnsafeMutablePointer<AESCBCContext> {
        if let context = UnsafeMutablePointer<AESCBCContext>(bitPattern: hot.exchange(0, ordering: .acquiring)) { return context }
        if let handle = free.withLock({ $0.popLast() }) { return handle.context }
        guard let cipher = EVP_CIPHER_CTX_new() else { throw AESCBCContext.failure(encrypting: encrypting, "EVP_CIPHER_CTX_new failed") }
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
            throw AESCBCContext.failure(encrypting: encrypting, "AES-256-CBC initialisation failed")
        }
        let context = UnsafeMutablePointer<AESCBCContext>.allocate(capacity: 1)
        context.initialize(to: AESCBCContext(cipher: cipher))
        if encrypting && code == .aesni {
            guard key.withUnsafeBufferPointer({ context.pointee.useKernel(key: $0.baseAddress!) }) else {
                Self.destroy(context)
                throw AESCBCContext.failure(encrypting: true, "the AES-NI key expansion did not run")
            }
        }
        return context
    }

    private func giveBack(_ context: UnsafeMutablePointer<AESCBCContext>) {
        context.pointee.trimScratch()
        let bits = Int(bitPattern: context)
        if hot.compareExchange(expected: 0, desired: bits, ordering: .releasing).exchanged { return }
        let kept = free.withLock { contexts in
            guard contexts.count < Self.maxIdleContexts else { return false }
            contexts.append(ContextHandle(context: context))
            return true
        }
        if !kept { Self.destroy(context) }
    }

    private static func destroy(_ context: UnsafeMutablePointer<AESCBCContext>) {
        context.pointee.destroy()
        context.deinitialize(count: 1)
        context.deallocate()
    }
}

/// A free context in the pool's stack.
private struct ContextHandle: @unchecked Sendable {
    // Sendable invariant: exactly one owner at a time (the pool under its lock, or the caller that took it).
    let context: UnsafeMutablePointer<AESCBCContext>
}
