// SPDX-License-Identifier: MIT
import ArgumentParser
import Foundation
import PubNubCrypto

/// `pubnub-harness crypto`: encrypt, decrypt, check vector files, benchmark.
struct CryptoCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crypto",
        abstract: "PubNub message encryption: legacy, legacy-random-iv and aescbc (CryptoModule ACRH).",
        subcommands: [Encrypt.self, Decrypt.self, Verify.self, Bench.self]
    )
}

extension CryptoScheme: ExpressibleByArgument {}
extension LegacyFallback: ExpressibleByArgument {}

/// The key and scheme shared by `encrypt` and `decrypt`.
struct CryptoKeyOptions: ParsableArguments {
    @Option(help: "The cipher key (its UTF-8 bytes are hashed with SHA-256).")
    var cipherKey: String

    @Option(help: "The scheme: \(CryptoScheme.allCases.map(\.rawValue).joined(separator: ", ")).")
    var scheme: CryptoScheme

    @Option(help: "How aescbc reads data without a PNED header: random-iv (default), static-iv or none.")
    var legacyFallback: LegacyFallback = .randomIV

    func validate() throws {
        guard !cipherKey.isEmpty else { throw CryptoConsole.usage("--cipher-key must not be empty") }
    }

    func makeModule() throws -> CryptoModule {
        var module = try CryptoModule(cipherKey: cipherKey, scheme: scheme)
        module.legacyFallback = legacyFallback
        return module
    }
}

/// Console helpers for the crypto commands.
enum CryptoConsole {
    /// The argument itself, or all of standard input when it is `-`.
    static func argumentOrStandardInput(_ argument: String) -> String {
        guard argument == "-" else { return argument }
        let data = FileHandle.standardInput.readDataToEndOfFile()
        return String(decoding: data, as: UTF8.self)
    }

    /// Prints `error: <kind>: <detail>` (and a hint) on one line to standard error and exits with status 1.
    static func fail(_ error: CryptoError, hint: String? = nil) -> ExitCode {
        printError("error: \(error)" + (hint.map { " (\($0))" } ?? ""))
        return ExitCode(1)
    }

    /// A usage error: prints `error: <message>` (one line) to standard error and exits with status 2.
    static func usage(_ message: String) -> ExitCode {
        printError("error: \(message)")
        return ExitCode(2)
    }

    static func printError(_ line: String) {
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
