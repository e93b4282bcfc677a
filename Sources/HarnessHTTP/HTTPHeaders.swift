// SPDX-License-Identifier: MIT

/// Header fields in order, with case-insensitive lookup (RFC 9110 §5.1).
///
/// Two kinds of storage behind one API: fields built by code (an array of name and value
/// strings, as responses use), or a parsed request head's bytes (`PackedRequestHead`: one buffer,
/// strings made when asked for). Changing a parsed head's fields turns them into built ones.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    enum Storage: Sendable {
        case built([(name: String, value: String)])
        case packed(PackedRequestHead)
    }

    var storage: Storage

    public init() { storage = .built([]) }

    public init(_ fields: [(String, String)]) {
        storage = .built(fields.map { (name: $0.0, value: $0.1) })
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(elements)
    }

    /// The fields of a parsed request head.
    init(packed: PackedRequestHead) { storage = .packed(packed) }

    /// The fields in arrival order (a parsed head's are made as strings on each call).
    public var fields: [(name: String, value: String)] {
        switch storage {
        case .built(let fields): return fields
        case .packed(let head):
            let count = head.fieldCount
            var fields: [(name: String, value: String)] = []
            fields.reserveCapacity(count)
            for index in 0..<count { fields.append(head.field(at: index)) }
            return fields
        }
    }

    /// The first value of the field named `name` (case-insensitive).
    public subscript(_ name: String) -> String? {
        switch storage {
        case .built(let fields): return fields.first(where: { $0.name.caseInsensitiveEquals(name) })?.value
        case .packed(let head):
            var value: String?
            head.forEachValue(named: name) { bytes in
                value = String(decoding: bytes, as: UTF8.self)
                return false
            }
            return value
        }
    }

    /// All values of the field named `name` (case-insensitive), in order.
    public func values(for name: String) -> [String] {
        switch storage {
        case .built(let fields): return fields.filter { $0.name.caseInsensitiveEquals(name) }.map(\.value)
        case .packed(let head):
            var values: [String] = []
            head.forEachValue(named: name) { bytes in
                values.append(String(decoding: bytes, as: UTF8.self))
                return true
            }
            return values
        }
    }

    /// The built fields, turning a parsed head's into strings first.
    private mutating func withBuiltFields(_ change: (inout [(name: String, value: String)]) -> Void) {
        var fields: [(name: String, value: String)]
        switch storage {
        case .built(let built): fields = built
        case .packed: fields = self.fields
        }
        storage = .built([])  // leaves `fields` uniquely referenced
        change(&fields)
        storage = .built(fields)
    }

    /// Appends a field, keeping any existing ones with the same name.
    public mutating func add(_ name: String, _ value: String) {
        withBuiltFields { $0.append((name: name, value: value)) }
    }

    /// Reserves room for `count` fields.
    package mutating func reserveCapacity(_ count: Int) {
        withBuiltFields { $0.reserveCapacity(count) }
    }

    /// Replaces every field named `name` with one field holding `value`.
    public mutating func set(_ name: String, _ value: String) {
        withBuiltFields { fields in
            fields.removeAll { $0.name.caseInsensitiveEquals(name) }
            fields.append((name: name, value: value))
        }
    }

    /// Removes every field named `name`.
    public mutating func remove(_ name: String) {
        withBuiltFields { fields in fields.removeAll { $0.name.caseInsensitiveEquals(name) } }
    }

    public var count: Int {
        switch storage {
        case .built(let fields): fields.count
        case .packed(let head): head.fieldCount
        }
    }

    /// Whether `other` holds these very fields (the same storage, as a constant set of headers
    /// copied around does): equal without comparing them. Never true for different fields.
    package func sharesStorage(with other: HTTPHeaders) -> Bool {
        switch (storage, other.storage) {
        case (.built(let mine), .built(let theirs)):
            return mine.withUnsafeBufferPointer { mine in
                theirs.withUnsafeBufferPointer { theirs in mine.baseAddress == theirs.baseAddress && mine.count == theirs.count }
            }
        case (.packed(let mine), .packed(let theirs)):
            return mine.isSameStorage(as: theirs)
        default:
            return false
        }
    }

    /// Iterates the fields in order.
    public struct Iterator: IteratorProtocol {
        private let headers: HTTPHeaders
        private var index = 0

        init(_ headers: HTTPHeaders) { self.headers = headers }

        public mutating func next() -> (name: String, value: String)? {
            defer { index += 1 }
            switch headers.storage {
            case .built(let fields): return index < fields.count ? fields[index] : nil
            case .packed(let head): return index < head.fieldCount ? head.field(at: index) : nil
            }
        }
    }

    public func makeIterator() -> Iterator { Iterator(self) }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        // Equal bytes are equal strings; otherwise compare as strings (canonical equivalence).
        if case .packed(let a) = lhs.storage, case .packed(let b) = rhs.storage, a.fieldsHaveSameBytes(as: b) { return true }
        guard lhs.count == rhs.count else { return false }
        return lhs.elementsEqual(rhs) { $0.name == $1.name && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for field in self {
            hasher.combine(field.name)
            hasher.combine(field.value)
        }
    }
}

extension String {
    /// ASCII case-insensitive comparison, as HTTP field names require.
    package func caseInsensitiveEquals(_ other: String) -> Bool {
        let a = utf8, b = other.utf8
        guard a.count == b.count else { return false }
        var i = a.startIndex, j = b.startIndex
        while i != a.endIndex {
            let x = a[i], y = b[j]
            guard x == y || (x ^ 0x20 == y && ((x | 0x20) >= 0x61 && (x | 0x20) <= 0x7A)) else { return false }
            a.formIndex(after: &i)
            b.formIndex(after: &j)
        }
        return true
    }
}

extension HTTPHeaders {
    /// The comma-separated tokens of every field named `name`, trimmed and lower-cased (e.g. `Connection`, `Upgrade`).
    public func tokens(for name: String) -> [String] {
        values(for: name).flatMap { value in
            value.split(separator: ",").map { $0.trimmingHTTPWhitespace().lowercased() }.filter { !$0.isEmpty }
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (HTTP optional whitespace).
    public func trimmingHTTPWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start...end])
    }
}
