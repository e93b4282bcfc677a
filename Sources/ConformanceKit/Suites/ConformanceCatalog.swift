// SPDX-License-Identifier: MIT
import Foundation

/// Every conformance case, by suite.
public enum ConformanceCatalog {
    /// The built-in suites in order (suite name, cases).
    public static var builtInSuites: [(name: String, cases: [ConformanceCase])] {
        [
            ("publish", PublishSuite.cases),
            ("subscribe", SubscribeSuite.cases),
            ("presence", PresenceSuite.cases),
            ("history", HistorySuite.cases),
            ("groups", ChannelGroupSuite.cases),
            ("pam", AccessManagerSuite.cases),
            ("access-v3", AccessV3Suite.cases),
            ("faults", FaultSuite.cases),
            ("tls", TransportSuite.cases.filter { $0.suite == "tls" }),
            ("transport", TransportSuite.cases.filter { $0.suite == "transport" }),
            ("reconnect", ReconnectSuite.cases),
            ("threshold", ThresholdSuite.cases),
            ("encryption", EncryptionSuite.cases),
            ("objects", ObjectsSuite.cases),
            ("files", FilesSuite.cases),
            ("push", PushSuite.cases),
            ("message-types", MessageTypeSuite.cases),
            ("filters", FilterSuite.cases),
            ("message-actions", MessageActionSuite.cases),
            ("event-engine", EventEngineSuite.cases),
        ]
    }

    /// All cases: the built-in suites plus one encryption case per vector group found in
    /// `cryptoVectors` (the `Fixtures/crypto` directory), if given.
    public static func all(cryptoVectors: URL? = nil) -> [ConformanceCase] {
        builtInSuites.flatMap(\.cases) + (cryptoVectors.map { CryptoVectorCases.cases(directory: $0) } ?? [])
    }

    /// Selects by suite names and case ids (both empty = everything); unknown names are errors.
    public static func select(_ cases: [ConformanceCase], suites: [String], ids: [String]) throws -> [ConformanceCase] {
        if suites.isEmpty && ids.isEmpty { return cases }
        let knownSuites = Set(cases.map(\.suite))
        let knownIDs = Set(cases.map(\.id))
        if let unknown = suites.first(where: { !knownSuites.contains($0) }) {
            throw SelectionError.unknownSuite(unknown, known: knownSuites.sorted())
        }
        if let unknown = ids.first(where: { !knownIDs.contains($0) }) {
            throw SelectionError.unknownCase(unknown)
        }
        return cases.filter { suites.contains($0.suite) || ids.contains($0.id) }
    }

    /// Finds `Fixtures/crypto` from the working directory or the package root.
    public static func defaultCryptoVectorDirectory() -> URL? {
        let candidates = [
            URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("Fixtures/crypto"),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/crypto"),
        ]
        return candidates.first { FileManager.default.fileExists(atPath: $0.path) }
    }
}

/// A `--suite` or `--case` that names nothing.
public enum SelectionError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownSuite(String, known: [String])
    case unknownCase(String)

    public var description: String {
        switch self {
        case .unknownSuite(let name, let known): "unknown suite \"\(name)\" (suites: \(known.joined(separator: ", ")))"
        case .unknownCase(let id): "unknown case \"\(id)\" (see `pubnub-harness list`)"
        }
    }
}
