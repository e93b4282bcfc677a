// SPDX-License-Identifier: MIT
import Foundation
import PubNubCrypto
import Testing

/// The vectors built into the binary are exactly `Fixtures/crypto` (re-run
/// `scripts/embed-crypto-vectors.sh` after changing a fixture).
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct EmbeddedVectorTests {
    @Test func generatedSourceMatchesTheFixtures() throws {
        let paths = FixtureLocator.vectorFilePaths()
        #expect(!paths.isEmpty)
        let onDisk = try paths.map { path in
            ((path as NSString).lastPathComponent, String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self))
        }
        #expect(EmbeddedCryptoVectors.files.map(\.name) == onDisk.map(\.0))
        for (embedded, file) in zip(EmbeddedCryptoVectors.files, onDisk) {
            expectSameText(embedded.text, file.1, "\(file.0) differs: run scripts/embed-crypto-vectors.sh")
        }
        #expect(EmbeddedCryptoVectors.origin == "built-in (Fixtures/crypto, \(onDisk.count) files)")
    }

    @Test func embeddedFilesDecodeAndVerify() throws {
        for file in EmbeddedCryptoVectors.files {
            let decoded = try JSONDecoder().decode(CryptoVectorFile.self, from: Data(file.text.utf8))
            #expect(!decoded.vectors.isEmpty, "\(file.name)")
        }
    }
}
