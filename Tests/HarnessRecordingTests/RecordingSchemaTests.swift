// SPDX-License-Identifier: MIT
import Foundation
import HarnessJSON
import Testing
@testable import HarnessRecording

/// docs/recording-schema.json names the fields the harness writes, and a recording survives its
/// own encoding.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct RecordingSchemaTests {
    /// A recording with every optional field present.
    static let full = Recording(
        recorded: RecordingOrigin(upstream: "https://ps.pndsn.com", started: "2026-11-29T00:00:00Z", tool: "t", note: "n"),
        rules: RecordingRules(endpoints: ["*": ComparisonRules(formatOnly: ["$.a"], unordered: ["$.b"], learn: ["$.c"], ignore: ["$.d"])],
                              replaceDefaults: false),
        exchanges: [RecordedExchange(
            id: 1, endpoint: "storage-upload", startedMs: 1, durationMs: 2, outcome: .answered, error: "e",
            request: RecordedRequest(method: "POST", path: "/", query: [NameValue("a", "b")], headers: [NameValue("c", "d")], body: "x",
                                     bodyBase64: "eA==", form: [FormPart(name: "f", value: "v", filename: "a.txt", contentType: "text/plain",
                                                                         base64: "eA==", size: 1)], origin: "https://s"),
            response: RecordedResponse(status: 204, headers: [NameValue("ETag", "\"x\"")], body: "", bodyBase64: "eA=="),
            rules: ComparisonRules(ignore: ["$"]), storage: StorageLink(kind: .upload, of: 0))],
        keys: [RecordedKey(placeholder: "{sub-key-1}", kind: .subscribeKey, accessManager: true, publishKey: "{pub-key-1}", tokenShape: ["v"])],
        names: [RecordedName(kind: .channel, name: "c")])

    static func keys(_ value: JSONValue?) -> Set<String> { Set(value?.objectValue?.keys ?? []) }

    @Test func theSchemaNamesEveryFieldTheHarnessWrites() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/recording-schema.json")
        let schema = try JSONValue.parse(Array(Data(contentsOf: url)))
        let value = try JSONValue.parse(Self.full.encoded())
        let defs = schema["$defs"]
        #expect(Self.keys(schema["properties"]) == Self.keys(value))
        #expect(Self.keys(schema["properties"]?["recorded"]?["properties"]) == Self.keys(value["recorded"]))
        #expect(Self.keys(schema["properties"]?["rules"]?["properties"]) == Self.keys(value["rules"]))
        let exchange = try #require(value["exchanges"]?[0])
        #expect(Self.keys(defs?["exchange"]?["properties"]) == Self.keys(exchange))
        #expect(Self.keys(defs?["request"]?["properties"]) == Self.keys(exchange["request"]))
        #expect(Self.keys(defs?["request"]?["properties"]?["form"]?["items"]?["properties"]) == Self.keys(exchange["request"]?["form"]?[0]))
        #expect(Self.keys(defs?["response"]?["properties"]) == Self.keys(exchange["response"]))
        #expect(Self.keys(defs?["rules"]?["properties"]) == Self.keys(value["rules"]?["endpoints"]?["*"]))
        #expect(Self.keys(defs?["key"]?["properties"]) == Self.keys(value["keys"]?[0]))
        #expect(defs?["key"]?["properties"]?["kind"]?["enum"] == .array(KeyKind.allCases.map { .string($0.rawValue) }))
        #expect(schema["properties"]?["version"]?["const"] == .int(Recording.currentVersion))
    }

    @Test func aRecordingReadsBackAsItWasWritten() throws {
        #expect(try Recording.decode(Self.full.encoded()) == Self.full)
    }
}
