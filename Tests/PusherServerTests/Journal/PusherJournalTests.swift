// SPDX-License-Identifier: MIT
import MockPusher
import PusherServer
import Testing

/// The journal's ring: consecutive sequences per app key, the last `capacity` entries, `since`,
/// clearing, and socket ids given back as recorded.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct PusherJournalTests {
    private func record(_ journal: PusherJournal, _ key: String, _ number: Int, socketID: PusherSocketID? = nil) {
        journal.record(key, at: PusherInstant(milliseconds: Int64(number)), connection: UInt64(number), socketID: socketID, .text("m\(number)"))
    }

    @Test func keepsTheLastCapacityEntriesWithTheirSequences() {
        let journal = PusherJournal(capacity: 4)
        for number in 1...10 { record(journal, "k", number) }
        let entries = journal.entries(for: "k")
        #expect(entries.map(\.sequence) == [7, 8, 9, 10])
        #expect(entries.map(\.kind) == (7...10).map { .text("m\($0)") })
        #expect(entries.map(\.at.milliseconds) == [7, 8, 9, 10] && entries.map(\.connection) == [7, 8, 9, 10])
        #expect(journal.entries(for: "k", since: 8).map(\.sequence) == [9, 10])
        #expect(journal.entries(for: "k", since: 2).map(\.sequence) == [7, 8, 9, 10])
        #expect(journal.entries(for: "k", since: 10).isEmpty && journal.entries(for: "k", since: 99).isEmpty)
        #expect(journal.entries(for: "other").isEmpty)
    }

    @Test func sequencesContinueAfterAClearAndPerKey() {
        let journal = PusherJournal(capacity: 3)
        for number in 1...5 { record(journal, "a", number) }
        record(journal, "b", 1)
        journal.clear("a")
        #expect(journal.entries(for: "a").isEmpty)
        record(journal, "a", 6)
        #expect(journal.entries(for: "a").map(\.sequence) == [6])
        #expect(journal.entries(for: "a", since: 5).map(\.sequence) == [6])
        #expect(journal.entries(for: "b").map(\.sequence) == [1])
        #expect(journal.keys == ["a", "b"])
    }

    @Test func socketIDsComeBackAsRecorded() {
        let journal = PusherJournal()
        record(journal, "k", 1, socketID: PusherSocketID("45481.3166671"))
        record(journal, "k", 2)
        #expect(journal.entries(for: "k").map(\.socketID) == ["45481.3166671", nil])
    }
}
