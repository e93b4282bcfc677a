// SPDX-License-Identifier: MIT
import Foundation

/// One part of a split run: shard `index` (from 1) of `count`, as `run --shard K/N` names it.
public struct ShardSpec: Sendable, Hashable, CustomStringConvertible {
    /// The most shards a run can be split into.
    public static let maximumCount = 1_000

    public let index: Int
    public let count: Int

    /// `nil` unless `1 <= index <= count <= maximumCount`.
    public init?(index: Int, count: Int) {
        guard count >= 1, count <= Self.maximumCount, index >= 1, index <= count else { return nil }
        self.index = index
        self.count = count
    }

    /// Reads `K/N` (decimal digits only); `nil` for anything else.
    public static func parse(_ text: String) -> ShardSpec? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ !$0.isEmpty && $0.count <= 4 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
              let index = Int(parts[0]), let count = Int(parts[1]) else { return nil }
        return ShardSpec(index: index, count: count)
    }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }
}

/// A deterministic split of a run's cases into shards of about equal expected duration (pure).
///
/// The split depends only on the cases' ids and expected durations: not on the seed, the
/// machine or the order the catalog lists them in, so every runner of a CI matrix computes the
/// same split. Cases are placed longest first (ties broken by id) on the shard with the least
/// expected time so far (ties broken by the lower shard number), the classic
/// longest-processing-time rule: the longest shard exceeds the ideal by at most one case.
public enum ShardPlan {
    /// One case to place: its id and expected duration in milliseconds.
    public struct Item: Sendable, Hashable {
        public var id: String
        public var expectedMilliseconds: Int

        public init(id: String, expectedMilliseconds: Int) {
            self.id = id
            self.expectedMilliseconds = max(0, expectedMilliseconds)
        }
    }

    /// One shard of a split: its case ids in the order they were given, and their expected time.
    public struct Shard: Sendable, Hashable {
        public var ids: [String]
        public var expectedMilliseconds: Int
    }

    /// Splits `items` into `count` shards (some may be empty when there are fewer items).
    /// Each shard keeps the given order of its ids; duplicate ids are placed once.
    public static func split(_ items: [Item], count: Int) -> [Shard] {
        let count = max(1, count)
        var seen = Set<String>()
        let unique = items.filter { seen.insert($0.id).inserted }
        let longestFirst = unique.sorted {
            ($0.expectedMilliseconds, $1.id) > ($1.expectedMilliseconds, $0.id)
        }
        var loads = Array(repeating: 0, count: count)
        var shardOf: [String: Int] = [:]
        for item in longestFirst {
            var target = 0
            for shard in 1..<count where loads[shard] < loads[target] { target = shard }
            loads[target] += item.expectedMilliseconds
            shardOf[item.id] = target
        }
        var shards = (0..<count).map { Shard(ids: [], expectedMilliseconds: loads[$0]) }
        for item in unique { shards[shardOf[item.id]!].ids.append(item.id) }
        return shards
    }

    /// The elements of `cases` that fall in `shard`, in their given order.
    public static func select<Case>(
        _ cases: [Case], shard: ShardSpec, id: (Case) -> String, expectedMilliseconds: (Case) -> Int
    ) -> [Case] {
        let items = cases.map { Item(id: id($0), expectedMilliseconds: expectedMilliseconds($0)) }
        let chosen = Set(split(items, count: shard.count)[shard.index - 1].ids)
        return cases.filter { chosen.contains(id($0)) }
    }

    /// The split as text, for `run --list-shards N`: one header line per shard
    /// (`shard K/N: C case(s), expected S s`) followed by its ids, indented.
    public static func listing(_ shards: [Shard]) -> String {
        var text = ""
        for (offset, shard) in shards.enumerated() {
            let seconds = Double(shard.expectedMilliseconds) / 1_000
            text += "shard \(offset + 1)/\(shards.count): \(shard.ids.count) case(s), expected \(String(format: "%.1f", seconds)) s\n"
            for id in shard.ids { text += "  \(id)\n" }
        }
        return text
    }
}

extension ShardPlan {
    /// A PubNub case's expected duration: its derived budget (``CaseBudget/derive(_:)``).
    public static func expectedMilliseconds(_ testCase: ConformanceCase) -> Int {
        CaseExecutor.milliseconds(CaseBudget.derive(testCase))
    }

    /// A Pusher case's expected duration: its derived budget (``PusherCaseBudget/derive(_:)``).
    public static func expectedMilliseconds(_ testCase: PusherCase) -> Int {
        CaseExecutor.milliseconds(PusherCaseBudget.derive(testCase))
    }
}
