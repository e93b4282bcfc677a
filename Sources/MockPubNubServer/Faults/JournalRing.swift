// SPDX-License-Identifier: MIT

/// One journal slot, a plain value: the request as it arrived (bounded, see
/// `JournalRecord.bounded(_:)`), its connection facts, what the fault layer decided and, once
/// the server answered, how. Rendering the `JournalEntry` (route, header and query copies, body
/// text) waits until someone reads the journal; the route and the uuid are derived again then
/// (classification is pure).
struct JournalRecord: Sendable {
    var sequence: UInt64
    var subscribeKey: String
    /// The rule that fired, boxed: a ring keeps a record per request (10,000 per key by
    /// default), and nearly all have none (8 bytes a record instead of 56).
    private var firedRule: FiredRuleBox?
    /// The rule that fired on this request, if one did.
    var fired: FiredRule? { firedRule?.rule }
    /// The request as it arrived (a parsed request keeps its head in one buffer; the split path
    /// and query are derived again on reading).
    var request: HTTPRequest
    var context: RequestContext
    /// How the server answered; `nil` while it has not (a parked long-poll).
    var answer: JournalAnswer?

    /// The record of `request`, its body cut to `maxJournaledBodyBytes` (a copy only for a large
    /// upload; otherwise the same storage), made through the memberwise initializer: an
    /// initializer of its own is built into a local and copied out (every field retained, then
    /// released), where the memberwise one is built in place (`JournalRing.append(sequence:…)`
    /// builds the record as the ring's element). No initializer is declared in this body, so
    /// that the memberwise one exists.
    @inline(__always)
    static func make(
        sequence: UInt64, subscribeKey: String, fired: FiredRule?, request: HTTPRequest, context: RequestContext
    ) -> JournalRecord {
        JournalRecord(
            sequence: sequence, subscribeKey: subscribeKey, firedRule: fired.map(FiredRuleBox.init),
            request: bounded(request), context: context)
    }

    /// `request` with its body cut to `maxJournaledBodyBytes`: the same request unless it is longer.
    private static func bounded(_ request: HTTPRequest) -> HTTPRequest {
        guard request.body.count > maxJournaledBodyBytes else { return request }
        var bounded = request
        bounded.body = Self.bounded(request.body)
        return bounded
    }

    var entry: JournalEntry {
        let request = self.request
        let route = try? PubNubRoute.classify(request).get()
        var entry = JournalEntry(
            sequence: sequence, request: request, context: context, route: route,
            subscribeKey: subscribeKey, uuid: route?.uuid ?? request.queryItems?["uuid"], fired: fired)
        entry.answer = answer
        if request.method == PushNotice.journalMethod { entry.endpoint = .push }
        return entry
    }
}

/// A fired rule kept out of line by a journal record.
final class FiredRuleBox: Sendable {
    let rule: FiredRule
    init(_ rule: FiredRule) { self.rule = rule }
}

/// Where a record sits in its key's ring, so that its answer can be written into it later.
struct JournalPosition: Sendable {
    /// The ring's append count when the record was appended.
    var index: Int
    /// The record's sequence number: a ring emptied and refilled since never takes the answer.
    var sequence: UInt64
}

/// The journal of one subscribe key: the last `capacity` records, oldest first, stored as values
/// (the storage grows to `capacity` once and is then overwritten in place).
///
/// A class, so that the responder recording a request's answer keeps its ring and writes into
/// it without looking the key up again.
// @unchecked Sendable: every access (append, setAnswer, entries) happens under the fault
// layer's state lock, the only place a ring is created and kept; the same lock makes the
// exclusivity checks of its fields redundant, so they are off.
final class JournalRing: @unchecked Sendable {
    let capacity: Int
    /// The fault layer whose lock guards the ring (weakly: the layer keeps its rings), so that a
    /// request's answer writer needs no reference of its own to it. Set once, at creation.
    private(set) weak var owner: FaultLayer?
    @exclusivity(unchecked) private var storage: [JournalRecord] = []
    @exclusivity(unchecked) private var start = 0
    /// Records ever appended; record `n` (from 0) lives at `storage[n % capacity]` while kept.
    @exclusivity(unchecked) private var appended = 0
    /// Entries dropped because the ring was full.
    @exclusivity(unchecked) private(set) var dropped = 0

    init(capacity: Int, owner: FaultLayer? = nil) {
        self.capacity = max(1, capacity)
        self.owner = owner
    }

    var count: Int { storage.count }

    /// Appends `record`; returns where it is and the oldest record when the ring was full, so
    /// that the caller can free that one after releasing its lock.
    func append(_ record: consuming JournalRecord) -> (position: JournalPosition, evicted: JournalRecord?) {
        let position = JournalPosition(index: appended, sequence: record.sequence)
        appended += 1
        if storage.count < capacity {
            storage.append(consume record)
            return (position, nil)
        }
        var evicted = consume record
        swap(&evicted, &storage[start])
        start = (start + 1) % capacity
        dropped += 1
        return (position, evicted)
    }

    /// `append(JournalRecord.make(sequence:subscribeKey:fired:request:context:))`, the record built
    /// here, where it is stored.
    @inline(never)
    func append(
        sequence: UInt64, subscribeKey: String, fired: FiredRule?, request: HTTPRequest, context: RequestContext
    ) -> (position: JournalPosition, evicted: JournalRecord?) {
        let position = JournalPosition(index: appended, sequence: sequence)
        appended += 1
        if storage.count < capacity {
            storage.append(JournalRecord.make(
                sequence: sequence, subscribeKey: subscribeKey, fired: fired, request: request, context: context))
            return (position, nil)
        }
        var evicted = JournalRecord.make(
            sequence: sequence, subscribeKey: subscribeKey, fired: fired, request: request, context: context)
        swap(&evicted, &storage[start])
        start = (start + 1) % capacity
        dropped += 1
        return (position, evicted)
    }

    /// Writes `answer` into the record at `position` if it is still kept; with `ifUnanswered`
    /// only when it has no answer yet.
    func setAnswer(_ answer: JournalAnswer, at position: JournalPosition, ifUnanswered: Bool = false) {
        setAnswer(at: position, ifUnanswered: ifUnanswered) { _ in answer }
    }

    /// `setAnswer(_:at:ifUnanswered:)` with the answer made from the record (its arrival time).
    func setAnswer(at position: JournalPosition, ifUnanswered: Bool = false, _ make: (JournalRecord) -> JournalAnswer) {
        guard position.index < appended, appended - position.index <= storage.count else { return }
        let slot = position.index % capacity
        guard storage[slot].sequence == position.sequence else { return }
        if ifUnanswered && storage[slot].answer != nil { return }
        storage[slot].answer = make(storage[slot])
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
