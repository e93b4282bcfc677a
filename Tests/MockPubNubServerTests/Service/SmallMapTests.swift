// SPDX-License-Identifier: MIT
import Testing
@testable import MockPubNubServer

/// The small insertion-ordered map of a presence record.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct SmallMapTests {
    @Test func setReplaceRemoveAndOrder() {
        var map: SmallMap<String, Int> = [:]
        #expect(map.isEmpty)
        map["b"] = 1
        map["a"] = 2
        map["b"] = 3
        #expect(map.count == 2)
        #expect(map["b"] == 3 && map["a"] == 2 && map["c"] == nil)
        #expect(map.keys == ["b", "a"])
        #expect(map.values == [3, 2])
        map["a"] = nil
        #expect(map.keys == ["b"])
        let removed = map.removeValue(forKey: "b")
        let missing = map.removeValue(forKey: "b")
        #expect(removed == 3 && missing == nil)
        #expect(map.isEmpty)
    }

    @Test func filterKeepsAMapAndIterationYieldsPairs() {
        let map: SmallMap<String, UInt64> = ["x": 1, "y": 5, "z": 2]
        let old = map.filter { $0.value <= 2 }
        #expect(old.keys == ["x", "z"])
        #expect(old["y"] == nil)
        var seen: [String] = []
        for (key, value) in map where value > 1 { seen.append(key) }
        #expect(seen == ["y", "z"])
        let empty: SmallMap<String, UInt64>? = nil
        #expect((empty ?? [:]).isEmpty)
    }
}
