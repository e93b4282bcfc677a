// SPDX-License-Identifier: MIT
import Foundation
@testable import HarnessPrimitives
import Testing

/// Every base64 kernel this CPU can run (the scalar one always) against each other and against Foundation.
@Suite("Base64 kernels", .timeLimit(.minutes(5)))
struct Base64KernelTests {
    static let kernels = Base64.Kernel.allCases.filter(\.isAvailable)

    /// Encodes with one kernel into an exactly sized buffer.
    static func encode(_ bytes: [UInt8], _ kernel: Base64.Kernel, _ alphabet: Base64.Alphabet = .standard) -> String {
        bytes.withUnsafeBufferPointer { input in
            String(unsafeUninitializedCapacity: Base64.encodedCount(input.count)) { out in
                Base64.encode(input, into: out.baseAddress!, alphabet: alphabet, kernel: kernel)
            }
        }
    }

    /// Encodes with the input placed at the end of the output buffer, as `CryptoModule` does.
    static func encodeInPlace(_ bytes: [UInt8], _ kernel: Base64.Kernel) -> String {
        let total = Base64.encodedCount(bytes.count)
        return String(unsafeUninitializedCapacity: total) { out in
            let start = out.baseAddress! + (total - bytes.count)
            bytes.withUnsafeBufferPointer { start.update(from: $0.baseAddress!, count: bytes.count) }
            return Base64.encode(UnsafeBufferPointer(start: start, count: bytes.count), into: out.baseAddress!, kernel: kernel)
        }
    }

    /// Decodes with one kernel into a buffer of exactly `maxDecodedCount` bytes.
    static func decode(_ text: String, _ kernel: Base64.Kernel) throws(Base64Error) -> [UInt8] {
        try decode(Array(text.utf8), kernel)
    }

    /// Decodes raw characters (any bytes, not only UTF-8) with one kernel.
    static func decode(_ input: [UInt8], _ kernel: Base64.Kernel) throws(Base64Error) -> [UInt8] {
        var failure: Base64Error?
        let out = input.withUnsafeBufferPointer { source in
            [UInt8](unsafeUninitializedCapacity: Base64.maxDecodedCount(source.count)) { buffer, count in
                do throws(Base64Error) { count = try Base64.decode(source, into: buffer.baseAddress!, kernel: kernel) } catch {
                    failure = error
                    count = 0
                }
            }
        }
        if let failure { throw failure }
        return out
    }

    static func randomBytes(_ count: Int, _ generator: inout SplitMix64) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    /// Foundation's base64 turned into unpadded base64url.
    static func foundationURL(_ bytes: [UInt8]) -> String {
        var text = Data(bytes).base64EncodedString()
        while text.hasSuffix("=") { text.removeLast() }
        return text.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
    }

    @Test func scalarKernelIsAlwaysAvailableAndTheActiveOneIsAvailable() {
        #expect(Base64.Kernel.scalar.isAvailable)
        #expect(Base64.Kernel.active.isAvailable)
        #if arch(x86_64)
        // Every x86-64 CPU this package is built for in practice has SSSE3; the vector code must be in use.
        #expect(Base64.Kernel.ssse3.isAvailable)
        #endif
    }

    @Test func everyLengthUpTo200MatchesFoundationWithEveryKernel() throws {
        var generator = SplitMix64(seed: 0xB64_0001)
        for length in 0...200 {
            let bytes = Self.randomBytes(length, &generator)
            let expected = Data(bytes).base64EncodedString()
            let expectedURL = Self.foundationURL(bytes)
            for kernel in Self.kernels {
                #expect(Self.encode(bytes, kernel) == expected, "length \(length), \(kernel)")
                #expect(Self.encodeInPlace(bytes, kernel) == expected, "in place, length \(length), \(kernel)")
                #expect(try Self.decode(expected, kernel) == bytes, "decode length \(length), \(kernel)")
                let unpadded = String(expected.prefix { $0 != "=" })
                #expect(try Self.decode(unpadded, kernel) == bytes, "decode unpadded length \(length), \(kernel)")
            }
            #expect(ByteEncoding.base64URL(bytes) == expectedURL, "base64url length \(length)")
        }
    }

