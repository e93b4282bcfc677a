// SPDX-License-Identifier: MIT
import Foundation
import PubNubCrypto
import Testing

/// Finds the package's `Fixtures/crypto` directory by walking up from this file.
enum FixtureLocator {
    static var packageRoot: URL {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        for _ in 0..<8 {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
            url.deleteLastPathComponent()
        }
        return url
    }

    static var cryptoDirectory: URL { packageRoot.appendingPathComponent("Fixtures/crypto") }

    static func vectorFilePaths() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: cryptoDirectory.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { cryptoDirectory.appendingPathComponent($0).path }
    }

    static func loadFiles() -> [(name: String, file: CryptoVectorFile)] {
        vectorFilePaths().compactMap { path in
            guard let data = FileManager.default.contents(atPath: path),
                let file = try? JSONDecoder().decode(CryptoVectorFile.self, from: data)
            else { return nil }
            return ((path as NSString).lastPathComponent, file)
        }
    }

    static func allVectors() -> [LabeledVector] {
        loadFiles().flatMap { entry in entry.file.vectors.map { LabeledVector(file: entry.name, vector: $0) } }
    }
}

/// A vector with its file name, shown as `file:id` in test output.
struct LabeledVector: Sendable, CustomTestStringConvertible {
    var file: String
    var vector: CryptoVector
    var testDescription: String { "\(file):\(vector.id)" }
}

/// Runs `body` and returns the ``CryptoError`` kind it throws, or nil if it does not throw.
func thrownKind<T>(_ body: () throws(CryptoError) -> T) -> CryptoError.Kind? {
    do {
        _ = try body()
        return nil
    } catch {
        return error.kind
    }
}

func hex(_ text: String) -> [UInt8] { ByteEncoding.bytes(fromHex: text.filter { !$0.isWhitespace })! }
