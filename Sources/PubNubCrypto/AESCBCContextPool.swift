// SPDX-License-Identifier: MIT
internal import COpenSSL
import Synchronization

/// AES-256-CBC (PKCS#7) contexts for one key and one direction, keyed once and reused.
///
/// A context is created with the key (the key schedule is computed once), and each call only sets a new IV
/// (`EVP_*Init_ex2` with a null cipher and key keeps the schedule and resets the padding state).
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
    /// `out` must have room for `input.count + 16` bytes. Returns the number of bytes written.
    func run(
        iv: UnsafePointer<UInt8>,
        input: UnsafeBufferPointer<UInt8>,
        into out: UnsafeMutablePointer<UInt8>
    ) throws(CryptoError) -> Int {
        let context = try takeContext()
        defer { giveBack(context) }
        let initStatus =
            encrypting
            ? EVP_EncryptInit_ex2(context, nil, nil, iv, nil) : EVP_DecryptInit_ex2(context, nil, nil, iv, nil)
        guard initStatus == 1 else { throw failure("setting the IV failed") }
        var written = 0
        var offset = 0
        // EVP lengths are Int32: feed very large inputs in chunks of whole blocks.
        while offset < input.count {
            let chunk = min(input.count - offset, 1 << 30)
            var produced: Int32 = 0
            let status =
                encrypting
                ? EVP_EncryptUpdate(context, out + written, &produced, input.baseAddress! + offset, Int32(chunk))
                : EVP_DecryptUpdate(context, out + written, &produced, input.baseAddress! + offset, Int32(chunk))
            guard status == 1 else { throw failure("AES-CBC update failed") }
            written += Int(produced)
            offset += chunk
        }
        var produced: Int32 = 0
        if encrypting {
            guard EVP_EncryptFinal_ex(context, out + written, &produced) == 1 else {
                throw failure("AES-CBC final block failed")
            }
        } else {
            guard EVP_DecryptFinal_ex(context, out + written, &produced) == 1 else {
                ERR_clear_error()
                throw CryptoError(.wrongKeyOrPadding, "AES-CBC padding is invalid: wrong key, wrong scheme or corrupted data")
            }
        }
        return written + Int(produced)
    }

    private func takeContext() throws(CryptoError) -> OpaquePointer {
        if let context = free.withLock({ $0.popLast() }) { return context.pointer }
        guard let context = EVP_CIPHER_CTX_new() else { throw failure("EVP_CIPHER_CTX_new failed") }
        let status = key.withUnsafeBufferPointer { key in
            encrypting
                ? EVP_EncryptInit_ex2(context, EVP_aes_256_cbc(), key.baseAddress, nil, nil)
                : EVP_DecryptInit_ex2(context, EVP_aes_256_cbc(), key.baseAddress, nil, nil)
        }
        guard status == 1 else {
            EVP_CIPHER_CTX_free(context)
            throw failure("AES-256-CBC initialisation failed")
        }
        return context
    }

    private func giveBack(_ context: OpaquePointer) {
        let kept = free.withLock { contexts in
            guard contexts.count < Self.maxIdleContexts else { return false }
            contexts.append(OwnedContext(pointer: context))
            return true
        }
        if !kept { EVP_CIPHER_CTX_free(context) }
    }

    private func failure(_ what: String) -> CryptoError {
        ERR_clear_error()
        return CryptoError(encrypting ? .encryptionFailed : .wrongKeyOrPadding, "libcrypto: \(what)")
    }
}

/// An `EVP_CIPHER_CTX` moving between the pool and one caller.
private struct OwnedContext: @unchecked Sendable {
    // Sendable invariant: exactly one owner at a time (the pool under its lock, or the caller that took it).
    let pointer: OpaquePointer
}