    @Test func urlAlphabetMatchesFoundationWithEveryKernel() {
        var generator = SplitMix64(seed: 0xB64_0002)
        for length in 0...200 {
            let bytes = Self.randomBytes(length, &generator)
            let expected = Self.foundationURL(bytes) + String(repeating: "=", count: (3 - length % 3) % 3)
            for kernel in Self.kernels {
                #expect(Self.encode(bytes, kernel, .url) == expected, "length \(length), \(kernel)")
            }
        }
    }

    @Test func randomLargeBuffersAgreeAcrossKernels() throws {
        var generator = SplitMix64(seed: 0xB64_0003)
        for _ in 0..<40 {
            let bytes = Self.randomBytes(Int.random(in: 200...5000, using: &generator), &generator)
            let expected = Data(bytes).base64EncodedString()
            for kernel in Self.kernels {
                #expect(Self.encode(bytes, kernel) == expected, "length \(bytes.count), \(kernel)")
                #expect(Self.encodeInPlace(bytes, kernel) == expected, "in place, length \(bytes.count), \(kernel)")
                #expect(try Self.decode(expected, kernel) == bytes, "decode length \(bytes.count), \(kernel)")
            }
        }
    }

    /// Every byte value that is not in the standard alphabet, and `=`, at every position of a text long enough for
    /// the widest kernel's groups: each kernel raises exactly the scalar decoder's error.
    @Test func invalidCharactersGiveTheScalarErrorAtEveryPosition() {
        var generator = SplitMix64(seed: 0xB64_0004)
        let valid = Array(Data(Self.randomBytes(96, &generator)).base64EncodedString().utf8)  // 128 characters
        let alphabet = Set(Base64.alphabet)
        let invalidBytes = (0...255).map(UInt8.init).filter { !alphabet.contains($0) }
        for position in valid.indices {
            // All invalid bytes over the positions, in rotation, and `=` everywhere but at the end (where it is padding).
            var corrupt = valid
            corrupt[position] = invalidBytes[position % invalidBytes.count]
            var misplaced = valid
            misplaced[position] = UInt8(ascii: "=")
            for characters in position == valid.count - 1 ? [corrupt] : [corrupt, misplaced] {
                let scalarError = Self.decodeError(characters, .scalar)
                #expect(scalarError != nil, "position \(position)")
                for kernel in Self.kernels {
                    #expect(Self.decodeError(characters, kernel) == scalarError, "position \(position), \(kernel)")
                }
            }
        }
        // The remaining invalid bytes in the first 32 positions (the vector groups).
        for byte in invalidBytes {
            for position in [0, 5, 15, 16, 31] {
                var characters = valid
                characters[position] = byte
                let scalarError = Self.decodeError(characters, .scalar)
                #expect(scalarError != nil, "byte \(byte) at \(position)")
                for kernel in Self.kernels {
                    #expect(Self.decodeError(characters, kernel) == scalarError, "byte \(byte) at \(position), \(kernel)")
                }
            }
        }
    }

    @Test func impossibleLengthsGiveTheSameErrorWithEveryKernel() {
        for text in ["Z", String(repeating: "QUJD", count: 10) + "Q", String(repeating: "A", count: 65)] {
            let scalarError = Self.decodeError(text, .scalar)
            #expect(scalarError?.message.contains("impossible length") == true)
            for kernel in Self.kernels {
                #expect(Self.decodeError(text, kernel) == scalarError, "\(kernel)")
            }
        }
    }

    /// The error decoding `text` with `kernel` raises, or nil.
    static func decodeError(_ text: String, _ kernel: Base64.Kernel) -> Base64Error? {
        decodeError(Array(text.utf8), kernel)
    }

    /// The error decoding raw `characters` with `kernel` raises, or nil.
    static func decodeError(_ characters: [UInt8], _ kernel: Base64.Kernel) -> Base64Error? {
        do throws(Base64Error) {
            _ = try decode(characters, kernel)
            return nil
        } catch {
            return error
        }
    }
}
