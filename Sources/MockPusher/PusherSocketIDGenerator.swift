// SPDX-License-Identifier: MIT

/// Deterministic socket ids of the live shape `\d+\.\d+` (spec §3.2, e.g. `45481.3166671`): the same
/// seed gives the same sequence, so tests can predict them.
public struct PusherSocketIDGenerator: Sendable {
    private var state: UInt64

    public init(seed: UInt64) { state = seed }

    /// The next id: 1–6 digits, a dot, 1–8 digits, no leading zeros.
    public mutating func next() -> String { nextID().description }

    /// The next id in its one-word form (the same sequence as `next()`).
    package mutating func nextID() -> PusherSocketID {
        let first = nextRandom() % 999_999 + 1
        let second = nextRandom() % 99_999_999 + 1
        return PusherSocketID(first: UInt32(first), second: UInt32(second))
    }

    /// SplitMix64.
    private mutating func nextRandom() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A min-heap of (deadline, connection, generation). At most one entry per connection is live: a
/// connection's real deadline only moves later, so an entry that comes due early is re-filed with the
/// real one; the generation tells a reused connection id's entries from its predecessor's.
struct PusherDeadlineHeap {
    private var entries: [(deadline: PusherInstant, connection: PusherConnectionID, generation: UInt32)] = []

    var earliest: PusherInstant? { entries.first?.deadline }
    var isEmpty: Bool { entries.isEmpty }

    mutating func insert(_ deadline: PusherInstant, _ connection: PusherConnectionID, generation: UInt32) {
        entries.append((deadline, connection, generation))
        var child = entries.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].deadline < entries[parent].deadline else { break }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    /// Removes and returns the earliest entry if it is due at `now`.
    mutating func popDue(_ now: PusherInstant) -> (connection: PusherConnectionID, generation: UInt32)? {
        guard let first = entries.first, first.deadline <= now else { return nil }
        entries.swapAt(0, entries.count - 1)
        entries.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < entries.count, entries[left].deadline < entries[smallest].deadline { smallest = left }
            if right < entries.count, entries[right].deadline < entries[smallest].deadline { smallest = right }
            guard smallest != parent else { break }
            entries.swapAt(parent, smallest)
            parent = smallest
        }
        return (first.connection, first.generation)
    }
}
