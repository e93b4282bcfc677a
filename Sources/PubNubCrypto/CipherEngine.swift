// SPDX-License-Identifier: MIT
internal import COpenSSL
import HarnessPrimitives

/// The byte-level formats of the three schemes over pooled AES contexts for both derived keys.
final class CipherEngine: Sendable {
    /// The legacy static IV, ASCII `"0123456789012345"`.
    static let staticIV: [UInt8] = Array("0123456789012345".utf8)
    /// The static IV in memory that is never freed, for passing to libcrypto.
    nonisolated(unsafe) static let staticIVPointer: UnsafePointer<UInt8> = {
        // The only nonisolated(unsafe) in the module: immutable bytes written once here, then only read.
        let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: 16)
        staticIV.withUnsafeBufferPointer { pointer.initialize(from: $0.baseAddress!, count: 16) }
        return UnsafePointer(pointer)
    }()

    let legacyEncryptor: AESCBCContextPool
    let legacyDecryptor: AESCBCContextPool
    let aesCBCEncryptor: AESCBCContextPool
    let aesCBCDecryptor: AESCBCContextPool
    /// The base64 code for message text (``Base64/Kernel/active`` unless a test names another).
    let base64Kernel: Base64.Kernel
    /// The AES-NI kernel's group code for ``base64Kernel`` (``AESEncryptionCode/kernelBase64Code(for:)``).
    let kernelBase64Code: Int32

    /// Pools for both keys; `code` encrypts (an unavailable one falls back to libcrypto), `base64` encodes
    /// message text (an unavailable one falls back to the scalar code).
    init(keys: DerivedKeys, code: AESEncryptionCode = .active, base64: Base64.Kernel = .active) {
        legacyEncryptor = AESCBCContextPool(key: keys.legacyKey, encrypting: true, code: code)
        legacyDecryptor = AESCBCContextPool(key: keys.legacyKey, encrypting: false)
        aesCBCEncryptor = AESCBCContextPool(key: keys.digest, encrypting: true, code: code)
        aesCBCDecryptor = AESCBCContextPool(key: keys.digest, encrypting: false)
        base64Kernel = base64.isAvailable ? base64 : .scalar
        kernelBase64Code = AESEncryptionCode.kernelBase64Code(for: base64Kernel)
    }

    /// The code that encrypts.
    var encryptionCode: AESEncryptionCode { aesCBCEncryptor.code }

    /// The size of `plaintextCount` bytes encrypted with `scheme` (PKCS#7 always adds 1...16 bytes).
    static func encryptedCount(_ plaintextCount: Int, scheme: CryptoScheme) -> Int {
        let padded = plaintextCount + 16 - plaintextCount % 16
        switch scheme {
        case .legacy: return padded
        case .legacyRandomIV: return 16 + padded
        case .aesCBC: return 10 + 16 + padded
        }
    }

    /// Encrypts `input` in `scheme`'s format into `out` (room for ``encryptedCount(_:scheme:)``; not overlapping
    /// `input`). `iv` nil means a random IV (ignored for `legacy`, which always uses the static IV).
    func encrypt(
        _ input: UnsafeBufferPointer<UInt8>,
        scheme: CryptoScheme,
        iv: UnsafePointer<UInt8>?,
        into out: UnsafeMutablePointer<UInt8>
    ) throws(CryptoError) -> Int {
        try withEncryptor(for: scheme) { context throws(CryptoError) in
            try Self.encrypt(input, scheme: scheme, iv: iv, into: out, with: context).written
        }
    }

    /// Lends `body` an encryption context for `scheme`'s key (see ``AESCBCContextPool/withContext(_:)``).
    @inline(__always)
    func withEncryptor<Result>(
        for scheme: CryptoScheme,
        _ body: (UnsafeMutablePointer<AESCBCContext>) throws(CryptoError) -> Result
    ) throws(CryptoError) -> Result {
        try Self.withContext(of: scheme == .aesCBC ? aesCBCEncryptor : legacyEncryptor, body)
    }

    /// Lends `body` a decryption context for the key that `scheme`'s data normally has, and that context's scratch
    /// buffer (at least `count` bytes); pass the context on to ``decryptInPlace(_:mode:holding:)``.
    @inline(__always)
    func withDecryptionScratch<Result>(
        count: Int,
        scheme: CryptoScheme,
        _ body: (UnsafeMutablePointer<UInt8>, HeldContext) throws(CryptoError) -> Result
    ) throws(CryptoError) -> Result {
        let pool = scheme == .aesCBC ? aesCBCDecryptor : legacyDecryptor
        let owner = ObjectIdentifier(pool)
        return try Self.withContext(of: pool) { context throws(CryptoError) in
            try body(context.pointee.scratch(count: count), HeldContext(pool: owner, context: context))
        }
    }

    /// A context lent by a pool, with the pool it came from.
    struct HeldContext {
        var pool: ObjectIdentifier
        var context: UnsafeMutablePointer<AESCBCContext>
    }

    /// `pool.withContext(body)` without a retain of `pool`: the engine holds its pools for as long as the caller
    /// holds the engine (a retain and a release are two locked instructions per message).
    @inline(__always)
    private static func withContext<Result>(
        of pool: AESCBCContextPool,
        _ body: (UnsafeMutablePointer<AESCBCContext>) throws(CryptoError) -> Result
    ) throws(CryptoError) -> Result {
        var failure: CryptoError?
        let result = Unmanaged.passUnretained(pool)._withUnsafeGuaranteedRef { pool -> Result? in
            do throws(CryptoError) { return try pool.withContext(body) } catch {
                failure = error
                return nil
            }
        }
        guard let result else { throw failure! }
        return result
    }

    /// ``encrypt(_:scheme:iv:into:)`` with a context from ``withEncryptor(for:_:)`` for the same scheme; a random
    /// IV comes from that context's batch. With `text`, the AES-NI kernel base64-encodes the written bytes (from
    /// `out` on) into it, each 48-byte group while the next blocks run (`text` may be `out` minus a third of the bytes, as for
    /// in-place ``Base64/encode(_:into:alphabet:kernel:)``); `encoded` is how many it did (see
    /// ``AESCBCContext/encrypt(iv:input:into:text:)``).
    @inline(__always)
    static func encrypt(
        _ input: UnsafeBufferPointer<UInt8>,
        scheme: CryptoScheme,
        iv: UnsafePointer<UInt8>?,
        into out: UnsafeMutablePointer<UInt8>,
        with context: UnsafeMutablePointer<AESCBCContext>,
        text: UnsafeMutablePointer<UInt8>? = nil,
        base64Code: Int32 = 0
    ) throws(CryptoError) -> (written: Int, encoded: Int) {
        let target = text.map { AESCBCContext.TextTarget(from: out, text: $0, code: base64Code) }
        let prefix: Int
        switch scheme {
        case .legacy:
            let result = try context.pointee.encrypt(iv: staticIVPointer, input: input, into: out, text: target)
            return result
        case .legacyRandomIV:
            try fillIV(out, from: iv, context: context)
            prefix = 16
        case .aesCBC:
            writeAESCBCHeaderPrefix(out)
            try fillIV(out + 10, from: iv, context: context)
            prefix = 26
        }
        let result = try context.pointee.encrypt(iv: out + prefix - 16, input: input, into: out + prefix, text: target)
        return (prefix + result.written, result.encoded)
    }

    /// Writes the 10 bytes before the IV of an `aescbc` message, `"PNED" 01 "ACRH" 10`, to `out` with two stores.
    @inline(__always)
    static func writeAESCBCHeaderPrefix(_ out: UnsafeMutablePointer<UInt8>) {
        // "PNED", version 1, "ACRH" | IV length 16, as little-endian words.
        let raw = UnsafeMutableRawPointer(out)
        raw.storeBytes(of: UInt64(0x5243_4101_4445_4E50).littleEndian, as: UInt64.self)
        raw.storeBytes(of: UInt16(0x1048).littleEndian, toByteOffset: 8, as: UInt16.self)
    }

    /// Decrypts `data` (any supported format) into `out` (room for `data.count + 16` bytes; not overlapping).
    func decrypt(
        _ data: UnsafeBufferPointer<UInt8>,
        into out: UnsafeMutablePointer<UInt8>,
        mode: LegacyFallback
    ) throws(CryptoError) -> Int {
        let (pool, iv, ciphertext) = try locate(data, mode: mode)
        return try pool.run(iv: iv, input: ciphertext, into: out)
    }

    /// Decrypts `data` in place; returns the plaintext, which lies inside `data` (where the ciphertext began).
    ///
    /// `held` (from ``withDecryptionScratch(count:scheme:_:)``) is used when it has the key the data needs;
    /// otherwise a context comes from the right pool.
    func decryptInPlace(
        _ data: UnsafeMutableBufferPointer<UInt8>,
        mode: LegacyFallback,
        holding held: HeldContext? = nil
    ) throws(CryptoError) -> UnsafeMutableBufferPointer<UInt8> {
        let (pool, iv, ciphertext) = try locate(UnsafeBufferPointer(data), mode: mode)
        // The IV lies before the ciphertext and the output starts where the input starts, so decrypting in place
        // never overwrites it (EVP also reads it at init, before any output).
        let start = UnsafeMutablePointer(mutating: ciphertext.baseAddress!)
        let count: Int
        if let held, held.pool == ObjectIdentifier(pool) {
            count = try held.context.pointee.decrypt(iv: iv, input: ciphertext, into: start)
        } else {
            count = try pool.run(iv: iv, input: ciphertext, into: start)
        }
        return UnsafeMutableBufferPointer(start: start, count: count)
    }

    /// Finds the cryptor, IV and ciphertext of `data`.
    private func locate(
        _ data: UnsafeBufferPointer<UInt8>,
        mode: LegacyFallback
    ) throws(CryptoError) -> (AESCBCContextPool, UnsafePointer<UInt8>, UnsafeBufferPointer<UInt8>) {
        guard !data.isEmpty else { throw CryptoError(.emptyData, "there is no data to decrypt") }
        if let header = try HeaderLayout.parse(data) {
            guard header.isAESCBC else {
                throw CryptoError(.unknownCryptor, "PNED header names the unknown cryptor \(Self.describeID(data))")
            }
            guard header.cryptorData.count == 16 else {
                throw CryptoError(.invalidIV, "ACRH cryptor data is \(header.cryptorData.count) bytes, not a 16-byte IV")
            }
            let ciphertext = UnsafeBufferPointer(rebasing: data[header.headerLength...])
            try Self.checkBlocks(ciphertext.count)
            return (aesCBCDecryptor, data.baseAddress! + header.cryptorData.lowerBound, ciphertext)
        }
        switch mode {
        case .none:
            throw CryptoError(.unknownCryptor, "data has no PNED header and no legacy cryptor is registered")
        case .staticIV:
            try Self.checkBlocks(data.count)
            return (legacyDecryptor, Self.staticIVPointer, data)
        case .randomIV:
            guard data.count >= 16 else {
                throw CryptoError(.invalidIV, "random-IV data is \(data.count) bytes, shorter than its 16-byte IV")
            }
            let ciphertext = UnsafeBufferPointer(rebasing: data[16...])
            try Self.checkBlocks(ciphertext.count)
            return (legacyDecryptor, data.baseAddress!, ciphertext)
        }
    }

    private static func checkBlocks(_ count: Int) throws(CryptoError) {
        guard count == 0 || count % 16 != 0 else { return }
        let why = count == 0 ? "is empty" : "is \(count) bytes, not a multiple of 16"
        throw CryptoError(.invalidBlockSize, "the ciphertext \(why)")
    }

    private static func fillIV(
        _ target: UnsafeMutablePointer<UInt8>,
        from iv: UnsafePointer<UInt8>?,
        context: UnsafeMutablePointer<AESCBCContext>
    ) throws(CryptoError) {
        if let iv {
            target.update(from: iv, count: 16)
        } else {
            try context.pointee.randomIVs.fill(target)
        }
    }

    private static func describeID(_ data: UnsafeBufferPointer<UInt8>) -> String {
        let id = data[5..<9]
        if id.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return "\"\(String(decoding: id, as: UTF8.self))\"" }
        return "0x" + ByteEncoding.hex(id)
    }
}
