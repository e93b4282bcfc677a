// SPDX-License-Identifier: MIT

extension JUnitReport {
    /// A suite's `<properties>`: the client, seed, shard, client version and catalog of the run
    /// its results come from (of each run, for a merged report), so CI views can tell shards apart.
    static func properties(_ report: RunReport, results: [CaseResult]) -> String {
        var pairs: [(String, String)] = []
        if let context = report.context, !context.runs.isEmpty {
            let runs = Set(results.compactMap(\.run)).sorted().compactMap { context.runs.indices.contains($0) ? context.runs[$0] : nil }
            for run in runs {
                pairs.append(("client", run.client))
                if let version = run.clientVersion { pairs.append(("clientVersion", version)) }
                if let shard = run.shard { pairs.append(("shard", shard.description)) }
                pairs.append(("seed", String(run.seed)))
            }
            pairs.append(("catalog", context.catalog))
        } else {
            pairs.append(("client", report.client))
            if let version = report.context?.clientVersion { pairs.append(("clientVersion", version)) }
            if let shard = report.context?.shard { pairs.append(("shard", shard.description)) }
            pairs.append(("seed", String(report.summary.seed)))
            if let catalog = report.context?.catalog { pairs.append(("catalog", catalog)) }
        }
        var xml = "    <properties>"
        for (name, value) in pairs { xml += #"<property name="\#(escape(name))" value="\#(escape(value))"/>"# }
        return xml + "</properties>\n"
    }
}
