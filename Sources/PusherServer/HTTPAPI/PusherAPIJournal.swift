// SPDX-License-Identifier: MIT
import Synchronization

/// One answered HTTP API request, as journaled.
public struct PusherAPIJournalEntry: Sendable, Hashable {
    public var method: String
    public var path: String
    public var status: Int
    /// For terminate requests: which path form was used (the short one is UNVERIFIED, spec §6.2).
    public var terminateForm: PusherAPIRoute.TerminatePathForm?
}

/// The last `capacity` HTTP API requests (older ones are dropped: memory stays bounded).
public final class PusherAPIJournal: Sendable {
    public let capacity: Int
    private let entries = Mutex<[PusherAPIJournalEntry]>([])

    public init(capacity: Int = 1024) { self.capacity = max(1, capacity) }

    func append(_ entry: PusherAPIJournalEntry) {
        entries.withLock { entries in
            if entries.count >= capacity { entries.removeFirst(entries.count - capacity + 1) }
            entries.append(entry)
        }
    }

    /// The entries kept, oldest first.
    public var all: [PusherAPIJournalEntry] { entries.withLock { $0 } }
}
