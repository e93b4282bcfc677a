// SPDX-License-Identifier: MIT
import ArgumentParser
import Foundation
import PubNubCrypto

extension CryptoCommand {
    /// `crypto bench`: message throughput, end to end.
    struct Bench: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Measure encrypt/decrypt throughput of messages (JSON text -> base64 and back), one thread.",
            discussion: """
                Throughput is divided by the thread's CPU time, as `openssl speed` divides by CPU time, so a busy \
                machine does not skew the comparison; the wall-clock rate is printed too.
                """
        )

        @Option(help: "CPU seconds per scheme and direction.")
        var seconds: Double = 2

        @Option(help: "Message size in bytes (a JSON string of this many bytes).")
        var size = 1024

        @Option(help: "Schemes to measure (repeatable; default: all).")
        var scheme: [CryptoScheme] = []

        func validate() throws {
            guard seconds > 0, seconds <= 600 else { throw CryptoConsole.usage("--seconds must be in (0, 600]") }
            guard size >= 2, size <= 16 << 20 else { throw CryptoConsole.usage("--size must be in [2, 16777216]") }
        }

        func run() throws {
            let schemes = scheme.isEmpty ? CryptoScheme.allCases : scheme
            print("base64 code: \(CryptoBenchmark.base64Kernel)")
            print("aes code: \(CryptoBenchmark.aesCode)")
            for scheme in schemes {
                let result: CryptoBenchmark.Result
                do throws(CryptoError) {
                    result = try CryptoBenchmark.run(scheme: scheme, messageSize: size, duration: .seconds(seconds))
                } catch {
                    throw CryptoConsole.fail(error)
                }
                for (direction, figure) in [("encrypt", result.encrypt), ("decrypt", result.decrypt)] {
                    let line = String(
                        format: "%@ %@ %d-byte messages: %.0f msg/s, %.2f MB/s (CPU time); %.0f msg/s wall-clock",
                        direction, scheme.rawValue, size, figure.operationsPerSecond, figure.bytesPerSecond / 1e6,
                        figure.wallOperationsPerSecond
                    )
                    print(line)
                }
            }
        }
    }
}
