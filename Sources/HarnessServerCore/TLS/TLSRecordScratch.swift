// SPDX-License-Identifier: MIT
internal import COpenSSL
import Glibc

/// What every detached TLS stream on one thread shares: one AEAD context, re-keyed per record,
/// and one buffer a record is sealed into before it is sent (so a connection holds neither).
///
/// One instance per thread (a pthread key; released when the thread ends). Not Sendable: only its
/// thread ever sees it.
final class TLSRecordScratch {
    /// The largest TLSInnerPlaintext content of one record (2^14).
    static let maxPlaintext = 16_384
    /// The largest sealed record: header, content, inner type, tag.
    static let maxSealedRecord = TLSRecordFormat.headerLength + maxPlaintext + 1 + TLS13CipherSuite.tagLength

    /// A buffer of ``maxSealedRecord`` bytes.
    let output = UnsafeMutableRawBufferPointer.allocate(byteCount: maxSealedRecord, alignment: 16)
    private let context: OpaquePointer
    /// The cipher the context was last initialised with (re-keying without a cipher keeps it).
    private var currentCipher: OpaquePointer?

    private init?() {
        guard let context = EVP_CIPHER_CTX_new() else {
            output.deallocate()
            return nil
        }
        self.context = context
    }

    deinit {
        EVP_CIPHER_CTX_free(context)
        output.deallocate()
    }

    /// This thread's scratch (made on first use), or nil if libcrypto cannot allocate a context.
    static var current: TLSRecordScratch? {
        if let pointer = pthread_getspecific(threadKey) {
            return Unmanaged<TLSRecordScratch>.fromOpaque(pointer).takeUnretainedValue()
        }
        guard let scratch = TLSRecordScratch() else { return nil }
        pthread_setspecific(threadKey, Unmanaged.passRetained(scratch).toOpaque())
        return scratch
    }

    private static let threadKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<TLSRecordScratch>.fromOpaque(pointer).release()
        }
        return key
    }()

    /// Keys the context for one record: the cipher (only when it changes), the key and the nonce.
    private func rekey(_ keys: TrafficKeys, encrypt: Bool) -> Bool {
        let cipher = keys.suite.cipher
        let changing = cipher != currentCipher
        return withUnsafeTemporaryAllocation(byteCount: TLS13CipherSuite.ivLength, alignment: 1) { nonce in
            keys.nonce(into: nonce)
            let ok = EVP_CipherInit_ex(
                context, changing ? cipher : nil, nil, keys.key.baseAddress?.assumingMemoryBound(to: UInt8.self),
                nonce.baseAddress?.assumingMemoryBound(to: UInt8.self), encrypt ? 1 : 0) == 1
            currentCipher = ok ? cipher : nil
            return ok
        }
    }

    /// Seals one record into ``output``: header, `contentLength` bytes of content (which
    /// `content` hands over through its `append` argument, in order), the inner content type, the
    /// tag. Returns the record's length, or nil when libcrypto fails. Does not advance the
    /// sequence number.
    func seal(
        contentLength: Int, type: TLSContentType, keys: TrafficKeys,
        content: (_ append: (UnsafeRawBufferPointer) -> Bool) -> Bool
    ) -> Int? {
        precondition(contentLength <= Self.maxPlaintext, "record content over 2^14 bytes")
        let sealedLength = contentLength + 1 + TLS13CipherSuite.tagLength
        let out = output.baseAddress!.assumingMemoryBound(to: UInt8.self)
        TLSRecordFormat.writeHeader(into: output, length: sealedLength)
        guard rekey(keys, encrypt: true) else { return nil }
        var produced: Int32 = 0
        guard EVP_CipherUpdate(context, nil, &produced, out, Int32(TLSRecordFormat.headerLength)) == 1 else { return nil }
        var offset = TLSRecordFormat.headerLength
        let appended = content { piece in
            guard piece.count > 0 else { return true }
            guard offset + piece.count <= TLSRecordFormat.headerLength + contentLength,
                  EVP_CipherUpdate(
                    context, out + offset, &produced, piece.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(piece.count)) == 1
            else { return false }
            offset += Int(produced)
            return true
        }
        guard appended else { return nil }
        var innerType = type.rawValue
        guard EVP_CipherUpdate(context, out + offset, &produced, &innerType, 1) == 1 else { return nil }
        offset += Int(produced)
        guard EVP_CipherFinal_ex(context, out + offset, &produced) == 1 else { return nil }
        offset += Int(produced)
        guard offset == TLSRecordFormat.headerLength + contentLength + 1,
              EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_GET_TAG, Int32(TLS13CipherSuite.tagLength), out + offset) == 1
        else { return nil }
        return offset + TLS13CipherSuite.tagLength
    }

    /// Opens one record in place: `record` is the header and the sealed body; on success the
    /// inner plaintext (content, type, padding) is at `record[5...]`, one tag shorter, and its
    /// length is returned. Nil when authentication (or libcrypto) fails.
    func open(_ record: UnsafeMutableRawBufferPointer, keys: TrafficKeys) -> Int? {
        let bodyLength = record.count - TLSRecordFormat.headerLength
        guard bodyLength >= TLS13CipherSuite.tagLength + 1 else { return nil }
        let cipherLength = bodyLength - TLS13CipherSuite.tagLength
        let base = record.baseAddress!.assumingMemoryBound(to: UInt8.self)
        let body = base + TLSRecordFormat.headerLength
        guard rekey(keys, encrypt: false) else { return nil }
        var produced: Int32 = 0
        guard EVP_CipherUpdate(context, nil, &produced, base, Int32(TLSRecordFormat.headerLength)) == 1,
              EVP_CipherUpdate(context, body, &produced, body, Int32(cipherLength)) == 1
        else { return nil }
        var total = Int(produced)
        guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_AEAD_SET_TAG, Int32(TLS13CipherSuite.tagLength), body + cipherLength) == 1,
              EVP_CipherFinal_ex(context, body + total, &produced) == 1
        else { return nil }
        total += Int(produced)
        return total
    }
}
