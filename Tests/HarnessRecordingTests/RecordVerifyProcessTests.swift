// SPDX-License-Identifier: MIT
import Foundation
import HarnessHTTPClient
import HarnessRecording
import Testing

/// The commands as a user runs them: `record` in front of a `serve`, `verify` in process and
/// against `--server` with its four reports, `serve --playback`, and the exit statuses of `run`
/// (0 all passed, 1 a difference, 2 bad input).
@Suite(.enabled(if: HarnessProcess.exists, "needs the built pubnub-harness binary (HarnessProcess.binary)"), .timeLimit(.minutes(TestTime.limitMinutes(10))), .offPool)
struct RecordVerifyProcessTests {
    static func port(in line: String?) -> Int? {
        guard let line, let colon = line.split(separator: " ").first?.split(separator: ":").last else { return nil }
        return Int(colon)
    }

    static func expectUsageError(_ outcome: HarnessProcess.Outcome, containing text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(outcome.status == 2, "status \(outcome.status): \(outcome.stderr)", sourceLocation: sourceLocation)
        #expect(outcome.stderr.hasPrefix("error: ") && outcome.stderr.contains(text), "\(outcome.stderr)", sourceLocation: sourceLocation)
        #expect(outcome.stderr.split(separator: "\n").count == 1, sourceLocation: sourceLocation)
    }

    @Test func recordThenVerifyWithReportsAgainstTheMockAndAServeThenPlayBack() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("harness-recordcli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

        let serve = try HarnessProcess.Server(["--port", "0", "--quiet"])
        let servePort = try #require(Self.port(in: await serve.line(after: "listening on http://")))
        let record = try HarnessProcess.Server(command: "record", [
            "--upstream", "http://127.0.0.1:\(servePort)", "--port", "0", "--tls-port", "0", "--tls-ca-out", path("ca.pem"),
            "--out", path("run.json"), "--quiet", "--redact", "session",
        ])
        let proxyPort = try #require(Self.port(in: await record.line(after: "recording proxy on http://")))
        let tlsPort = try #require(Self.port(in: await record.line(after: "recording proxy on https://")))
        let plain = try HTTPClient(host: "127.0.0.1", port: proxyPort, trust: nil, userAgent: "cli-test")
        let tls = try HTTPClient(host: "127.0.0.1", port: tlsPort, trust: .file(path("ca.pem")), userAgent: "cli-test")
        for (client, target) in [(tls, "/time/0"), (plain, "/publish/pub-c-cli/sub-c-cli/0/ch-cli/0/%22hi%22?uuid=u&session=s-0000001"),
                                 (plain, "/v2/history/sub-c-cli/channel/ch-cli?uuid=u"),
                                 (plain, "/v2/history/sub-key/sub-c-cli/channel/ch-cli?uuid=u")] {
            let answer = await client.perform(HTTPClientRequest(target: target), timeout: TestTime.budget(10))
            #expect((try? answer.get()) != nil, "\(target)")
        }
        #expect(await record.stop() == 0)
        #expect(record.text.contains("recorded 4 exchanges to \(path("run.json"))"))
        let text = try String(contentsOfFile: path("run.json"), encoding: .utf8)
        #expect(!text.contains("sub-c-cli") && !text.contains("pub-c-cli") && !text.contains("s-0000001"))

        let clean = try await HarnessProcess.run(["verify", path("run.json"), "--json", path("r.json"), "--junit", path("r.xml"),
                                                  "--html", path("r.html"), "--fast"])
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stdout.contains("PASS: 4 exchanges verified"))
        let json = try JSONDecoder().decode(VerifyReport.self, from: Data(contentsOf: URL(fileURLWithPath: path("r.json"))))
        #expect(json.summary.passed == 4 && json.target == "in-process mock")
        #expect(try String(contentsOfFile: path("r.xml"), encoding: .utf8).contains(#"<testsuites name="pubnub-harness verify" tests="4" failures="0""#))
        #expect(try String(contentsOfFile: path("r.html"), encoding: .utf8).contains("PASS: 4 exchanges verified"))
        let remote = try await HarnessProcess.run(["verify", path("run.json"), "--server", "127.0.0.1:\(servePort)", "--fast"])
        #expect(remote.status == 0, "\(remote.stdout)\(remote.stderr)")
        #expect(remote.stdout.contains("verified against 127.0.0.1:\(servePort)"))

