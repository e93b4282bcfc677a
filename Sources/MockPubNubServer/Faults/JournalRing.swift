// SPDX-License-Identifier: MIT

/// What the journal keeps of a request. A class, so that storing, evicting and freeing a record
/// touch one reference; and only the request and its connection facts, because whatever else a
/// record holds is freed when the ring drops it, long after it left the cache. The route and the
/// uuid are derived again (classification is pure) when someone reads the journal.
final class JournalSubject: Sendable {
    let request: HTTPRequest
    let context: RequestContext
    /// How the server answered, once it has (``recording(_:)``).
    let answer = JournalAnswerSlot()

    init(request: HTTPRequest, context: RequestContext) {
        self.request = request
        self.context = context
    }
}

/// One journal slot: the request and what the fault layer decided for it. Rendering the
/// `JournalEntry` (route, header and query copies, body text) waits until someone reads the journal.
struct JournalRecord: Sendable {
    var sequence: UInt64
    var subscribeKey: String
    var fired: FiredRule?
    var subject: JournalSubject

    var entry: JournalEntry {
        let request = subject.request
        let route = try? PubNubRoute.classify(request).get()
        var entry = JournalEntry(
            sequence: sequence, request: request, context: subject.context, route: route,
            subscribeKey: subscribeKey, uuid: route?.uuid ?? request.queryItems?["uuid"], fired: fired)
        entry.answer = subject.answer.withLock { $0 }
        if request.method == PushNotice.journalMethod { entry.endpoint = .push }
        return entry
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
        var evicted = entry
        swap(&evicted, &storage[start])
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
