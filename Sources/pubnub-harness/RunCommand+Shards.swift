// SPDX-License-Identifier: MIT
import ArgumentParser
import ConformanceKit
import Foundation

/// `run --shard K/N`, `--list-shards N`, `--client-version`, `--verbose`: where the selected
/// cases are split and where a report learns its catalog, shard and client version.
extension RunCommand {
    /// The shard `--shard` names (validated in `validate()`).
    var shardSpec: ShardSpec? { shard.flatMap(ShardSpec.parse) }

    func validateShards() throws {
        if let shard, ShardSpec.parse(shard) == nil {
            throw ValidationError("--shard must be K/N with 1 <= K <= N <= \(ShardSpec.maximumCount), e.g. 2/4")
        }
        if let listShards, !(1...ShardSpec.maximumCount).contains(listShards) {
            throw ValidationError("--list-shards must be from 1 to \(ShardSpec.maximumCount)")
        }
        if listShards != nil, shard != nil { throw ValidationError("--list-shards and --shard cannot be combined") }
    }

    /// With `--list-shards N`: prints the split of `cases` and returns true (nothing runs). With
    /// `--shard K/N`: keeps shard K's cases (none is fine) and says so. Otherwise leaves them.
    func applyShards<Case>(_ cases: inout [Case], id: (Case) -> String, expectedMilliseconds: (Case) -> Int) -> Bool {
        let items = cases.map { ShardPlan.Item(id: id($0), expectedMilliseconds: expectedMilliseconds($0)) }
        if let listShards {
            FileHandle.standardOutput.write(Data(ShardPlan.listing(ShardPlan.split(items, count: listShards)).utf8))
            return true
        }
        guard let spec = shardSpec else { return false }
        let selected = cases.count
        cases = ShardPlan.select(cases, shard: spec, id: id, expectedMilliseconds: expectedMilliseconds)
        say("shard \(spec): \(cases.count) of \(selected) selected case(s)")
        return false
    }

    /// `report` with its context: the family's whole catalog, the shard and the client version.
    func withContext(_ report: RunReport) -> RunReport {
        let ids: [String]
        if family == "pusher" {
            ids = PusherCatalog.all().map(\.id)
        } else {
            ids = ((try? CatalogSource.load(vectors: vectors))?.cases ?? []).map(\.id)
        }
        var report = report
        report.context = RunContext(family: family, catalog: CatalogIdentity.fingerprint(family: family, ids: ids),
                                    catalogSize: ids.count, shard: shardSpec,
                                    clientVersion: clientVersion, harnessVersion: HarnessVersion.current)
        if verbose { ConsoleReporter().timelines(report) }
        return report
    }
}
