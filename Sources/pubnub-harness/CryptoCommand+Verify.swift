// SPDX-License-Identifier: MIT
import ArgumentParser
import PubNubCrypto

extension CryptoCommand {
    /// `crypto verify`: checks vector files.
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check crypto vector files: one PASS/FAIL line per vector and a summary; exit 1 if any fail."
        )

        @Argument(help: "Vector files (see docs/crypto.md for the format).")
        var files: [String]

        func validate() throws {
            guard !files.isEmpty else { throw CryptoConsole.usage("give at least one vector file") }
        }

        func run() throws {
            var passed = 0
            var failed = 0
            for file in files {
                for outcome in CryptoVectorVerifier.verify(fileAt: file) {
                    print(outcome.line)
                    if outcome.passed { passed += 1 } else { failed += 1 }
                }
            }
            print("\(passed + failed) vectors in \(files.count) file(s): \(passed) passed, \(failed) failed")
            if failed > 0 { throw ExitCode(1) }
        }
    }
}
