// SPDX-License-Identifier: MIT
import ConformanceKit
import Foundation
import PubNubCrypto

/// The catalog a command works on: the built-in suites plus the encryption vector cases, from the
/// vectors built into the binary or from `--vectors DIR`, and where those vectors came from.
struct CatalogSource {
    var cases: [ConformanceCase]
    /// For the run header: `built-in (...)` or the directory read.
    var vectorSource: String

    /// - Parameter vectors: a directory of vector files, or nil for the built-in vectors. A
    ///   directory that is missing, unreadable or has no `*.json` file is a usage error.
    static func load(vectors: String?) throws(UsageError) -> CatalogSource {
        let suites = ConformanceCatalog.all(cryptoVectors: nil)
        guard let vectors else {
            return CatalogSource(cases: suites + CryptoVectorCases.cases(files: EmbeddedCryptoVectors.files),
                                 vectorSource: EmbeddedCryptoVectors.origin)
        }
        guard let directory = opendir(vectors) else {
            throw UsageError("cannot read vectors \(vectors): \(String(cString: strerror(errno)))")
        }
        closedir(directory)
        let url = URL(fileURLWithPath: vectors)
        let count = ((try? FileManager.default.contentsOfDirectory(atPath: vectors)) ?? []).count { $0.hasSuffix(".json") }
        guard count > 0 else { throw UsageError("no *.json vector files in \(vectors)") }
        return CatalogSource(cases: suites + CryptoVectorCases.cases(directory: url), vectorSource: "\(url.path) (\(count) files)")
    }
}
