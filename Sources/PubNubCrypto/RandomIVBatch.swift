// SPDX-License-Identifier: MIT
internal import COpenSSL
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Random IVs drawn from libcrypto's CSPRNG (`RAND_bytes`) in 4 KiB batches, one batch per encryption context.
///
/// `RAND_bytes` costs about a microsecond per call whatever the size, as much as encrypting 1 KiB, so IVs are
/// taken from a batch; every byte is used once. The batch belongs to one context, which one caller owns at a
/// time, so taking an IV needs no lock. A fork (detected by a `pthread_atfork` child handler) discards the batch
/// so parent and child never share IVs.
struct RandomIVBatch {
    static let size = 4096

    private var bytes: UnsafeMutablePointer<UInt8>?
    private var offset = RandomIVBatch.size
    private var forkGeneration = -1

    init() {
        ForkGeneration.registerOnce()
    }

    /// Writes 16 random bytes to `target`.
    /// - Throws: ``CryptoError/Kind/encryptionFailed`` when libcrypto cannot produce random bytes.
    mutating func fill(_ target: UnsafeMutablePointer<UInt8>) throws(CryptoError) {
        let generation = ForkGeneration.current
        if offset + 16 > Self.size || forkGeneration != generation || bytes == nil {
            try refill(generation: generation)
        }
        target.update(from: bytes! + offset, count: 16)
        offset += 16
    }

    /// Wipes and frees the batch.
    func release() {
        guard let bytes else { return }
        OPENSSL_cleanse(bytes, Self.size)
        bytes.deallocate()
    }

    private mutating func refill(generation: Int) throws(CryptoError) {
        let buffer = bytes ?? UnsafeMutablePointer<UInt8>.allocate(capacity: Self.size)
        bytes = buffer
        // Marked used up first: a failed refill leaves nothing to hand out.
        offset = Self.size
        guard RAND_bytes(buffer, Int32(Self.size)) == 1 else {
            ERR_clear_error()
            throw CryptoError(.encryptionFailed, "libcrypto could not generate a random IV")
        }
        offset = 0
        forkGeneration = generation
    }
}

/// Counts forks of this process (incremented in the child by a `pthread_atfork` handler).
private enum ForkGeneration {
    static let counter = Atomic<Int>(0)
    private static let registration: Bool = {
        pthread_atfork(nil, nil, { ForkGeneration.counter.add(1, ordering: .relaxed) }) == 0
    }()

    static var current: Int { counter.load(ordering: .relaxed) }

    static func registerOnce() { _ = registration }
}
