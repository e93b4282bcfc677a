// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Encrypts and decrypts PubNub messages and files with one cipher key and one ``CryptoScheme``.
///
/// The keys are derived once in `init` and the AES contexts are reused, so a module is cheap per call;
/// it is a value that can be shared between threads.
///
/// Decryption works like the SDKs' CryptoModule for every scheme: data that starts with `"PNED"` is parsed as a
/// header and dispatched by cryptor id (only `ACRH` exists); headerless data is legacy data, read with the
/// scheme's own IV mode (for ``CryptoScheme/aesCBC``, with ``legacyFallback``).
public struct CryptoModule: Sendable {
    /// The format used for encryption (and for headerless data when decrypting).
    public var scheme: CryptoScheme
    /// How an `aescbc` module reads headerless data; ignored by the legacy schemes. Default: random IV.
    public var legacyFallback: LegacyFallback = .randomIV
    /// Whether an empty plaintext is encrypted (`true`) or rejected with ``CryptoError/Kind/emptyData``.
    ///
    /// `nil` (the default) follows the SDKs: the legacy ciphers encrypt it (one padding block), every
    /// CryptoModule (`aescbc`) rejects it.
    public var encryptsEmptyPlaintext: Bool?
    /// The keys derived from the cipher key.
    public let keys: DerivedKeys
    let engine: CipherEngine

    /// A module for `cipherKey` (any non-empty text; its UTF-8 bytes are hashed).
    /// - Throws: ``CryptoError/Kind/emptyKey`` for an empty key.
    public init(cipherKey: String, scheme: CryptoScheme) throws(CryptoError) {
        self.scheme = scheme
        self.keys = try DerivedKeys(cipherKey: cipherKey)
        self.engine = CipherEngine(keys: keys)
    }

    /// A module that encrypts with the given AES and base64 code instead of the best this CPU has (for tests and
    /// comparisons; an unavailable choice falls back to libcrypto, or to the scalar base64 code).
    package init(cipherKey: String, scheme: CryptoScheme, aes: AESEncryptionCode, base64: Base64.Kernel) throws(CryptoError) {
        self.scheme = scheme
        self.keys = try DerivedKeys(cipherKey: cipherKey)
        self.engine = CipherEngine(keys: keys, code: aes, base64: base64)
    }

    /// The AES code this module encrypts with (``AESEncryptionCode``).
    package var encryptionCode: AESEncryptionCode { engine.encryptionCode }

    /// Encrypts raw bytes (files, binary) with the module's scheme and a fresh random IV where the format has one.
    public func encrypt(_ plaintext: [UInt8]) throws(CryptoError) -> [UInt8] {
        try encryptBytes(plaintext, iv: nil)
    }

    /// Encrypts raw bytes with a fixed 16-byte IV where the format carries one (`legacy-random-iv`, `aescbc`).
    ///
    /// For `legacy` the IV is always the static one and `iv` must be it (or any 16 bytes equal to it).
    /// - Throws: ``CryptoError/Kind/invalidIV`` if `iv` is not 16 bytes, or differs from the static IV for `legacy`.
    public func encrypt(_ plaintext: [UInt8], iv: [UInt8]) throws(CryptoError) -> [UInt8] {
        try checkFixedIV(iv)
        return try encryptBytes(plaintext, iv: iv)
    }

    /// Decrypts raw bytes produced by any scheme this module can read (see the type's documentation).
    public func decrypt(_ data: [UInt8]) throws(CryptoError) -> [UInt8] {
        var failure: CryptoError?
        let plain = data.withUnsafeBufferPointer { input in
            [UInt8](unsafeUninitializedCapacity: input.count + 16) { out, count in
                do throws(CryptoError) { count = try engine.decrypt(input, into: out.baseAddress!, mode: headerlessMode) } catch {
                    failure = error
                    count = 0
                }
            }
        }
        if let failure { throw failure }
        return plain
    }

