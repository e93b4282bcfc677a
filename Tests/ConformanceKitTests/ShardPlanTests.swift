// SPDX-License-Identifier: MIT
import Testing
@testable import ConformanceKit

/// `run --shard K/N`: the split is a function of ids and expected durations only, covers every
/// case exactly once, and is balanced.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ShardPlanTests {
    static let catalog = ConformanceCatalog.all()
    static let items = catalog.map { ShardPlan.Item(id: $0.id, expectedMilliseconds: ShardPlan.expectedMilliseconds($0)) }

    @Test func parsesKOfN() {
        #expect(ShardSpec.parse("2/4") == ShardSpec(index: 2, count: 4))
        #expect(ShardSpec.parse("1/1")?.description == "1/1")
        for bad in ["0/4", "5/4", "4", "a/b", "1/0", "-1/4", "1/4/2", "", "/4", "2/", "1/1001", " 1/2", "1/2 "] {
            #expect(ShardSpec.parse(bad) == nil, "\(bad)")
        }
    }

    @Test(arguments: [1, 2, 3, 4, 7, 16])
    func everyCaseInExactlyOneShard(count: Int) {
        let shards = ShardPlan.split(Self.items, count: count)
        #expect(shards.count == count)
        let all = shards.flatMap(\.ids)
        #expect(all.count == Self.items.count)
        #expect(Set(all) == Set(Self.items.map(\.id)))
        // Each shard keeps catalog order.
        let position = Dictionary(uniqueKeysWithValues: Self.items.enumerated().map { ($1.id, $0) })
        for shard in shards {
            let positions = shard.ids.map { position[$0]! }
            #expect(positions == positions.sorted())
        }
        #expect(shards.map(\.expectedMilliseconds).reduce(0, +) == Self.items.map(\.expectedMilliseconds).reduce(0, +))
    }

    @Test func independentOfInputOrderAndRepeatable() {
        var generator = SeededGenerator(seed: 99)
        let shuffled = Self.items.shuffled(using: &generator)
        let a = ShardPlan.split(Self.items, count: 4).map { Set($0.ids) }
        let b = ShardPlan.split(shuffled, count: 4).map { Set($0.ids) }
        #expect(a == b)
        #expect(ShardPlan.split(Self.items, count: 4) == ShardPlan.split(Self.items, count: 4))
        // select() agrees with split() and is the same for any K on the same input.
        let selected = (1...4).map { k in
            ShardPlan.select(Self.catalog, shard: ShardSpec(index: k, count: 4)!, id: \.id,
                             expectedMilliseconds: ShardPlan.expectedMilliseconds).map(\.id)
        }
        #expect(selected == ShardPlan.split(Self.items, count: 4).map(\.ids))
    }

    /// Longest-first placement: no shard exceeds the lightest by more than the longest case.
    @Test(arguments: [2, 4, 8])
    func balancedByExpectedDuration(count: Int) {
        let loads = ShardPlan.split(Self.items, count: count).map(\.expectedMilliseconds)
        let longest = Self.items.map(\.expectedMilliseconds).max()!
        #expect(loads.max()! - loads.min()! <= longest)
        let ideal = Double(loads.reduce(0, +)) / Double(count)
        #expect(Double(loads.max()!) <= ideal + Double(longest))
    }

    @Test func knownSmallSplitAndTies() {
        let items = [("a", 5), ("b", 5), ("c", 3), ("d", 3), ("e", 3), ("f", 1)].map { ShardPlan.Item(id: $0.0, expectedMilliseconds: $0.1) }
        // Longest first, ties by id; equal loads go to the lower shard: a→1, b→2, c→1, d→2, e→1, f→2.
        let shards = ShardPlan.split(items, count: 2)
        #expect(shards.map(\.ids) == [["a", "c", "e"], ["b", "d", "f"]])
        #expect(shards.map(\.expectedMilliseconds) == [11, 9])
    }

    @Test func moreShardsThanCasesLeavesEmptyShards() {
        let items = [ShardPlan.Item(id: "x", expectedMilliseconds: 10), ShardPlan.Item(id: "y", expectedMilliseconds: 20)]
        let shards = ShardPlan.split(items, count: 4)
        #expect(shards.map(\.ids) == [["y"], ["x"], [], []])
        #expect(ShardPlan.select(["x", "y"], shard: ShardSpec(index: 3, count: 4)!, id: { $0 }, expectedMilliseconds: { _ in 1 }).isEmpty)
        #expect(ShardPlan.split([], count: 3).map(\.ids) == [[], [], []])
        #expect(ShardPlan.listing(shards).hasPrefix("shard 1/4: 1 case(s), expected 0.0 s\n  y\nshard 2/4: 1 case(s)"))
    }

    @Test func pusherCasesSplitToo() {
        let cases = PusherCatalog.all()
        let shards = (1...3).map { k in
            ShardPlan.select(cases, shard: ShardSpec(index: k, count: 3)!, id: \.id, expectedMilliseconds: ShardPlan.expectedMilliseconds).map(\.id)
        }
        #expect(Set(shards.flatMap { $0 }) == Set(cases.map(\.id)))
        #expect(shards.flatMap { $0 }.count == cases.count)
    }
}
