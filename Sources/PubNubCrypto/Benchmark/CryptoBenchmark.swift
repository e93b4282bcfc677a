// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Measures message encryption and decryption end to end (JSON text → base64 string and back) on one thread.
public enum CryptoBenchmark {
    /// Throughput of one direction.
    public struct Figure: Sendable, Hashable {
        /// Messages processed.
        public var operations: Int
        /// CPU time of the measuring thread spent on them (like `openssl speed`, which divides by CPU time, so
        /// other processes on the machine do not skew the figure).
        public var cpuTime: Duration
        /// Wall-clock time spent on them.
        public var wallTime: Duration
        /// Plaintext bytes per message.
        public var messageSize: Int

        /// Messages per second.
        public var operationsPerSecond: Double { Double(operations) / seconds }
        /// Plaintext bytes per second (10^6 = 1 MB, like `openssl speed`'s 1000s of bytes).
        public var bytesPerSecond: Double { operationsPerSecond * Double(messageSize) }
        /// Messages per second of wall-clock time.
        public var wallOperationsPerSecond: Double { Double(operations) / Self.seconds(wallTime) }
        private var seconds: Double { Self.seconds(cpuTime) }
        private static func seconds(_ duration: Duration) -> Double {
            Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
        }
    }

    /// Encryption and decryption figures for one scheme.
    public struct Result: Sendable, Hashable {
        /// The scheme measured.
        public var scheme: CryptoScheme
        /// `encryptMessage` throughput.
        public var encrypt: Figure
        /// `decryptMessage` throughput.
        public var decrypt: Figure
    }

    /// The base64 code in use: `scalar`, `ssse3`, `avx2` or `avx512vbmi` (the best this CPU has, unless the
    /// environment variable `PUBNUB_HARNESS_BASE64_KERNEL` names a slower one).
    public static var base64Kernel: String { Base64.Kernel.active.description }

    /// The AES encryption code in use: `aesni` (the package's kernel) or `libcrypto` (on CPUs without AES-NI, or
    /// when the environment variable `PUBNUB_HARNESS_AES_CODE` is `libcrypto`).
    public static var aesCode: String { AESEncryptionCode.active.description }

    /// A JSON string message of exactly `size` bytes (`size` >= 2), like the vectors' messages.
    public static func message(size: Int) -> String {
        let alphabet = Array("The quick brown fox jumps over the lazy dog 0123456789.".utf8)
        let body = (0..<max(size - 2, 0)).map { alphabet[$0 % alphabet.count] }
        return "\"" + String(decoding: body, as: UTF8.self) + "\""
    }

    /// Runs each direction for about `duration` of thread CPU time (in batches of 256 messages) with the key `"benchmark-key"`.
    /// - Throws: ``CryptoError`` if a message fails to round-trip (it never should).
    public static func run(scheme: CryptoScheme, messageSize: Int = 1024, duration: Duration) throws(CryptoError) -> Result {
        let module = try CryptoModule(cipherKey: "benchmark-key", scheme: scheme)
        let text = message(size: messageSize)
        let sample = try module.encryptMessage(text)
        guard try module.decryptMessage(sample) == text else {
            throw CryptoError(.wrongKeyOrPadding, "benchmark message did not round-trip")
        }
        let encrypt = try measure(duration: duration, messageSize: messageSize) { () throws(CryptoError) -> Int in
            try module.encryptMessage(text).utf8.count
        }
        let decrypt = try measure(duration: duration, messageSize: messageSize) { () throws(CryptoError) -> Int in
            try module.decryptMessage(sample).utf8.count
        }
        return Result(scheme: scheme, encrypt: encrypt, decrypt: decrypt)
    }

    private static func measure(
        duration: Duration, messageSize: Int, _ operation: () throws(CryptoError) -> Int
    ) throws(CryptoError) -> Figure {
        let clock = ContinuousClock()
        let start = clock.now
        let cpuStart = threadCPUTime()
        var operations = 0
        var checksum = 0
        repeat {
            for _ in 0..<256 { checksum &+= try operation() }
            operations += 256
        } while threadCPUTime() - cpuStart < duration
        let cpuTime = threadCPUTime() - cpuStart
        let wallTime = clock.now - start
        // The checksum keeps the work observable; every output has the same length.
        precondition(checksum != 0, "benchmark produced no output")
        return Figure(operations: operations, cpuTime: cpuTime, wallTime: wallTime, messageSize: messageSize)
    }

    /// CPU time consumed by the calling thread.
    static func threadCPUTime() -> Duration {
        var spec = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
        return .seconds(spec.tv_sec) + .nanoseconds(spec.tv_nsec)
    }
}
