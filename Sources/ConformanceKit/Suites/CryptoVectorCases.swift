// SPDX-License-Identifier: MIT
import HarnessJSON
import Foundation

/// One case per (vector file, key, scheme) of the crypto vectors (built into the binary from
/// `Fixtures/crypto`, or read from a directory): the runner publishes each
/// vector's ciphertext and the client must deliver its plaintext (or a decryption failure).
///
/// Vector files are read loosely: a top-level array or `{"vectors": [...]}`; per vector
/// `cipherKey`|`key`, `scheme`, `plaintext`|`message`, `ciphertext`|`encrypted`|`base64`, and
/// `error`|`expectError` for vectors that must fail to decrypt.
public enum CryptoVectorCases {
    struct Vector {
        var key: String
        var scheme: String
        var plaintext: JSONValue
        var ciphertext: String
        var mustFail: Bool
    }

    /// Cases for every `*.json` file in `directory` (sorted by name); a file that cannot be read
    /// becomes a failing case naming the problem, never a silent omission.
    public static func cases(directory: URL) -> [ConformanceCase] {
        let files = ((try? FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "json" }.sorted { $0.lastPathComponent < $1.lastPathComponent }
        return files.flatMap { file in cases(name: file.lastPathComponent, data: try? Data(contentsOf: file)) }
    }

    /// Cases for vector files given by name and text (the files built into the binary).
    public static func cases(files: [(name: String, text: String)]) -> [ConformanceCase] {
        files.sorted { $0.name < $1.name }.flatMap { cases(name: $0.name, data: Data($0.text.utf8)) }
    }

    static func cases(file: URL) -> [ConformanceCase] {
        cases(name: file.lastPathComponent, data: try? Data(contentsOf: file))
    }

    /// Cases of one vector file; `data` nil when it could not be read.
    static func cases(name: String, data: Data?) -> [ConformanceCase] {
        let stem = slug(String(name.hasSuffix(".json") ? name.dropLast(5) : Substring(name)))
        guard let data, let value = try? JSONValue.parse(Array(data)) else {
            return [unreadable(stem, name, "not JSON")]
        }
        let items = value.arrayValue ?? value["vectors"]?.arrayValue ?? []
        let vectors = items.compactMap(vector)
        if vectors.isEmpty { return [unreadable(stem, name, "no vector with key, scheme, plaintext and ciphertext")] }
        var groups: [(String, String)] = []
        for vector in vectors where !groups.contains(where: { $0 == (vector.key, vector.scheme) }) {
            groups.append((vector.key, vector.scheme))
        }
        return groups.enumerated().map { index, group in
            let members = vectors.filter { $0.key == group.0 && $0.scheme == group.1 }
            var steps: [CaseStep] = [.subscribe(["ch-v"]), .expect(.connected), SubscribeSuite.longPollInFlight]
            steps += members.map { .serverPublish(channel: "ch-v", message: .string($0.ciphertext)) }
            steps.append(.expectMessages(members.map {
                ExpectedMessage(channel: "ch-v", message: $0.mustFail ? .string($0.ciphertext) : $0.plaintext, decryptionFailed: $0.mustFail)
            }, withinMs: 1_500))
            let anyFail = members.contains(where: \.mustFail)
            return ConformanceCase(
                "encryption.vectors.\(stem)\(groups.count > 1 ? "-\(index + 1)" : "")",
                "Vectors of \(name) (\(group.1)) decrypt as recorded", spec: "crypto §6",
                client: ClientOverrides(cipherKey: group.0, cipherScheme: group.1), steps: steps,
                expected: anyFail ? [.connected, .decryptionError] : [.connected], timeBudget: .seconds(3), requires: [.encryption])
        }
    }

    /// A vector that can travel as a subscribe message, or `nil`. Left out (they are checked by
    /// `pubnub-harness crypto verify`, not over the wire): `binary` vectors (bytes, not message
    /// text), encrypt-only vectors (no ciphertext), `emptyKey` vectors (no client can be
    /// configured with an empty key) and vectors needing a non-default `legacyFallback` (the
    /// session configuration has no such setting). Negative vectors need no plaintext: the
    /// client must deliver their ciphertext as received, flagged as a decryption failure.
    static func vector(_ value: JSONValue) -> Vector? {
        guard let key = (value["cipherKey"] ?? value["key"])?.stringValue, !key.isEmpty,
              let scheme = value["scheme"]?.stringValue,
              let cipher = (value["ciphertext"] ?? value["encrypted"] ?? value["base64"])?.stringValue,
              (value["kind"]?.stringValue ?? "message") == "message",
              value["legacyFallback"] == nil
        else { return nil }
        let mustFail = (value["error"] ?? value["expectError"]).map { $0 != .bool(false) && $0 != .null } ?? false
        let plain: JSONValue
        if let given = value["plaintext"] ?? value["message"] {
            plain = given
        } else if mustFail {
            plain = .null
        } else {
            return nil
        }
        let plaintext = plain.stringValue.flatMap { try? JSONValue.parse($0) } ?? plain
        return Vector(key: key, scheme: scheme, plaintext: plaintext, ciphertext: cipher, mustFail: mustFail)
    }

    static func unreadable(_ stem: String, _ name: String, _ why: String) -> ConformanceCase {
        // The step can never succeed: the vector file itself is broken and must be fixed.
        ConformanceCase("encryption.vectors.\(stem)", "Vector file \(name) is unusable: \(why)", spec: "crypto §6",
                        steps: [.expectJournal(.count(endpoint: "unreadable-vector-file", atLeast: 1), withinMs: 0)],
                        expected: [], requires: [.encryption])
    }

    /// Lowercase letters, digits and `-` only (the id alphabet).
    static func slug(_ text: String) -> String {
        let mapped = text.lowercased().map { $0.isASCII && ($0.isLetter || $0.isNumber) ? $0 : "-" }
        return String(mapped).split(separator: "-").joined(separator: "-")
    }
}
