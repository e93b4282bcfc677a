// SPDX-License-Identifier: MIT
import Foundation
import PubNubCrypto
import Testing
@testable import ConformanceKit

/// The encryption vector cases from the vectors built into the binary are the cases
/// `Fixtures/crypto` gives, so a binary copied anywhere runs the whole catalog.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct EmbeddedVectorCaseTests {
    @Test func builtInVectorsGiveTheFixtureCases() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/crypto")
        let fromDirectory = CryptoVectorCases.cases(directory: fixtures)
        let builtIn = CryptoVectorCases.cases(files: EmbeddedCryptoVectors.files)
        #expect(builtIn.count == 24)
        #expect(builtIn.map(\.id) == fromDirectory.map(\.id))
        #expect(builtIn.map(\.steps) == fromDirectory.map(\.steps))
        #expect(builtIn.allSatisfy { !$0.title.contains("unusable") })
    }
}
