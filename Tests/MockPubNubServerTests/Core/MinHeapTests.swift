// SPDX-License-Identifier: MIT
import HarnessServerCore
import Testing

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct MinHeapTests {
    @Test func popsInOrderAndRebuildsAfterRemovals() {
        var heap = MinHeap<Int>()
        // 0..<200 scrambled (61 is coprime with 200), with duplicates of every tenth.
        let values = (0..<200).map { ($0 * 61) % 200 } + (0..<20).map { $0 * 10 }
        for value in values { heap.insert(value) }
        #expect(heap.count == 220)
        #expect(heap.min == 0)
        #expect(heap.popMin(if: { $0 > 0 }) == nil)
        #expect(heap.removeAll { $0 % 3 == 0 } == 67 + 7)
        var out: [Int] = []
        while let value = heap.popMin() { out.append(value) }
        let expected = (values.filter { $0 % 3 != 0 }).sorted()
        #expect(out == expected)
        #expect(heap.isEmpty && heap.popMin() == nil)
    }
}
