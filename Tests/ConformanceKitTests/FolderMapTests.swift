// SPDX-License-Identifier: MIT
import Foundation
import Testing

/// docs/architecture.md's folder map names every directory under `Sources/`.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct FolderMapTests {
    /// The repository root, from this file's path (`Tests/ConformanceKitTests/FolderMapTests.swift`).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Every directory below `Sources/`, as `Sources/A/B` (sorted; bounded by the tree).
    static func sourceDirectories() throws -> [String] {
        let sources = root.appendingPathComponent("Sources")
        let enumerator = try #require(FileManager.default.enumerator(
            at: sources, includingPropertiesForKeys: [.isDirectoryKey], options: [.skipsHiddenFiles]))
        var found: [String] = []
        for case let url as URL in enumerator where try url.resourceValues(forKeys: [.isDirectoryKey]).isDirectory == true {
            found.append("Sources/" + url.path.dropFirst(sources.path.count + 1))
        }
        return found.sorted()
    }

    /// The folder map section: from its heading to the next `## ` heading.
    static func folderMap() throws -> String {
        let text = try String(contentsOf: root.appendingPathComponent("docs/architecture.md"), encoding: .utf8)
        let start = try #require(text.range(of: "## Folder map"))
        let rest = text[start.upperBound...]
        let end = rest.range(of: "\n## ")?.lowerBound ?? rest.endIndex
        return String(rest[..<end])
    }

    @Test func everySourceDirectoryIsInTheFolderMap() throws {
        let directories = try Self.sourceDirectories()
        #expect(directories.count > 20, "found only \(directories)")
        #expect(directories.contains("Sources/HarnessServerCore/Host"))
        let map = try Self.folderMap()
        let missing = directories.filter { !map.contains("`\($0)`") }
        #expect(missing.isEmpty, "docs/architecture.md's folder map does not name: \(missing.joined(separator: ", "))")
    }

    @Test func theFolderMapNamesNoDirectoryThatIsGone() throws {
        let directories = Set(try Self.sourceDirectories())
        let map = try Self.folderMap()
        let named = map.split(separator: "`").filter { $0.hasPrefix("Sources/") && $0.count > 8 && !$0.contains(".") }.map(String.init)
        #expect(!named.isEmpty)
        let stale = named.filter { !directories.contains($0) }
        #expect(stale.isEmpty, "the folder map names directories that do not exist: \(stale)")
    }
}
