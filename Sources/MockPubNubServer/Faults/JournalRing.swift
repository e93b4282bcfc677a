// SPDX-License-Identifier: MIT

/// The journal of one subscribe key: the last `capacity` entries, oldest first.
struct JournalRing: Sendable {
    let capacity: Int
    private var storage: [JournalEntry] = []
    private var start = 0
    /// Entries dropped because the ring was full.
    private(set) var dropped = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var count: Int { storage.count }

    mutating func append(_ entry: JournalEntry) {
        if storage.count < capacity {
            storage.append(entry)
        } else {
            storage[start] = entry
            start = (start + 1) % capacity
            dropped += 1
        }
    }

    /// Entries with `sequence > since`, oldest first.
    func entries(since: UInt64) -> [JournalEntry] {
        var result: [JournalEntry] = []
        for offset in 0..<storage.count {
            let entry = storage[(start + offset) % storage.count]
            if entry.sequence > since { result.append(entry) }
        }
        return result
    }
}
