// SPDX-License-Identifier: MIT
import ArgumentParser
import ConformanceKit
import Foundation
import HarnessRecording

/// `pubnub-harness verify`: replays recordings against the mock and compares every answer
/// (docs/recordings.md). Exit status as `run`: 0 all passed, 1 a difference, 2 bad input.
struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Replay recordings against the mock (in process, or --server) and report every difference from the recorded answers."
    )

    @Argument(help: "Recording files (written by record).")
    var recordings: [String] = []

    @Option(help: "Replay against a running serve at HOST:PORT instead of a mock in this process.")
    var server: String?

    @Option(help: "Write the JSON report to this file.")
    var json: String?

    @Option(help: "Write the JUnit XML report to this file.")
    var junit: String?

    @Option(help: "Write the HTML report to this file.")
    var html: String?

    @Flag(help: "Start each exchange as soon as the exchanges it waits for ended, not at its recorded offset.")
    var fast = false

    @Option(help: "Seconds beyond the recorded duration a replayed answer may take.")
    var slack = 10.0

    @Flag(help: "Print every exchange, not only the ones that differ.")
    var verbose = false

    @Flag(name: .customLong("print-default-rules"), help: "Print the built-in comparison rules (the recording format's rules object) and exit.")
    var printDefaultRules = false

    func validate() throws {
        if !printDefaultRules && recordings.isEmpty { throw ValidationError("give at least one recording file") }
        guard slack >= 0, slack.isFinite else { throw ValidationError("--slack must be >= 0 seconds") }
        if let server, AdminHTTPServer.hostAndPort(server) == nil { throw ValidationError("--server must be HOST:PORT, got '\(server)'") }
    }

    func run() async throws {
        if printDefaultRules {
            var endpoints = DefaultRules.byEndpoint
            endpoints["*"] = DefaultRules.common
            print(String(decoding: RecordingRules(endpoints: endpoints).prettyJSON, as: UTF8.self))
            return
        }
        var loaded: [(file: String, recording: Recording)] = []
        for file in recordings {
            let bytes = try readInput(file, what: "recording")
            do { loaded.append((file, try Recording.decode([UInt8](bytes)))) } catch { throw UsageError("\(file): \(error)") }
        }
        for path in [json, junit, html].compactMap({ $0 }) {
            do { try ReportFiles.prepare(path) } catch { throw UsageError("\(error)") }
        }
        let started = Date()
        let startedText = ISO8601DateFormatter().string(from: started)
        var inProcess: InProcessVerifyTarget?
        let target: any VerifyTarget
        do throws(VerifyError) {
            if let server, let (host, port) = AdminHTTPServer.hostAndPort(server) {
                target = try await RemoteVerifyTarget(host: host, port: port)
            } else {
                let made = try InProcessVerifyTarget()
                inProcess = made
                target = made
            }
        } catch {
            throw error.isUsage ? UsageError("\(error)") : CLIFailure("\(error)")
        }
        var verified: [VerifiedRecording] = []
        for (file, recording) in loaded {
            let options = VerifyOptions(keepTiming: !fast, slackSeconds: slack)
            do throws(VerifyError) {
                let verdicts = try await Replayer(recording: recording, target: target, options: options).run()
                verified.append(VerifiedRecording(file: file, upstream: recording.recorded.upstream, exchanges: verdicts))
            } catch {
                await inProcess?.shutdown()
                throw error.isUsage ? UsageError("\(file): \(error)") : CLIFailure("\(file): \(error)")
            }
        }
        await inProcess?.shutdown()
        let report = VerifyReport(tool: "pubnub-harness \(HarnessVersion.current)", target: target.name, started: startedText,
                                  durationSeconds: Date().timeIntervalSince(started), recordings: verified)
        print(VerifyConsole.render(report, verbose: verbose), terminator: "")
        do {
            if let json { try ReportFiles.write(Data(report.jsonText().utf8), to: json) }
            if let junit { try ReportFiles.write(Data(VerifyJUnit.encode(report).utf8), to: junit) }
            if let html { try ReportFiles.write(Data(VerifyHTML.encode(report).utf8), to: html) }
        } catch {
            throw CLIFailure("\(error)")
        }
        if report.exitStatus != 0 { throw ExitCode(report.exitStatus) }
    }
}

extension VerifyError {
    /// Bad input (exit 2) rather than a failure of the run (exit 1).
    var isUsage: Bool {
        switch self {
        case .rules, .serverUnreachable: true
        case .serverStart, .keyset: false
        }
    }
}
