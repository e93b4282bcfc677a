// SPDX-License-Identifier: MIT
import Foundation

/// The result of `verify`: every recording's exchanges and their verdicts (the `--json` report).
public struct VerifyReport: Sendable, Hashable, Codable {
    /// The version of this report's layout.
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    /// The harness that verified (`pubnub-harness 1.2.0`).
    public var tool: String
    /// What was replayed against (`in-process mock`, `127.0.0.1:8090`).
    public var target: String
    /// When verification started (ISO 8601, UTC).
    public var started: String
    public var durationSeconds: Double
    public var summary: VerifySummary
    public var recordings: [VerifiedRecording]

    public init(tool: String, target: String, started: String, durationSeconds: Double, recordings: [VerifiedRecording]) {
        schemaVersion = Self.currentSchemaVersion
        self.tool = tool
        self.target = target
        self.started = started
        self.durationSeconds = durationSeconds
        self.recordings = recordings
        summary = VerifySummary(recordings.flatMap(\.exchanges))
    }

    /// 0 when nothing failed (skipped exchanges included), 1 otherwise: `run`'s statuses.
    public var exitStatus: Int32 { summary.failed + summary.errors == 0 ? 0 : 1 }

    /// The `--json` text.
    public func jsonText() -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return ((try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}") + "\n"
    }

    enum CodingKeys: String, CodingKey {
        case tool, target, started, summary, recordings
        case schemaVersion = "schema_version"
        case durationSeconds = "duration_seconds"
    }
}

/// One recording's verdicts.
public struct VerifiedRecording: Sendable, Hashable, Codable {
    /// The file as given on the command line.
    public var file: String
    /// Where it was recorded.
    public var upstream: String
    public var summary: VerifySummary
    public var exchanges: [ExchangeVerdict]

    public init(file: String, upstream: String, exchanges: [ExchangeVerdict]) {
        self.file = file
        self.upstream = upstream
        self.exchanges = exchanges
        summary = VerifySummary(exchanges)
    }
}

/// Counts of verdicts.
public struct VerifySummary: Sendable, Hashable, Codable {
    public var total: Int
    public var passed: Int
    public var failed: Int
    public var skipped: Int
    public var errors: Int

    public init(_ verdicts: [ExchangeVerdict]) {
        total = verdicts.count
        passed = verdicts.count { $0.outcome == .pass }
        failed = verdicts.count { $0.outcome == .fail }
        skipped = verdicts.count { $0.outcome == .skipped }
        errors = verdicts.count { $0.outcome == .error }
    }

    /// `PASS: 40 exchanges verified (38 passed, 2 skipped)` or `FAIL: 3 of 40 exchanges differ …`.
    public var line: String {
        let detail = "\(passed) passed, \(failed) failed, \(errors) without an answer, \(skipped) skipped"
        return failed + errors == 0 ? "PASS: \(total) exchanges verified (\(detail))" : "FAIL: \(failed + errors) of \(total) exchanges differ (\(detail))"
    }
}
