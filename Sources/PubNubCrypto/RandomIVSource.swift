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

/// Random IVs drawn from libcrypto's CSPRNG in 4 KiB batches.
///
/// `RAND_bytes` costs about a microsecond per call whatever the size, as much as encrypting 1 KiB, so IVs are
/// taken from a batch; every byte is used once. A fork (detected by a `pthread_atfork` child handler) discards
/// the batch so parent and child never share IVs.
final class RandomIVSource: Sendable {
    static let shared = RandomIVSource()
    private static let batchSize = 4096

    private struct Batch {
        var bytes = [UInt8](repeating: 0, count: RandomIVSource.batchSize)
        var offset = RandomIVSource.batchSize
        var forkGeneration = -1
    }

    private let batch = Mutex(Batch())

    private init() {
        ForkGeneration.registerOnce()
    }

    /// Writes 16 random bytes to `target`.
    /// - Throws: ``CryptoError/Kind/encryptionFailed`` when libcrypto cannot produce random bytes.
    func fill(_ target: UnsafeMutablePointer<UInt8>) throws(CryptoError) {
        let generation = ForkGeneration.current
        let ok = batch.withLock { batch -> Bool in
            if batch.offset + 16 > batch.bytes.count || batch.forkGeneration != generation {
                let status = batch.bytes.withUnsafeMutableBufferPointer { RAND_bytes($0.baseAddress, Int32($0.count)) }
                guard status == 1 else {
                    ERR_clear_error()
                    return false
                }
                batch.offset = 0
                batch.forkGeneration = generation
            }
            batch.bytes.withUnsafeBufferPointer { target.update(from: $0.baseAddress! + batch.offset, count: 16) }
            batch.offset += 16
            return true
        }
        guard ok else { throw CryptoError(.encryptionFailed, "libcrypto could not generate a random IV") }
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