        // A service that answers differently: exit 1, the JSON path and both values.
        try text.replacingOccurrences(of: #"[1,\"Sent\","#, with: #"[1,\"Queued\","#).write(toFile: path("changed.json"), atomically: true, encoding: .utf8)
        let changed = try await HarnessProcess.run(["verify", path("changed.json"), "--html", path("c.html"), "--fast"])
        #expect(changed.status == 1, "\(changed.stdout)\(changed.stderr)")
        #expect(changed.stdout.contains(#"$[1]: value: recorded "Queued", replayed "Sent""#))
        let page = try String(contentsOfFile: path("c.html"), encoding: .utf8)
        #expect(page.contains("class=\"sbs\"") && page.contains("Queued"))

        // Playback: the recorded publish answer (Queued) for a request of the same shape, with this client's keys.
        let playback = try HarnessProcess.Server(["--port", "0", "--quiet", "--playback", path("changed.json"), "--playback-timing", "immediate"])
        let playbackPort = try #require(Self.port(in: await playback.line(after: "listening on http://")))
        #expect(await playback.waitFor("playback: 4 recorded answers"))
        let player = try HTTPClient(host: "127.0.0.1", port: playbackPort, trust: nil, userAgent: "cli-test")
        let played = try await player.perform(HTTPClientRequest(target: "/publish/pub-c-other/sub-c-other/0/ch-cli/0/%22hi%22?uuid=u&session=zz"),
                                               timeout: TestTime.budget(10)).get()
        #expect(String(decoding: played.body, as: UTF8.self).hasPrefix(#"[1,"Queued","#))
        #expect(await playback.stop() == 0)
        #expect(await serve.stop() == 0)
    }

    @Test func badInputIsOneLineAndExitTwo() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("harness-recordcli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let notJSON = folder.appendingPathComponent("not.json").path
        try "hello".write(toFile: notJSON, atomically: true, encoding: .utf8)
        let otherVersion = folder.appendingPathComponent("v9.json").path
        try #"{"format":"pubnub-harness-recording","version":9}"#.write(toFile: otherVersion, atomically: true, encoding: .utf8)
        let badRule = folder.appendingPathComponent("rule.json").path
        let recording = Recording(recorded: RecordingOrigin(upstream: "http://x", started: "now", tool: "t"),
                                  rules: RecordingRules(endpoints: ["time": ComparisonRules(formatOnly: ["data.x"])]))
        try Data(recording.encoded()).write(to: URL(fileURLWithPath: badRule))

        Self.expectUsageError(try await HarnessProcess.run(["verify", "/missing-recording.json"]),
                              containing: "cannot read recording /missing-recording.json: No such file or directory")
        Self.expectUsageError(try await HarnessProcess.run(["verify", notJSON]), containing: "not a recording")
        Self.expectUsageError(try await HarnessProcess.run(["verify", otherVersion]), containing: "unsupported recording pubnub-harness-recording version 9")
        Self.expectUsageError(try await HarnessProcess.run(["verify", badRule]), containing: "invalid rule path \"data.x\"")
        Self.expectUsageError(try await HarnessProcess.run(["verify"]), containing: "give at least one recording file")
        let refused = RefusingPort()
        Self.expectUsageError(try await HarnessProcess.run(["verify", badRule, "--server", "127.0.0.1:\(refused.port)"]),
                              containing: "the server does not answer")
        Self.expectUsageError(try await HarnessProcess.run(["record", "--upstream", "ftp://x", "--out", "x.json"]),
                              containing: "--upstream: invalid upstream ftp://x")
        Self.expectUsageError(try await HarnessProcess.run(["serve", "--playback", notJSON]), containing: "--playback \(notJSON): not a recording")
        let rules = try await HarnessProcess.run(["verify", "--print-default-rules"])
        #expect(rules.status == 0 && rules.stdout.contains(#""subscribe" : {"#) && rules.stdout.contains("$.t.t"))
    }
}