    /// Decrypts raw bytes given as standard base64 (``ByteEncoding/bytes(fromBase64:)``).
    /// - Throws: ``CryptoError/Kind/invalidBase64`` for text that is not base64, then the errors of ``decrypt(_:)``.
    public func decrypt(base64 text: String) throws(CryptoError) -> [UInt8] {
        try decrypt(try Self.bytes(fromBase64: text))
    }

    /// ``ByteEncoding/bytes(fromBase64:)`` with its error as ``CryptoError/Kind/invalidBase64``.
    public static func bytes(fromBase64 text: String) throws(CryptoError) -> [UInt8] {
        do throws(Base64Error) { return try ByteEncoding.bytes(fromBase64: text) } catch {
            throw CryptoError(.invalidBase64, error.message)
        }
    }

    /// Encrypts a message: the UTF-8 of `jsonText` (used as given, not re-serialised) → standard base64.
    public func encryptMessage(_ jsonText: String) throws(CryptoError) -> String {
        try Self.withUTF8(of: jsonText) { input throws(CryptoError) in try encodedMessage(input, iv: nil) }
    }

    /// ``encryptMessage(_:)`` with a fixed IV (see ``encrypt(_:iv:)``); for vectors.
    public func encryptMessage(_ jsonText: String, iv: [UInt8]) throws(CryptoError) -> String {
        try checkFixedIV(iv)
        return try Self.withUTF8(of: jsonText) { input throws(CryptoError) in
            var failure: CryptoError?
            let result = iv.withUnsafeBufferPointer { iv in
                do throws(CryptoError) { return try encodedMessage(input, iv: iv.baseAddress) } catch {
                    failure = error
                    return ""
                }
            }
            if let failure { throw failure }
            return result
        }
    }

    /// Decrypts a base64 message and returns the plaintext text exactly as it was encrypted.
    /// - Throws: ``CryptoError/Kind/invalidBase64``, the decrypt errors, ``CryptoError/Kind/invalidUTF8``.
    public func decryptMessage(_ base64: String) throws(CryptoError) -> String {
        try Self.withUTF8(of: base64) { input throws(CryptoError) in try decodedMessage(input) }
    }

    // MARK: - Internals

    /// Runs `body` on the UTF-8 bytes of `text`, in place when the string stores them contiguously (native
    /// strings do: no copy and no reference-count traffic), else on a contiguous copy.
    @inline(__always)
    static func withUTF8(
        of text: String,
        _ body: (UnsafeBufferPointer<UInt8>) throws(CryptoError) -> String
    ) throws(CryptoError) -> String {
        var failure: CryptoError?
        let run = { (input: UnsafeBufferPointer<UInt8>) -> String in
            do throws(CryptoError) { return try body(input) } catch {
                failure = error
                return ""
            }
        }
        let result: String
        if let direct = text.utf8.withContiguousStorageIfAvailable(run) {
            result = direct
        } else {
            var copy = text
            result = copy.withUTF8(run)
        }
        if let failure { throw failure }
        return result
    }

    /// The text of `bytes` if they are valid UTF-8, else nil.
    ///
    /// `String(decoding:)` is the fast specialised path; it repairs invalid input with U+FFFD, and a repaired
    /// string never has the same bytes as its input, so comparing the bytes detects invalid UTF-8.
    static func validatedText(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        var text = String(decoding: bytes, as: UTF8.self)
        let same = text.withUTF8 { decoded in
            decoded.count == bytes.count && (bytes.isEmpty || memcmp(decoded.baseAddress!, bytes.baseAddress!, bytes.count) == 0)
        }
        return same ? text : nil
    }

    var headerlessMode: LegacyFallback {
        switch scheme {
        case .legacy: .staticIV
        case .legacyRandomIV: .randomIV
        case .aesCBC: legacyFallback
        }
    }

    private func checkFixedIV(_ iv: [UInt8]) throws(CryptoError) {
        guard iv.count == 16 else { throw CryptoError(.invalidIV, "the IV is \(iv.count) bytes, not 16") }
        guard scheme != .legacy || iv == CipherEngine.staticIV else {
            throw CryptoError(.invalidIV, "the legacy scheme always uses the static IV \"0123456789012345\"")
        }
    }

