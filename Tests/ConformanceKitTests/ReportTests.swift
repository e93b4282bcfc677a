// SPDX-License-Identifier: MIT
import HarnessJSON
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import PubNubCrypto
import Synchronization
import Testing
@testable import ConformanceKit

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ReportTests {
    static let report: RunReport = {
        let results = [
            CaseResult(id: "publish.get.string", suite: "publish", title: "Publish <a> & \"b\"", spec: "§4.1", outcome: .pass,
                       expected: [.acknowledgment], observed: [.acknowledgment], durationSeconds: 0.0123456, detail: ""),
            CaseResult(id: "faults.request.hang", suite: "faults", title: "Hang", spec: "§11.3", outcome: .fail,
                       expected: [.timeout], observed: [.networkIssues], durationSeconds: 0.5,
                       detail: "missing: PNTimeoutCategory\nunexpected: <PNNetworkIssuesCategory>",
                       wireLog: ["GET /publish/p/s/0/ch/0/%22x%22?uuid=u  [rule hang]"], deviation: .newFailure),
            CaseResult(id: "tls.request.tls-expired", suite: "tls", title: "Expired", spec: "§11.3", outcome: .nonStrict,
                       expected: [.tlsUntrustedCertificate], observed: [.networkIssues], durationSeconds: 0.25, detail: "alternative: ObjC 6/7"),
            CaseResult(id: "pam.denied.publish", suite: "pam", title: "Denied", spec: "§9.1", outcome: .skipped,
                       expected: [.accessDenied], observed: [], durationSeconds: 0, detail: "client lacks: accessManager"),
            CaseResult(id: "faults.request.reset", suite: "faults", title: "Reset", spec: "§11.3", outcome: .fail,
                       expected: [.networkIssues], observed: [.timeout], durationSeconds: 0.1,
                       detail: "missing: PNNetworkIssuesCategory\n" + String(repeating: "x", count: 300), deviation: .expected),
        ]
        return RunReport(client: "test-client", summary: RunSummary(results: results, durationSeconds: 1.23456, seed: 42), results: results)
    }()

    @Test func jsonHasExactlyTheDocumentedKeys() throws {
        let value = try JSONValue.parse(Array(JSONReport.encode(Self.report)))
        #expect(Set(value.objectValue?.keys.map { $0 } ?? []) == ["schemaVersion", "summary", "cases"])
        #expect(value["schemaVersion"] == 4)
        #expect(value["summary"] == ["total": 5, "passed": 1, "nonStrict": 1, "failed": 2, "skipped": 1, "flaky": 0,
                                     "newFailures": 1, "expectedDeviations": 1, "fixed": 0,
                                     "durationSeconds": 1.235, "seed": "42", "client": "test-client"])
        let cases = try #require(value["cases"]?.arrayValue)
        #expect(cases.count == 5)
        #expect(Set(cases[0].objectValue?.keys.map { $0 } ?? []) ==
                ["id", "suite", "title", "spec", "outcome", "expected", "observed", "durationSeconds", "detail", "wireLog"])
        #expect(cases[0]["durationSeconds"] == 0.012)
        #expect(cases[1]["outcome"] == "fail")
        #expect(cases[1]["deviation"] == "new-failure")
        #expect(cases[1]["expected"] == ["PNTimeoutCategory"])
        #expect(cases[1]["observed"] == ["PNNetworkIssuesCategory"])
        #expect(cases.map { $0["outcome"]?.stringValue ?? "" } == ["pass", "fail", "non-strict", "skipped", "fail"])
        #expect(cases[4]["deviation"] == "expected-deviation")
    }

    @Test func jsonSchemaNamesTheSameFields() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/report-schema.json")
        let schema = try JSONValue.parse(Array(Data(contentsOf: url)))
        let summary = try #require(schema["properties"]?["summary"]?["properties"]?.objectValue)
        let caseFields = try #require(schema["properties"]?["cases"]?["items"]?["properties"]?.objectValue)
        // A merged report with a timeline: every optional part present.
        var full = Self.report
        full.context = RunContext(family: "pubnub", catalog: "pubnub:0123456789abcdef", catalogSize: 5,
                                  clientVersion: "1.0", harnessVersion: "0.0.0")
        full.context?.runs = [RunRecord(client: "test-client", clientVersion: "1.0", shard: ShardSpec(index: 1, count: 2),
                                        seed: 42, durationSeconds: 1, cases: 5, source: "a.json")]
        full.results[1].run = 0
        full.results[1].timeline = TimelineModelTests.failedTimeline
        let value = try JSONValue.parse(Array(JSONReport.encode(full)))
        #expect(Set(schema["properties"]?.objectValue?.keys.map { $0 } ?? []) == Set(value.objectValue?.keys.map { $0 } ?? []))
        let run = try #require(schema["properties"]?["run"]?["properties"]?.objectValue)
        #expect(Set(run.keys) == Set(value["run"]?.objectValue?.keys.map { $0 } ?? []).union(["shard"]))
        let timelineFields = try #require(caseFields["timeline"]?["properties"]?.objectValue)
        #expect(Set(timelineFields.keys) == Set(value["cases"]?.arrayValue?[1]["timeline"]?.objectValue?.keys.map { $0 } ?? []))
        #expect(schema["properties"]?["schemaVersion"]?["const"] == .int(JSONReport.schemaVersion))
        #expect(Set(summary.keys) == Set(value["summary"]?.objectValue?.keys.map { $0 } ?? []))
        #expect(Set(caseFields.keys) == Set((value["cases"]?.arrayValue?[1].objectValue?.keys).map(Array.init) ?? []))
        #expect(caseFields["outcome"]?["enum"] == ["pass", "non-strict", "fail", "skipped", "flaky"])
    }

    @Test func junitIsWellFormedWithOneTestcasePerCase() throws {
        let xml = JUnitReport.encode(Self.report)
        let collector = XMLCollector()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = collector
        #expect(parser.parse(), "\(String(describing: parser.parserError))")
        #expect(collector.testcases == ["publish.get.string", "faults.request.hang", "faults.request.reset", "tls.request.tls-expired", "pam.denied.publish"])
        #expect(collector.elements.filter { $0 == "failure" }.count == 1)
        #expect(collector.elements.filter { $0 == "skipped" }.count == 2)
        #expect(collector.text.contains("unexpected: <PNNetworkIssuesCategory>"))
        #expect(collector.text.contains("GET /publish/p/s/0/ch/0/%22x%22?uuid=u  [rule hang]"))
        #expect(xml.contains(#"<testsuites name="pubnub-harness" tests="5" failures="1" skipped="2" time="1.235">"#))
    }

    /// The JUnit file read as a DOM by a standard XML parser: the counts CI tools show.
    @Test func junitCountsThroughAStandardXMLParser() throws {
        let document = try XMLDocument(data: Data(JUnitReport.encode(Self.report).utf8))
        let root = try #require(document.rootElement())
        #expect(root.name == "testsuites")
        #expect(root.attribute(forName: "tests")?.stringValue == "5")
        #expect(root.attribute(forName: "failures")?.stringValue == "1")
        #expect(root.attribute(forName: "skipped")?.stringValue == "2")
        let suites = root.elements(forName: "testsuite")
        #expect(suites.map { $0.attribute(forName: "name")?.stringValue ?? "" } == ["publish", "faults", "tls", "pam"])
        let faults = try #require(suites.first { $0.attribute(forName: "name")?.stringValue == "faults" })
        #expect(faults.attribute(forName: "tests")?.stringValue == "2")
        #expect(faults.attribute(forName: "failures")?.stringValue == "1")
        #expect(faults.attribute(forName: "skipped")?.stringValue == "1")
        let reset = try #require(faults.elements(forName: "testcase").first { $0.attribute(forName: "name")?.stringValue == "faults.request.reset" })
        let skipped = try #require(reset.elements(forName: "skipped").first)
        #expect(skipped.attribute(forName: "type")?.stringValue == "expected-deviation")
        #expect(skipped.attribute(forName: "message")?.stringValue == "expected deviation: missing: PNNetworkIssuesCategory")
        #expect(reset.elements(forName: "failure").isEmpty)
        let hang = try #require(faults.elements(forName: "testcase").first { $0.attribute(forName: "name")?.stringValue == "faults.request.hang" })
        #expect(hang.elements(forName: "failure").first?.attribute(forName: "type")?.stringValue == "new-failure")
    }

    @Test func xmlEscaping() {
        #expect(JUnitReport.escape("a<b>&\"c'\u{1}\n") == "a&lt;b&gt;&amp;&quot;c&apos;\u{FFFD}&#10;")
    }

    @Test func htmlIsSelfContainedAndListsEveryCase() {
        let html = HTMLReport.encode(Self.report)
        for result in Self.report.results { #expect(html.contains("id=\"case-\(result.id)\"")) }
        #expect(html.contains("Publish &lt;a&gt; &amp; &quot;b&quot;"))
        #expect(!html.contains("Publish <a>"))
        #expect(html.contains("unexpected: &lt;PNNetworkIssuesCategory&gt;"))
        #expect(html.contains("<code>PNTLSUntrustedCertificateCategory</code>"))
        #expect(html.contains("GET /publish/p/s/0/ch/0/%22x%22?uuid=u  [rule hang]"))
 #expect(html.contains("<details open><summary>wire log (1)</summary>"))
        #expect(html.components(separatedBy: "<details open>").count == 2)
        #expect(!html.contains("src=") && !html.contains("<link") && !html.contains("http://") && !html.contains("https://"))
    }

    @Test func htmlVerdictFailuresFirstFiltersAndWrapping() {
        let html = HTMLReport.encode(Self.report)
        #expect(html.contains(#"<div class="verdict bad"><b>FAIL: 1 new failure</b>"#))
        let order = ["faults.request.hang", "faults.request.reset", "tls.request.tls-expired", "pam.denied.publish", "publish.get.string"]
        let positions = order.map { html.range(of: "id=\"case-\($0)\"")?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil })
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted())
        #expect(html.contains(#"data-suite="faults" data-outcome="fail new-failure""#))
        #expect(html.contains(#"<select id="f-suite">"#) && html.contains(#"<select id="f-outcome">"#))
        #expect(html.contains("<script>") && html.contains("overflow-wrap:anywhere") && html.contains("table-layout:fixed"))
        #expect(html.contains(#"<div class="cmp"><div><small>expected</small><br><code>PNTimeoutCategory</code></div><div><small>observed</small><br><code>PNNetworkIssuesCategory</code></div></div>"#))
        var passing = Self.report
        passing.results = [Self.report.results[0]]
        #expect(HTMLReport.encode(passing).contains(#"<div class="verdict ok"><b>PASS: no new failures</b>"#))
    }

    @Test func consolePlainLinesAndSummary() {
        let lines = Mutex<[String]>([])
        let console = ConsoleReporter(interactive: false) { text in lines.withLock { $0.append(text) } }
        console.progress(Self.report.results[1], finished: 2, total: 4)
        console.summary(Self.report)
        let text = lines.withLock { $0.joined() }
        #expect(text.hasPrefix("[2/4] FAIL (new failure) faults.request.hang (0.50 s)\n"))
        #expect(text.contains("""
            faults: 0 passed, 0 non-strict, 2 failed, 0 skipped
              FAIL (new failure) faults.request.hang — Hang (§11.3)
                  expected: PNTimeoutCategory
                  observed: PNNetworkIssuesCategory
                  missing: PNTimeoutCategory
                  unexpected: <PNNetworkIssuesCategory>
                  last requests:
                    GET /publish/p/s/0/ch/0/%22x%22?uuid=u  [rule hang]
            """))
        #expect(text.contains("5 cases: 1 passed, 1 non-strict, 2 failed, 1 skipped in 1.23 s (seed 42)\n1 new failure(s)\n1 expected deviation(s)\nFAIL: 1 new failure\n"))
        #expect(text.contains("      " + String(repeating: "x", count: 200) + "… (full value in the JSON report)\n"))
        #expect(!text.contains(String(repeating: "x", count: 201)))
    }

    @Test func reportPathsAreCheckedBeforeTheRun() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("report-paths-\(UInt64.random(in: 0...UInt64.max))")
        defer { try? FileManager.default.removeItem(at: base) }
        let nested = base.appendingPathComponent("a/b/report.json").path
        try ReportFiles.prepare(nested)
        #expect(FileManager.default.fileExists(atPath: nested))
        #expect(throws: ReportFiles.Unwritable(path: base.path, reason: "is a directory")) { try ReportFiles.prepare(base.path) }
        let blocker = base.appendingPathComponent("file").path
        #expect(FileManager.default.createFile(atPath: blocker, contents: Data()))
        #expect(throws: ReportFiles.Unwritable.self) { try ReportFiles.prepare(blocker + "/report.xml") }
    }

    @Test func consoleBarRewritesOneLine() {
        let lines = Mutex<[String]>([])
        let console = ConsoleReporter(interactive: true) { text in lines.withLock { $0.append(text) } }
        console.progress(Self.report.results[0], finished: 1, total: 2)
        console.progress(Self.report.results[3], finished: 2, total: 2)
        console.progress(Self.report.results[1], finished: 2, total: 3)
        let written = lines.withLock { $0 }
        #expect(written[0] == "\r[###############---------------] 1/2 0 failed publish.get.string")
        #expect(written[1] == "\r[##############################] 2/2 0 failed pam.denied.publish\n")
        #expect(written[2].hasPrefix("\r[####################----------] 2/3 1 failed faults.request.hang"))
    }

    @Test func expectationFileValidation() throws {
        let good = #"{"client":"x","deviations":[{"case":"a.b.c","outcome":"non-strict","reason":"r"}]}"#
        #expect(try ExpectationFile.decode(Data(good.utf8), source: "f").deviations == [.init(case: "a.b.c", outcome: .nonStrict, reason: "r")])
        let pass = #"{"client":"x","deviations":[{"case":"a.b.c","outcome":"pass","reason":"r"}]}"#
        #expect(throws: ExpectationFileError.invalid(path: "f", detail: #"a.b.c: outcome "pass" is not a deviation"#)) {
            try ExpectationFile.decode(Data(pass.utf8), source: "f")
        }
        let twice = #"{"client":"x","deviations":[{"case":"a.b.c","outcome":"fail","reason":"r"},{"case":"a.b.c","outcome":"fail","reason":"r"}]}"#
        #expect(throws: ExpectationFileError.invalid(path: "f", detail: "a.b.c is listed twice")) {
            try ExpectationFile.decode(Data(twice.utf8), source: "f")
        }
    }

    @Test func shippedExpectationFilesNameRealCases() throws {
        let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/expectations")
        let files = try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil).filter { $0.pathExtension == "json" }
        #expect(!files.isEmpty)
        // The catalogs `run` uses: the suites and the vector cases built into the binary, and the
        // pusher family (`run --family pusher`).
        let catalog = ConformanceCatalog.all() + CryptoVectorCases.cases(files: EmbeddedCryptoVectors.files)
        let pusherIDs = Set(PusherCatalog.all().map(\.id))
        for file in files {
            let expectations = try ExpectationFile.load(contentsOf: file)
            #expect(expectations.unknownCases(in: catalog).filter { !pusherIDs.contains($0) } == [], "\(file.lastPathComponent)")
        }
        let pysher = try ExpectationFile.load(contentsOf: directory.appendingPathComponent("pysher-1.0.8.json"))
        #expect(pysher.deviations.allSatisfy { pusherIDs.contains($0.case) && !$0.reason.isEmpty })
    }
}

/// Collects element names, testcase names and text of a parsed XML document.
final class XMLCollector: NSObject, XMLParserDelegate {
    var elements: [String] = []
    var testcases: [String] = []
    var text = ""

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName: String?, attributes: [String: String] = [:]) {
        elements.append(elementName)
        if elementName == "testcase", let name = attributes["name"] { testcases.append(name) }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
}
