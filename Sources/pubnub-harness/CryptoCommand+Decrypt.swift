// SPDX-License-Identifier: MIT
import ArgumentParser
import PubNubCrypto

extension CryptoCommand {
    /// `crypto decrypt`: base64 → the text exactly as it was encrypted.
    struct Decrypt: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Decrypt a base64 message and print its text exactly as it was encrypted.",
            discussion: """
                Data with a PNED header is decrypted by its cryptor whatever --scheme says; headerless data uses \
                the scheme's legacy format (for aescbc: --legacy-fallback). Exits 1 with a one-line reason when \
                the data cannot be decrypted. BASE64 "-" reads standard input (surrounding whitespace ignored).
                """
        )

        @OptionGroup var keyOptions: CryptoKeyOptions

        @Flag(help: "Print the decrypted bytes as hex (binary data; no UTF-8 check).")
        var hex = false

        @Flag(name: .customLong("no-newline"), help: "Do not print a newline after the text.")
        var noNewline = false

        @Argument(help: "The encrypted message in standard base64, or - for standard input.")
        var base64: String

        func run() throws {
            var input = CryptoConsole.argumentOrStandardInput(base64)
            if base64 == "-" { input = input.trimmingCharacters(in: .whitespacesAndNewlines) }
            let module = try keyOptions.makeModule()
            let output: String
            do throws(CryptoError) {
                if hex {
                    output = ByteEncoding.hex(try module.decrypt(base64: input))
                } else {
                    output = try module.decryptMessage(input)
                }
            } catch {
                throw CryptoConsole.fail(error, hint: fallbackHint(input: input, error: error))
            }
            print(output, terminator: noNewline ? "" : "\n")
        }

        /// Headerless data read by aescbc as random-IV legacy data may really be static-IV data: say so.
        private func fallbackHint(input: String, error: CryptoError) -> String? {
            guard keyOptions.scheme == .aesCBC, keyOptions.legacyFallback == .randomIV,
                error.kind == .invalidBlockSize || error.kind == .wrongKeyOrPadding || error.kind == .invalidIV,
                !input.hasPrefix("UE5FR")  // base64 of "PNED"
            else { return nil }
            return "headerless data was read as random-IV legacy data; for static-IV data use --legacy-fallback static-iv"
        }
    }
}
