// SPDX-License-Identifier: MIT
@testable import HarnessHTTP
import Testing

/// The body limit of a target: the first override whose path prefix the target starts with,
/// decided on the target's bytes (the prefixes' bytes kept with them) as on strings.
@Suite("Body limit overrides", .timeLimit(.minutes(5)))
struct BodyLimitOverrideTests {
    private func limit(_ limits: HTTPRequestParser.Limits, _ target: String) -> (bytes: Int, string: Int) {
        var text = target
        let bytes = text.withUTF8 { limits.maxBodyBytes(forTarget: $0, ascii: HTTPRequest.isASCII($0)) }
        return (bytes, limits.maxBodyBytes(forTarget: target))
    }

    @Test func theFirstMatchingPrefixDecidesOnBytesAsOnStrings() {
        var limits = HTTPRequestParser.Limits(maxBodyBytes: 10)
        limits.bodyLimitOverrides = [
            BodyLimitOverride(pathPrefix: "/file-storage/", maxBodyBytes: 100),
            BodyLimitOverride(pathPrefix: "/file", maxBodyBytes: 50),
        ]
        let cases: [(String, Int)] = [
            ("/file-storage/k/c", 100), ("/file-storage/", 100), ("/file-storage", 50), ("/file", 50),
            ("/fil", 10), ("/", 10), ("/publish/k/k/0/c/0?x=/file-storage/", 10), ("/File-storage/k", 10),
        ]
        for (target, expected) in cases {
            let found = limit(limits, target)
            #expect(found.bytes == expected && found.string == expected, "\(target)")
        }
    }

    @Test func aChangedOrEmptyPrefixIsTheOneCompared() {
        var override = BodyLimitOverride(pathPrefix: "/a/", maxBodyBytes: 7)
        override.pathPrefix = "/b/"
        var limits = HTTPRequestParser.Limits(maxBodyBytes: 3)
        limits.bodyLimitOverrides = [override]
        #expect(limit(limits, "/b/x") == (7, 7))
        #expect(limit(limits, "/a/x") == (3, 3))
        #expect(override == BodyLimitOverride(pathPrefix: "/b/", maxBodyBytes: 7))
        limits.bodyLimitOverrides = [BodyLimitOverride(pathPrefix: "", maxBodyBytes: 9)]
        #expect(limit(limits, "/anything") == (9, 9))
    }
}
