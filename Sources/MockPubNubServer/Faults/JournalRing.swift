// SPDX-License-Identifier: MIT

/// One journal slot: the request as it arrived and what the fault layer decided. Rendering the
/// `JournalEntry` (header and query copies, body text) waits until someone reads the journal,
/// so recording costs a few reference-count increments per request.
struct JournalRecord: Sendable {
    var sequence: UInt64
    var request: HTTPRequest
    var context: RequestContext
    var route: PubNubRoute?
    var subscribeKey: String
    var uuid: String?
    var fired: FiredRule?

    var entry: JournalEntry {
        JournalEntry(
            sequence: sequence, request: request, context: context, route: route, subscribeKey: subscribeKey,
            uuid: uuid, fired: fired)
    }
}

/// The journal of one subscribe key: the last `capacity` records, oldest first.
struct JournalRing: Sendable {
    let capacity: Int
    private var storage: [JournalRecord] = []
    private var start = 0
    /// Entries dropped because the ring was full.
    private(set) var dropped = 0

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    var count: Int { storage.count }

    /// Appends `entry`; returns the oldest record when the ring was full, so that the caller can
    /// free it after releasing its lock.
    mutating func append(_ entry: JournalRecord) -> JournalRecord? {
        if storage.count < capacity {
            storage.append(entry)
            return nil
        }
        let evicted = storage[start]
        storage[start] = entry
        start = (start + 1) % capacity
        dropped += 1
        return evicted
    }

    /// Entries with `sequence > since`, oldest first.
    func entries(since: UInt64) -> [JournalEntry] {
        var result: [JournalEntry] = []
        for offset in 0..<storage.count {
            let record = storage[(start + offset) % storage.count]
            if record.sequence > since { result.append(record.entry) }
        }
        return result
    }
}
