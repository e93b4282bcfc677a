// SPDX-License-Identifier: MIT

/// Every subscribe key in use, by key, with the entry found last remembered: consecutive
/// requests of one key (the usual case) skip hashing it. Every change forgets that entry.
struct KeyRegistry {
    private var table: [String: KeyEntry] = [:]
    /// The key found last and its entry (two fields: compared and read in place, no tuple copied).
    private var lastKey: String?
    private var lastEntry: KeyEntry?

    /// The keys that have an entry.
    var keys: Dictionary<String, KeyEntry>.Keys { table.keys }

    /// The entry of `key` (reading does not touch the remembered entry).
    subscript(key: String) -> KeyEntry? {
        get { table[key] }
        set {
            forgetLast()
            table[key] = newValue
        }
    }

    /// The entry of `key`, if it has one, through the remembered entry.
    mutating func find(_ key: String) -> KeyEntry? {
        if lastKey == key, let lastEntry { return lastEntry }
        guard let found = table[key] else { return nil }
        lastKey = key
        lastEntry = found
        return found
    }

    /// The entry of `key`, created (with fresh state and no keyset) when it has none.
    mutating func findOrCreate(_ key: String) -> KeyEntry {
        if let found = find(key) { return found }
        let created = KeyEntry(keyspace: Keyspace())
        table[key] = created
        lastKey = key
        lastEntry = created
        return created
    }

    /// Replaces every entry by what `transform` makes of it (`nil` drops it).
    mutating func replaceAll(_ transform: (KeyEntry) -> KeyEntry?) {
        forgetLast()
        table = table.compactMapValues(transform)
    }

    private mutating func forgetLast() {
        lastKey = nil
        lastEntry = nil
    }

    /// Every entry's state.
    var keyspaces: [Keyspace] { table.values.map(\.keyspace) }
}
