// SPDX-License-Identifier: MIT
internal import CAESCBC
internal import COpenSSL

/// One `EVP_CIPHER_CTX` keyed for one direction, with what its owner needs per message: when it encrypts, its CBC
/// chaining value, its own batch of random IVs and a scratch buffer for the message text; and, when it encrypts
/// with the AES-NI kernel (``AESEncryptionCode/aesni``), the key's 15 round keys, which replace the EVP context.
///
/// Owned by exactly one caller at a time (``AESCBCContextPool`` lends it), so nothing here takes a lock.
struct AESCBCContext {
    let cipher: OpaquePointer
    /// The last ciphertext block this context wrote (its running IV), as two native-order words.
    var chain: SIMD2<UInt64> = .zero
    /// Random IVs for this context's messages, drawn in batches (see ``RandomIVBatch``).
    var randomIVs = RandomIVBatch()
    /// Scratch space for the caller (the ciphertext and its base64 text), grown on demand.
    private(set) var scratch: UnsafeMutablePointer<UInt8>?
    private(set) var scratchCapacity = 0

    /// Scratch buffers above this size are released when the context is given back.
    static let retainedScratchLimit = 64 * 1024

    /// The expanded key for the AES-NI kernel, or nil when libcrypto encrypts (and for decryption).
    private(set) var roundKeys: UnsafeMutablePointer<caescbc_round_keys>?

    init(cipher: OpaquePointer) {
        self.cipher = cipher
    }

    /// Expands `key` (32 bytes) for the AES-NI kernel; from then on ``encrypt(iv:input:into:text:)`` uses it.
    /// Returns false (nothing changes) when the CPU lacks AES-NI.
    mutating func useKernel(key: UnsafePointer<UInt8>) -> Bool {
        let keys = UnsafeMutablePointer<caescbc_round_keys>.allocate(capacity: 1)
        guard caescbc_expand_key(key, keys) != 0 else {
            keys.deallocate()
            return false
        }
        roundKeys = keys
        return true
    }

    /// At least `count` bytes of scratch space, valid until the context is given back (contents undefined).
    mutating func scratch(count: Int) -> UnsafeMutablePointer<UInt8> {
        if let scratch, scratchCapacity >= count { return scratch }
        scratch?.deallocate()
        // Rounded up so that messages of similar sizes share one buffer.
        let capacity = max(count, 2048 + count / 2)
        let fresh = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        scratch = fresh
        scratchCapacity = capacity
        return fresh
    }

    /// Frees the scratch buffer if it has grown beyond ``retainedScratchLimit``.
    mutating func trimScratch() {
        guard scratchCapacity > Self.retainedScratchLimit else { return }
        scratch?.deallocate()
        scratch = nil
        scratchCapacity = 0
    }

    /// Frees everything the context holds.
    func destroy() {
        if let roundKeys {
            OPENSSL_cleanse(roundKeys, MemoryLayout<caescbc_round_keys>.size)
            roundKeys.deallocate()
        }
        EVP_CIPHER_CTX_free(cipher)
        randomIVs.release()
        scratch?.deallocate()
    }

    /// Where a message's base64 text goes while the kernel encrypts (see ``encrypt(iv:input:into:text:)``).
    struct TextTarget {
        /// The first byte to encode: a header and IV written before the ciphertext, or the ciphertext itself.
        var from: UnsafePointer<UInt8>
        /// Where the text goes (in-place encoding allowed, as for ``Base64/encode(_:into:alphabet:kernel:)``).
        var text: UnsafeMutablePointer<UInt8>
        /// The kernel's group code (``AESEncryptionCode/kernelBase64Code(for:)``).
        var code: Int32
    }

