// SPDX-License-Identifier: MIT

/// The members of a JSON object in document order, looked up by name like a dictionary.
///
/// Objects are small (a handful of members), so lookups scan; a name given twice reads as its
/// first occurrence.
public struct JSONObject: Sendable, RandomAccessCollection {
    /// A member: its name and value.
    public typealias Element = (key: String, value: JSONValue)
    /// The members in order.
    public private(set) var members: [Element]

    /// An object of `members` in the given order.
    public init(_ members: some Sequence<(String, JSONValue)>) {
        self.members = members.map { (key: $0.0, value: $0.1) }
    }

    /// An object from a dictionary, members sorted by name (so the text is deterministic).
    public init(_ dictionary: [String: JSONValue]) {
        members = dictionary.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
    }

    public var startIndex: Int { members.startIndex }
    public var endIndex: Int { members.endIndex }
    public subscript(position: Int) -> Element { members[position] }

    /// The value of the first member named `key`; setting replaces it in place or appends, `nil` removes.
    public subscript(key: String) -> JSONValue? {
        get { members.first { $0.key == key }?.value }
        set {
            let position = members.firstIndex { $0.key == key }
            switch (position, newValue) {
            case let (position?, value?): members[position].value = value
            case let (position?, nil): members.remove(at: position)
            case let (nil, value?): members.append((key: key, value: value))
            case (nil, nil): break
            }
        }
    }

    /// The member names in order.
    public var keys: [String] { members.map(\.key) }
    /// The member values in order.
    public var values: [JSONValue] { members.map(\.value) }

    /// The same names with transformed values.
    public func mapValues(_ transform: (JSONValue) throws -> JSONValue) rethrows -> JSONObject {
        JSONObject(try members.map { ($0.key, try transform($0.value)) })
    }

    /// The members as a dictionary (first occurrence wins).
    public var dictionary: [String: JSONValue] {
        Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}

/// Equality ignores member order, as JSON's does.
extension JSONObject: Hashable {
    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        guard lhs.count == rhs.count else { return false }
        func same(_ a: [Element], _ b: [Element]) -> Bool { zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value } }
        // Same order first; otherwise by name (a stable sort keeps repeated names in their order).
        return same(lhs.members, rhs.members)
            || same(lhs.members.sorted { $0.key < $1.key }, rhs.members.sorted { $0.key < $1.key })
    }

    public func hash(into hasher: inout Hasher) {
        var combined = 0
        for member in members {
            var one = Hasher()
            one.combine(member.key)
            one.combine(member.value)
            combined ^= one.finalize()
        }
        hasher.combine(count)
        hasher.combine(combined)
    }
}

extension JSONObject: ExpressibleByDictionaryLiteral, ExpressibleByArrayLiteral {
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(elements) }
    public init(arrayLiteral elements: (String, JSONValue)...) { self.init(elements) }
}
