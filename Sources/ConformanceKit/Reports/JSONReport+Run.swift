// SPDX-License-Identifier: MIT
import HarnessJSON

/// The parts of the JSON report that say where a run comes from (`run`, `runs`) and a case's
/// timeline (schema version 4).
extension JSONReport {
    /// `run` (the catalog, shard and versions) and, for a merged report, `runs`.
    static func contextMembers(_ context: RunContext?) -> [(String, JSONValue)] {
        guard let context else { return [] }
        var run: [(String, JSONValue)] = [
            ("family", .string(context.family)), ("catalog", .string(context.catalog)),
            ("catalogSize", .int(context.catalogSize)), ("harnessVersion", .string(context.harnessVersion)),
        ]
        if let shard = context.shard { run.append(("shard", .string(shard.description))) }
        if let version = context.clientVersion { run.append(("clientVersion", .string(version))) }
        var members: [(String, JSONValue)] = [("run", .object(JSONObject(run)))]
        if !context.runs.isEmpty {
            members.append(("runs", .array(context.runs.map(runValue))))
        }
        return members
    }

    static func runValue(_ record: RunRecord) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("client", .string(record.client)), ("seed", .string(String(record.seed))),
            ("durationSeconds", .double((record.durationSeconds * 1_000).rounded() / 1_000)),
            ("cases", .int(record.cases)), ("source", .string(record.source)),
        ]
        if let version = record.clientVersion { members.append(("clientVersion", .string(version))) }
        if let shard = record.shard { members.append(("shard", .string(shard.description))) }
        return .object(JSONObject(members))
    }

    /// A case's `timeline`: the journal counts, the failing step and the items.
    static func timelineValue(_ timeline: CaseTimeline) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("origin", .double(timeline.origin)),
            ("journalRequests", .int(timeline.journalRequests)), ("journalFaults", .int(timeline.journalFaults)),
        ]
        if let step = timeline.failingStep { members.append(("failingStep", .int(step))) }
        members.append(("items", .array(timeline.items.map { item in
            var fields: [(String, JSONValue)] = [
                ("kind", .string(item.kind.rawValue)), ("atMs", .double(item.atMs)), ("label", .string(item.label)),
            ]
            if !item.full.isEmpty { fields.append(("full", .string(item.full))) }
            if let connection = item.connection { fields.append(("connection", .int(connection))) }
            if let sequence = item.sequence { fields.append(("sequence", .int(sequence))) }
            if item.failing { fields.append(("failing", .bool(true))) }
            return .object(JSONObject(fields))
        })))
        return .object(JSONObject(members))
    }
}
