// SPDX-License-Identifier: MIT
import Foundation
import PubNubCrypto
import Testing

@Suite("Vector verifier", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct VerifierTests {
    static let yay = CryptoVector(
        id: "yay", scheme: .legacy, cipherKey: "enigma", kind: .message, plaintext: "yay!",
        ciphertext: "q/xJqqN6qbiZMXYmiQC1Fw=="
    )

    @Test func passingAndFailingVectors() {
        #expect(CryptoVectorVerifier.check(Self.yay).line == "PASS yay")
        var wrongCiphertext = Self.yay
        wrongCiphertext.ciphertext = "vcDulu6I+UXfh0WuNnVQwg=="
        #expect(CryptoVectorVerifier.check(wrongCiphertext).line.hasPrefix("FAIL yay: encryption gave q/xJqqN6qbiZMXYmiQC1Fw=="))
        var wrongPlaintext = Self.yay
        wrongPlaintext.plaintext = "nay!"
        #expect(!CryptoVectorVerifier.check(wrongPlaintext).passed)
        var wrongKind = Self.yay
        wrongKind.error = .wrongKeyOrPadding
        #expect(CryptoVectorVerifier.check(wrongKind).line == "FAIL yay: expected error wrongKeyOrPadding, but it succeeded")
        var negative = Self.yay
        negative.cipherKey = "not-enigma"
        negative.error = .wrongKeyOrPadding
        negative.plaintext = nil
        #expect(CryptoVectorVerifier.check(negative).passed)
        negative.error = .invalidBase64
        #expect(CryptoVectorVerifier.check(negative).line.hasPrefix("FAIL yay: expected error invalidBase64, got wrongKeyOrPadding"))
    }

    @Test func unreadableFileIsOneFailure() throws {
        let missing = CryptoVectorVerifier.verify(fileAt: "/nonexistent/vectors.json")
        #expect(missing.count == 1 && missing[0].id == "/nonexistent/vectors.json" && !missing[0].passed)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("crypto-verifier-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(#"{"description":"x","schemeVersion":2,"vectors":[]}"#.utf8).write(to: url)
        #expect(CryptoVectorVerifier.verify(fileAt: url.path).map(\.line) == ["FAIL \(url.path): unsupported schemeVersion 2"])
    }

    @Test func fileRoundTripsThroughJSON() throws {
        let file = CryptoVectorFile(description: "d", vectors: [Self.yay])
        let decoded = try JSONDecoder().decode(CryptoVectorFile.self, from: try JSONEncoder().encode(file))
        #expect(decoded == file)
    }
}
