// SPDX-License-Identifier: MIT
import Foundation
import HarnessJSON
import Testing
@testable import ConformanceKit

/// `run --shard`, `run --list-shards` and `merge` through the binary: the shards of a suite merge
/// into the same outcomes as one run, and inputs that cannot be joined are one line and exit 2.
@Suite(.enabled(if: HarnessProcess.exists, "needs the built pubnub-harness binary (HarnessProcess.binary)"), .timeLimit(.minutes(TestTime.limitMinutes(10))))
struct ShardMergeProcessTests {
    static func workFolder() throws -> URL {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("harness-merge-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        return work
    }

    @Test func shardOptionsAreValidated() async throws {
        CLIProcessTests.expectOneLineUsageError(try await HarnessProcess.run(["run", "--shard", "5/4"]),
                                                "--shard must be K/N with 1 <= K <= N <= 1000, e.g. 2/4 (see --help)")
        CLIProcessTests.expectOneLineUsageError(try await HarnessProcess.run(["run", "--list-shards", "0"]),
                                                "--list-shards must be from 1 to 1000 (see --help)")
        CLIProcessTests.expectOneLineUsageError(try await HarnessProcess.run(["merge"]), "name at least one JSON report to merge (see --help)")
        CLIProcessTests.expectOneLineUsageError(try await HarnessProcess.run(["merge", "a.json"]),
                                                "name an output (--json, --junit, --html) or --compare (see --help)")
        CLIProcessTests.expectOneLineUsageError(try await HarnessProcess.run(["merge", "/missing.json", "--json", "/tmp/x.json"]),
                                                "cannot read report /missing.json: No such file or directory")
    }

    @Test func listShardsCoversTheSelection() async throws {
        let listing = try await HarnessProcess.run(["run", "--list-shards", "3", "--suite", "publish"])
        #expect(listing.status == 0, "\(listing.stderr)")
        let lines = listing.stdout.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("shard ") }.count == 3)
        let ids = lines.filter { $0.hasPrefix("  ") }.map { String($0.dropFirst(2)) }
        let all = try await HarnessProcess.run(["list", "--suite", "publish", "--ids-only"])
        #expect(ids.sorted() == all.stdout.split(separator: "\n").map(String.init).sorted())
        let pusher = try await HarnessProcess.run(["run", "--family", "pusher", "--list-shards", "2"])
        #expect(pusher.stdout.split(separator: "\n").filter { $0.hasPrefix("  ") }.count == PusherCatalog.all().count)
    }

    /// Two shards of the groups suite merged: the same outcomes as one run; JUnit and HTML name the shards.
    @Test func shardsMergeToTheOneRunOutcomes() async throws {
        let work = try Self.workFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let whole = try await HarnessProcess.run(["run", "--suite", "groups", "--json", "whole.json", "--time-scale", "2"], in: work)
        #expect(whole.status == 0, "\(whole.stderr)")
        for k in 1...2 {
            let shard = try await HarnessProcess.run(["run", "--suite", "groups", "--shard", "\(k)/2", "--json", "s\(k).json", "--time-scale", "2"], in: work)
            #expect(shard.status == 0, "\(shard.stderr)")
            #expect(shard.stdout.contains("shard \(k)/2: "))
        }
        let s1 = try JSONValue.parse(Data(contentsOf: work.appendingPathComponent("s1.json")))
        #expect(s1["run"]?["shard"] == "1/2")
        let merged = try await HarnessProcess.run(
            ["merge", "s1.json", "s2.json", "--json", "out/m.json", "--junit", "out/m.xml", "--html", "out/m.html", "--compare", "whole.json"], in: work)
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.contains("same outcome as whole.json for all 5 case(s)"))
        let json = try JSONValue.parse(Data(contentsOf: work.appendingPathComponent("out/m.json")))
        #expect(json["runs"]?.arrayValue?.map { $0["shard"]?.stringValue ?? "" } == ["1/2", "2/2"])
        #expect(json["cases"]?.arrayValue?.count == 5)
        let junit = try String(contentsOf: work.appendingPathComponent("out/m.xml"), encoding: .utf8)
        #expect(junit.contains(#"<property name="shard" value="1/2"/>"#) && junit.contains(#"<property name="shard" value="2/2"/>"#))
        let html = try String(contentsOf: work.appendingPathComponent("out/m.html"), encoding: .utf8)
        #expect(html.contains("<table class=\"runs\">"))

        // An empty shard is no error.
        let empty = try await HarnessProcess.run(["run", "--case", "publish.get.string", "--shard", "2/2", "--json", "e.json", "--time-scale", "2"], in: work)
        #expect(empty.status == 0, "\(empty.stderr)")
        #expect(empty.stdout.contains("shard 2/2: 0 of 1 selected case(s)"))

        // A difference is named and exits 1.
        var text = try String(contentsOf: work.appendingPathComponent("whole.json"), encoding: .utf8)
        text = text.replacingOccurrences(of: "\"outcome\" : \"pass\"", with: "\"outcome\" : \"fail\"")
        try Data(text.utf8).write(to: work.appendingPathComponent("worse.json"))
        let differs = try await HarnessProcess.run(["merge", "s1.json", "s2.json", "--compare", "worse.json"], in: work)
        #expect(differs.status == 1)
        #expect(differs.stdout.contains("differs: groups."))
        #expect(differs.stderr.hasPrefix("error: ") && differs.stderr.hasSuffix("case(s) differ from worse.json\n"))
    }

    /// `--verbose` prints a failed case's timeline: its request, the fault that fired and the answer.
    @Test func verbosePrintsTheTimelineOfAFailure() async throws {
        let driver = HarnessProcess.packageRoot.appendingPathComponent("Examples/driver/fake_driver.py").path
        let outcome = try await HarnessProcess.run(["run", "--client-command", "python3 \(driver)", "--case", "faults.request.invalid-chunked",
                                                    "--verbose", "--time-scale", "2"])
        #expect(outcome.status == 1, "\(outcome.stderr)")
        let text = outcome.stdout
        #expect(text.contains("timeline of faults.request.invalid-chunked (1 request(s), 1 fault(s), failed at step 1):"))
        #expect(text.contains("== step 1 perform publish <== failed here"))
        #expect(text.contains("|-- GET /publish/"))
        #expect(text.contains("| ⚡ fault invalid-chunked (rule invalid-chunked, match 1)"))
        #expect(text.contains("|<-- raw ") && text.contains(", then fin · "))
    }

    @Test func mergeRefusesOtherCatalogsSchemasAndOverlaps() async throws {
        let work = try Self.workFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let run = try await HarnessProcess.run(["run", "--case", "publish.get.string", "--json", "a.json", "--time-scale", "2"], in: work)
        #expect(run.status == 0, "\(run.stderr)")
        let original = try String(contentsOf: work.appendingPathComponent("a.json"), encoding: .utf8)
        let catalog = try #require(try JSONValue.parse(Array(original.utf8))["run"]?["catalog"]?.stringValue)
        try Data(original.replacingOccurrences(of: "\"schemaVersion\" : 4", with: "\"schemaVersion\" : 3").utf8)
            .write(to: work.appendingPathComponent("old.json"))
        try Data(original.replacingOccurrences(of: catalog, with: "pubnub:ffffffffffffffff").utf8).write(to: work.appendingPathComponent("other.json"))
        CLIProcessTests.expectOneLineUsageError(try await HarnessProcess.run(["merge", "a.json", "old.json", "--json", "m.json"], in: work),
                                                "old.json has report schema version 3; this pubnub-harness reads version 4")
        CLIProcessTests.expectOneLineUsageError(try await HarnessProcess.run(["merge", "a.json", "other.json", "--json", "m.json"], in: work),
                                                "other.json ran catalog pubnub:ffffffffffffffff, a.json ran \(catalog): not the same catalog")
        CLIProcessTests.expectOneLineUsageError(try await HarnessProcess.run(["merge", "a.json", "a.json", "--json", "m.json"], in: work),
                                                "case publish.get.string of built-in is in both a.json and a.json")
        #expect(!FileManager.default.fileExists(atPath: work.appendingPathComponent("m.json").path))
    }
}
