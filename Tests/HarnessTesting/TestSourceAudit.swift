// SPDX-License-Identifier: MIT
import Foundation

/// Checks the test sources for the two habits that let a run hang instead of failing (pure: file
/// texts in, findings out).
///
/// - Every `@Suite` carries a `.timeLimit`, and every test sits in a suite that has one (a type
///   marked `@Suite`, an extension of one, or a type nested in one), or carries its own: a hung
///   test then fails with its name instead of holding CI until its job is killed.
/// - No `#expect(a == b)` where a side names a body, a response or bytes built by concatenation:
///   a failing `==` on large collections makes the testing library diff them element by element
///   (``expectSameElements(_:_:_:sourceLocation:)`` reports the first differing offset instead).
package enum TestSourceAudit {
    /// One finding: the file, the 1-based line, and what is wrong.
    package struct Finding: Equatable, Sendable, CustomStringConvertible {
        package var file: String
        package var line: Int
        package var problem: String
        package var description: String { "\(file):\(line): \(problem)" }
    }

    /// The findings over `files` (path → text).
    package static func audit(_ files: [(path: String, text: String)]) -> [Finding] {
        let parsed = files.map { (path: $0.path, lines: $0.text.components(separatedBy: "\n")) }
        var suites = Set<String>()
        for file in parsed {
            for (index, line) in file.lines.enumerated() {
                guard let name = declaredType(line)?.name, isSuiteMarked(file.lines, index) else { continue }
                suites.insert(name)
            }
        }
        var findings: [Finding] = []
        for file in parsed {
            for (index, line) in file.lines.enumerated() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("@Suite"), !suiteAttributeHasLimit(file.lines, from: index) {
                    findings.append(Finding(file: file.path, line: index + 1, problem: "@Suite without .timeLimit"))
                }
                if trimmed.hasPrefix("@Test"), !testIsLimited(file.lines, index, suites: suites) {
                    findings.append(Finding(file: file.path, line: index + 1, problem: "test outside any suite with a .timeLimit"))
                }
                if isLargeEquality(trimmed) {
                    findings.append(Finding(
                        file: file.path, line: index + 1,
                        problem: "#expect(==) on what may be a large collection: use expectSameElements"))
                }
            }
        }
        return findings
    }

    /// The Swift test sources under `directory` (recursively), as ``audit(_:)`` takes them.
    package static func sources(under directory: String) -> [(path: String, text: String)] {
        guard let walker = FileManager.default.enumerator(atPath: directory) else { return [] }
        var files: [(path: String, text: String)] = []
        while let relative = walker.nextObject() as? String {
            guard relative.hasSuffix(".swift"),
                let data = FileManager.default.contents(atPath: directory + "/" + relative)
            else { continue }
            files.append((relative, String(decoding: data, as: UTF8.self)))
        }
        return files.sorted { $0.path < $1.path }
    }

    // MARK: - Rules

    /// The keyword and name of a type declared or extended on `line`, if any: the line holds
    /// attributes and modifiers, then the keyword and the name (of an extension, its first part).
    package static func declaredType(_ line: String) -> (keyword: String, name: String)? {
        let range = NSRange(line.startIndex..., in: line)
        guard let match = declaration.firstMatch(in: line, range: range),
            let keyword = Range(match.range(at: 1), in: line), let name = Range(match.range(at: 2), in: line)
        else { return nil }
        let parts = line[name].split(separator: ".")
        let isExtension = line[keyword] == "extension"
        return (String(line[keyword]), String((isExtension ? parts.first : parts.last) ?? ""))
    }

    // `try!` is safe: the pattern is a literal.
    private static let declaration = try! NSRegularExpression(
        pattern: #"^\s*(?:@.*?\s+)?(?:(?:public|package|internal|private|fileprivate|final)\s+)*(struct|enum|class|actor|extension)\s+([A-Za-z_][\w.]*)"#)

    private static func isSuiteMarked(_ lines: [String], _ index: Int) -> Bool {
        lines[index].contains("@Suite") || (index > 0 && lines[index - 1].contains("@Suite"))
    }

    /// Whether the `@Suite` attribute starting on `index` names a time limit before its declaration.
    private static func suiteAttributeHasLimit(_ lines: [String], from index: Int) -> Bool {
        for line in lines[index..<min(lines.count, index + 4)] {
            if line.contains(".timeLimit(") { return true }
            if declaredType(line) != nil { return false }
        }
        return false
    }

    private static func testIsLimited(_ lines: [String], _ index: Int, suites: Set<String>) -> Bool {
        if lines[index].contains(".timeLimit(") { return true }
        var indent = indentation(lines[index])
        var position = index - 1
        while position >= 0 {
            let line = lines[position]
            if !line.trimmingCharacters(in: .whitespaces).isEmpty, indentation(line) < indent, let type = declaredType(line) {
                if type.keyword == "extension" { return suites.contains(type.name) }
                if isSuiteMarked(lines, position) { return true }
                // An unmarked type nested in a suite: its tests take the enclosing suite's traits.
                indent = indentation(line)
            }
            position -= 1
        }
        return false
    }

    private static func indentation(_ line: String) -> Int { line.prefix { $0 == " " }.count }

    /// `#expect(x == y + z)` or `#expect(x.body == …)`-style equalities on byte-like values.
    package static func isLargeEquality(_ line: String) -> Bool {
        guard line.hasPrefix("#expect("), let equals = line.range(of: " == ") else { return false }
        let left = line[line.index(line.startIndex, offsetBy: 8)..<equals.lowerBound]
        let right = line[equals.upperBound...]
        // A generated pattern of many bytes on either side (`recordPattern(40_000)`).
        if right.contains("recordPattern(") || left.contains("recordPattern(") { return true }
        guard !left.contains("count"), !left.contains("("), !right.hasPrefix("\""), !right.hasPrefix("#\"") else { return false }
        let bytesLike = ["response", "body", "bytes", "payload", "received"].contains { left.lowercased().hasSuffix($0) }
        return bytesLike && right.contains(" + ")
    }
}
