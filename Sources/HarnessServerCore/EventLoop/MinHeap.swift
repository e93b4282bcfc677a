// SPDX-License-Identifier: MIT

/// A binary min-heap: `min` is the least element (`<`), `popMin` takes it out in O(log n). It
/// lives beside the event loop, whose timer heap is its hot user: in this module its code is
/// specialized for the timer entries (from another module it ran as unspecialized generic code,
/// +3 k instructions per publish).
/// Equal elements come out in no particular order, so an element that must keep insertion order
/// among equals carries a sequence number in its comparison (as the loop's timers do).
package struct MinHeap<Element: Comparable> {
    @usableFromInline var items: [Element] = []

    @inlinable package init() {}

    @inlinable package var count: Int { items.count }
    @inlinable package var isEmpty: Bool { items.isEmpty }
    /// The least element.
    @inlinable package var min: Element? { items.first }

    @inlinable package mutating func insert(_ element: Element) {
        items.append(element)
        siftUp(items.count - 1)
    }

    /// Removes and returns the least element.
    @inlinable package mutating func popMin() -> Element? {
        guard let first = items.first else { return nil }
        let last = items.removeLast()
        if !items.isEmpty {
            items[0] = last
            siftDown(0)
        }
        return first
    }

    /// Removes and returns the least element if `isDue` says so.
    @inlinable package mutating func popMin(if isDue: (Element) -> Bool) -> Element? {
        guard let first = items.first, isDue(first) else { return nil }
        return popMin()
    }

    /// Drops the elements `shouldBeRemoved` names and rebuilds the heap; how many were dropped.
    @inlinable @discardableResult
    package mutating func removeAll(where shouldBeRemoved: (Element) throws -> Bool) rethrows -> Int {
        let before = items.count
        try items.removeAll(where: shouldBeRemoved)
        for index in stride(from: items.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
        return before - items.count
    }

    @inlinable package mutating func removeAll() { items.removeAll() }

    @inlinable mutating func siftUp(_ index: Int) {
        var child = index
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child] < items[parent] else { return }
            items.swapAt(child, parent)
            child = parent
        }
    }

    @inlinable mutating func siftDown(_ index: Int) {
        var parent = index
        while true {
            let left = 2 * parent + 1
            guard left < items.count else { return }
            var least = left
            if left + 1 < items.count && items[left + 1] < items[left] { least = left + 1 }
            guard items[least] < items[parent] else { return }
            items.swapAt(least, parent)
            parent = least
        }
    }
}