    private func checkEmpty(_ count: Int) throws(CryptoError) {
        guard count == 0 else { return }
        guard encryptsEmptyPlaintext ?? (scheme != .aesCBC) else {
            throw CryptoError(.emptyData, "cannot encrypt empty data with the \(scheme.rawValue) scheme")
        }
    }

    private func encryptBytes(_ plaintext: [UInt8], iv: [UInt8]?) throws(CryptoError) -> [UInt8] {
        try checkEmpty(plaintext.count)
        var failure: CryptoError?
        let out = plaintext.withUnsafeBufferPointer { input in
            [UInt8](unsafeUninitializedCapacity: CipherEngine.encryptedCount(input.count, scheme: scheme)) { out, count in
                do throws(CryptoError) {
                    if let iv {
                        count = try iv.withUnsafeBufferPointer { iv throws(CryptoError) in
                            try engine.encrypt(input, scheme: scheme, iv: iv.baseAddress, into: out.baseAddress!)
                        }
                    } else {
                        count = try engine.encrypt(input, scheme: scheme, iv: nil, into: out.baseAddress!)
                    }
                } catch {
                    failure = error
                    count = 0
                }
            }
        }
        if let failure { throw failure }
        return out
    }

    private func encodedMessage(_ input: UnsafeBufferPointer<UInt8>, iv: UnsafePointer<UInt8>?) throws(CryptoError) -> String {
        if input.isEmpty { try checkEmpty(0) }
        let scheme = scheme
        let cipherCount = CipherEngine.encryptedCount(input.count, scheme: scheme)
        let textCount = Base64.encodedCount(cipherCount)
        let kernel = engine.base64Kernel
        let kernelCode = engine.kernelBase64Code
        return try engine.withEncryptor(for: scheme) { context throws(CryptoError) -> String in
            // The encrypted bytes go to the end of the context's scratch buffer and are base64-encoded forwards in
            // place (see `Base64.encode`: the writer never overtakes the reader); the AES-NI kernel encodes each
            // 48-byte group as soon as its blocks are written, and the last bytes after the chain. The text is then copied into the
            // string without a second look: base64 is ASCII by construction, so the UTF-8 check `String` would
            // otherwise run over every character is skipped (docs/performance.md, AES).
            let buffer = context.pointee.scratch(count: textCount)
            let cipher = buffer + (textCount - cipherCount)
            let (count, encoded) = try CipherEngine.encrypt(
                input, scheme: scheme, iv: iv, into: cipher, with: context, text: buffer, base64Code: kernelCode)
            // The kernel encodes all of it (with AVX-512 VBMI or AVX2 base64) or nothing.
            let written =
                encoded == count
                ? textCount : Base64.encode(UnsafeBufferPointer(start: cipher, count: count), into: buffer, kernel: kernel)
            let text = unsafe Span(_unsafeElements: UnsafeBufferPointer(start: buffer, count: written))
            return String(copying: unsafe UTF8Span(unchecked: text, isKnownASCII: true))
        }
    }

    private func decodedMessage(_ input: UnsafeBufferPointer<UInt8>) throws(CryptoError) -> String {
        let mode = headerlessMode
        // The bytes are decoded into a decryption context's scratch buffer (no allocation per message) and
        // decrypted there in place (identical input and output pointers are allowed by EVP).
        return try engine.withDecryptionScratch(count: Base64.maxDecodedCount(input.count) + 16, scheme: scheme) {
            scratch, held throws(CryptoError) -> String in
            let rawCount: Int
            do throws(Base64Error) { rawCount = try Base64.decode(input, into: scratch) } catch {
                throw CryptoError(.invalidBase64, error.message)
            }
            let data = UnsafeMutableBufferPointer(start: scratch, count: rawCount)
            let plain = try engine.decryptInPlace(data, mode: mode, holding: held)
            guard let text = Self.validatedText(UnsafeBufferPointer(plain)) else {
                throw CryptoError(.invalidUTF8, "the decrypted message is not valid UTF-8")
            }
            return text
        }
    }
}
