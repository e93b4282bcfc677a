// SPDX-License-Identifier: MIT

/// Every subscribe key in use, by key, with the entry found last remembered: consecutive
/// requests of one key (the usual case) skip hashing it. Every change forgets that entry.
struct KeyRegistry {
    private var table: [String: KeyEntry] = [:]
    private var last: (key: String, entry: KeyEntry)?

    /// The keys that have an entry.
    var keys: Dictionary<String, KeyEntry>.Keys { table.keys }

    /// The entry of `key` (reading does not touch the remembered entry).
    subscript(key: String) -> KeyEntry? {
        get { table[key] }
        set {
            last = nil
            table[key] = newValue
        }
    }

    /// The entry of `key`, if it has one, through the remembered entry.
    mutating func find(_ key: String) -> KeyEntry? {
        if let last, last.key == key { return last.entry }
        guard let found = table[key] else { return nil }
        last = (key, found)
        return found
    }

    /// The entry of `key`, created (with fresh state and no keyset) when it has none.
    mutating func findOrCreate(_ key: String) -> KeyEntry {
        if let found = find(key) { return found }
        let created = KeyEntry(keyspace: Keyspace())
        table[key] = created
        last = (key, created)
        return created
    }

    /// Replaces every entry by what `transform` makes of it (`nil` drops it).
    mutating func replaceAll(_ transform: (KeyEntry) -> KeyEntry?) {
        last = nil
        table = table.compactMapValues(transform)
    }

    /// Every entry's state.
    var keyspaces: [Keyspace] { table.values.map(\.keyspace) }
}
