// SPDX-License-Identifier: MIT
import ArgumentParser
import PubNubCrypto

extension CryptoCommand {
    /// `crypto encrypt`: message text → base64.
    struct Encrypt: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Encrypt a message and print its base64.",
            discussion: """
                TEXT is the message's JSON text. If it is not a valid JSON text it is treated as a string message \
                and JSON-encoded first (hello → "hello"); --raw encrypts TEXT exactly as given, --hex encrypts \
                the bytes TEXT spells in hex. With TEXT "-" the text is read from standard input (one trailing \
                newline removed).
                """
        )

        @OptionGroup var keyOptions: CryptoKeyOptions

        @Option(help: "Fixed IV, 32 hex digits (legacy-random-iv and aescbc only; default: random).")
        var iv: String?

        @Flag(help: "Encrypt TEXT exactly as given, without the JSON rule.")
        var raw = false

        @Flag(help: "TEXT is hex: encrypt those bytes (binary data, no JSON rule).")
        var hex = false

        @Argument(help: "The message text, or - for standard input.")
        var text: String

        func validate() throws {
            guard !(raw && hex) else { throw CryptoConsole.usage("--raw and --hex cannot be combined") }
            if let iv {
                guard keyOptions.scheme != .legacy else {
                    throw CryptoConsole.usage("--iv is not accepted with --scheme legacy (its IV is always static)")
                }
                guard let bytes = ByteEncoding.bytes(fromHex: iv), bytes.count == 16 else {
                    throw CryptoConsole.usage("--iv must be 32 hex digits (16 bytes)")
                }
            }
        }

        func run() throws {
            var input = CryptoConsole.argumentOrStandardInput(text)
            if text == "-" {
                if input.hasSuffix("\r\n") { input.removeLast(1) } else if input.hasSuffix("\n") { input.removeLast() }
            }
            let ivBytes = iv.flatMap(ByteEncoding.bytes(fromHex:))
            let module = try keyOptions.makeModule()
            var bytes: [UInt8] = []
            if hex {
                guard let decoded = ByteEncoding.bytes(fromHex: input.filter { !$0.isWhitespace }) else {
                    throw CryptoConsole.usage("--hex TEXT must be an even number of hex digits")
                }
                bytes = decoded
            }
            let message = raw ? input : MessageText.jsonText(for: input)
            do throws(CryptoError) {
                switch (hex, ivBytes) {
                case (true, let iv?): print(ByteEncoding.base64(try module.encrypt(bytes, iv: iv)))
                case (true, nil): print(ByteEncoding.base64(try module.encrypt(bytes)))
                case (false, let iv?): print(try module.encryptMessage(message, iv: iv))
                case (false, nil): print(try module.encryptMessage(message))
                }
            } catch {
                throw CryptoConsole.fail(error)
            }
        }
    }
}
