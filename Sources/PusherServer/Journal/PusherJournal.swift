// SPDX-License-Identifier: MIT
import MockPusher
import Synchronization

/// What Pusher clients sent, per app key: the last `capacity` entries of each key, oldest first;
/// texts are kept up to `PusherJournalEntry.maxTextBytes` (memory stays bounded whatever clients send).
/// Suites read it to check e.g. that a client re-authorised with its new socket id after a reconnect.
public final class PusherJournal: Sendable {
    /// One entry as kept (an idle connection leaves two): its sequence is its place in the ring, its
    /// socket id one word; `entries(for:)` gives them back as `PusherJournalEntry` values.
    private struct Stored {
        var at: PusherInstant
        var connection: UInt64
        /// `PusherSocketID.packed`; 0 for none.
        var socketID: UInt64
        var kind: PusherJournalEntry.Kind

        func entry(sequence: UInt64) -> PusherJournalEntry {
            PusherJournalEntry(
                sequence: sequence, at: at, connection: connection,
                socketID: socketID == 0 ? nil : PusherSocketID(packed: socketID).description, kind: kind)
        }
    }

    private struct Ring {
        var entries: [Stored] = []
        var lastSequence: UInt64 = 0
        /// The last text kept: an equal text (thousands of clients subscribing alike) shares its storage.
        var lastText = ""

        /// The sequence of `entries[0]` (sequences are consecutive: entries leave only from the front).
        var firstSequence: UInt64 { lastSequence - UInt64(entries.count) + 1 }

        /// `kind`, bounded, its text shared with the previous equal one.
        mutating func compact(_ kind: PusherJournalEntry.Kind) -> PusherJournalEntry.Kind {
            let bounded = kind.bounded
            guard case .text(let text, let truncated) = bounded else { return bounded }
            if text == lastText { return .text(lastText, truncated: truncated) }
            lastText = text
            return .text(text, truncated: truncated)
        }

        /// Grows a full array by doubling, but never beyond `limit` entries (the trim point): a full
        /// journal holds `limit` entries, not the next power of two.
        mutating func reserveForAppend(upTo limit: Int) {
            guard entries.count == entries.capacity, entries.count < limit else { return }
            entries.reserveCapacity(min(limit, max(16, entries.count * 2)))
        }
    }

    public let capacity: Int
    private let rings = Mutex<[String: Ring]>([:])

    public init(capacity: Int = 10_000) { self.capacity = max(1, capacity) }

    /// The number of entries at which a ring is trimmed back to `capacity`.
    private var trimAt: Int { capacity + max(1, capacity / 4) }

    /// Appends an entry for `appKey` (its sequence is assigned here).
    package func record(_ appKey: String, at: PusherInstant, connection: UInt64, socketID: PusherSocketID?, _ kind: PusherJournalEntry.Kind) {
        rings.withLock { rings in
            // Mutated in place: no copy of the ring per entry.
            rings[appKey, default: Ring()].lastSequence += 1
            let kind = rings[appKey, default: Ring()].compact(kind)
            rings[appKey, default: Ring()].reserveForAppend(upTo: trimAt)
            rings[appKey, default: Ring()].entries.append(Stored(at: at, connection: connection, socketID: socketID?.packed ?? 0, kind: kind))
            // Trimmed in batches (a quarter of the capacity at a time); readers see the last `capacity`.
            let count = rings[appKey, default: Ring()].entries.count
            if count >= trimAt { rings[appKey, default: Ring()].entries.removeFirst(count - capacity) }
        }
    }

    /// The entries of `appKey` with a sequence above `since`, oldest first.
    public func entries(for appKey: String, since: UInt64 = 0) -> [PusherJournalEntry] {
        rings.withLock { rings in
            guard let ring = rings[appKey] else { return [] }
            let first = ring.firstSequence
            let start = max(ring.entries.count - capacity, since >= first ? Int(min(since - first + 1, UInt64(ring.entries.count))) : 0)
            return ring.entries[start...].enumerated().map { offset, stored in stored.entry(sequence: first + UInt64(start + offset)) }
        }
    }

    /// The keys with entries.
    public var keys: [String] { rings.withLock { $0.keys.sorted() } }

    /// Forgets the entries of `appKey` (sequences continue).
    public func clear(_ appKey: String) { rings.withLock { $0[appKey]?.entries.removeAll() } }

    /// Forgets every entry.
    public func clearAll() { rings.withLock { $0.removeAll() } }
}
