// SPDX-License-Identifier: MIT

/// A map for a handful of entries (a uuid's channels, its presence timers), kept in one array
/// searched linearly: a fraction of a `Dictionary`'s memory when, as here, most hold one or two
/// entries and thousands of them exist at once. Iteration follows insertion order.
struct SmallMap<Key: Equatable, Value>: Sequence, ExpressibleByDictionaryLiteral {
    typealias Element = (key: Key, value: Value)

    private var entries: [Element]

    init() { entries = [] }

    init(dictionaryLiteral elements: (Key, Value)...) {
        entries = []
        for (key, value) in elements { self[key] = value }
    }

    private init(entries: [Element]) { self.entries = entries }

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }
    var keys: [Key] { entries.map(\.key) }
    var values: [Value] { entries.map(\.value) }

    /// The value of `key`; setting `nil` removes it.
    subscript(key: Key) -> Value? {
        get { entries.first { $0.key == key }?.value }
        set {
            let at = entries.firstIndex { $0.key == key }
            switch (at, newValue) {
            case (let at?, let value?): entries[at].value = value
            case (let at?, nil): entries.remove(at: at)
            case (nil, let value?): entries.append((key, value))
            case (nil, nil): break
            }
        }
    }

    /// Removes `key`; returns its value if it was present.
    @discardableResult
    mutating func removeValue(forKey key: Key) -> Value? {
        guard let at = entries.firstIndex(where: { $0.key == key }) else { return nil }
        return entries.remove(at: at).value
    }

    /// The entries `isIncluded` keeps, as a map.
    func filter(_ isIncluded: (Element) throws -> Bool) rethrows -> SmallMap {
        SmallMap(entries: try entries.filter(isIncluded))
    }

    func makeIterator() -> IndexingIterator<[Element]> { entries.makeIterator() }
}

extension SmallMap: Sendable where Key: Sendable, Value: Sendable {}