    /// AES-256-CBC encryption with PKCS#7 padding of `input` with `iv` (16 bytes) into `out` (room for
    /// `input.count + 16` bytes, not overlapping `input` or `iv`). Returns the bytes written, and how many bytes
    /// from `text.from` the AES-NI kernel has base64-encoded (with padding) into `text.text`: all of them when it
    /// ran with a group code, else 0 (libcrypto, no `text`, SSSE3 or scalar base64), and the caller encodes them.
    ///
    /// With libcrypto, plaintext and padding (1...16 bytes of the pad length) are written to `out`, the first block
    /// is XORed with `iv ⊕ chain`, and the whole is encrypted in place with one `EVP_EncryptUpdate` chaining on from
    /// ``chain``: CBC then computes `E(P1 ⊕ iv)` for the first block, exactly what a context freshly set to `iv`
    /// would. The kernel reads `input` in place and starts from `iv` itself.
    /// - Throws: ``CryptoError/Kind/encryptionFailed``; the chaining state is then unknown and the context must be
    ///   destroyed.
    mutating func encrypt(
        iv: UnsafePointer<UInt8>,
        input: UnsafeBufferPointer<UInt8>,
        into out: UnsafeMutablePointer<UInt8>,
        text: TextTarget? = nil
    ) throws(CryptoError) -> (written: Int, encoded: Int) {
        if let roundKeys {
            var encoded = 0
            let plaintext = input.baseAddress ?? UnsafePointer(out)
            let written = caescbc_encrypt(
                roundKeys, iv, plaintext, input.count, out, text?.from, text?.text, text?.code ?? 0, &encoded)
            guard written == input.count / 16 * 16 + 16 else { throw Self.failure(encrypting: true, "the AES-NI kernel did not run") }
            return (written, encoded)
        }
        return (try encryptWithLibcrypto(iv: iv, input: input, into: out), 0)
    }

    /// ``encrypt(iv:input:into:text:)`` with the EVP context (see there).
    private mutating func encryptWithLibcrypto(
        iv: UnsafePointer<UInt8>,
        input: UnsafeBufferPointer<UInt8>,
        into out: UnsafeMutablePointer<UInt8>
    ) throws(CryptoError) -> Int {
        let count = input.count
        let padding = 16 - count % 16
        let total = count + padding
        if count > 0 { out.update(from: input.baseAddress!, count: count) }
        (out + count).update(repeating: UInt8(padding), count: padding)
        let raw = UnsafeMutableRawPointer(out)
        let ivRaw = UnsafeRawPointer(iv)
        for half in 0..<2 {
            let offset = half * 8
            let mask = ivRaw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) ^ chain[half]
            let first = raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            raw.storeBytes(of: first ^ mask, toByteOffset: offset, as: UInt64.self)
        }
        var offset = 0
        // EVP lengths are Int32: very large inputs go in chunks of whole blocks.
        while offset < total {
            let chunk = min(total - offset, 1 << 30)
            var produced: Int32 = 0
            guard EVP_EncryptUpdate(cipher, out + offset, &produced, out + offset, Int32(chunk)) == 1, Int(produced) == chunk else {
                throw Self.failure(encrypting: true, "AES-CBC update failed")
            }
            offset += chunk
        }
        let last = UnsafeRawPointer(out + total - 16)
        chain = SIMD2(last.loadUnaligned(as: UInt64.self), last.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        return total
    }

    /// AES-256-CBC decryption of `input` with `iv`, checking and removing the PKCS#7 padding.
    ///
    /// `out` needs room for `input.count + 16` bytes; it may be `input` itself (in place), not partly overlap it.
    /// Returns the plaintext bytes written.
    func decrypt(
        iv: UnsafePointer<UInt8>,
        input: UnsafeBufferPointer<UInt8>,
        into out: UnsafeMutablePointer<UInt8>
    ) throws(CryptoError) -> Int {
        guard EVP_DecryptInit_ex2(cipher, nil, nil, iv, nil) == 1 else {
            throw Self.failure(encrypting: false, "setting the IV failed")
        }
        var written = 0
        var offset = 0
        // EVP lengths are Int32: feed very large inputs in chunks of whole blocks.
        while offset < input.count {
            let chunk = min(input.count - offset, 1 << 30)
            var produced: Int32 = 0
            let status = EVP_DecryptUpdate(cipher, out + written, &produced, input.baseAddress! + offset, Int32(chunk))
            guard status == 1 else { throw Self.failure(encrypting: false, "AES-CBC update failed") }
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

    /// A libcrypto failure as this layer's error (the libcrypto error queue is cleared).
    static func failure(encrypting: Bool, _ what: String) -> CryptoError {
        ERR_clear_error()
        return CryptoError(encrypting ? .encryptionFailed : .wrongKeyOrPadding, "libcrypto: \(what)")
    }
}
