// SPDX-License-Identifier: MIT

/// Through `Codable` (typed shapes decoded with `JSONDecoder`), integers stay exact; object members
/// come in the decoder's key order, which need not be the document's (``JSONValue/parse(_:maxDepth:)``
/// keeps it).
extension JSONValue: Codable {
    private struct MemberKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: MemberKey.self) {
            var members: [(String, JSONValue)] = []
            for key in keyed.allKeys { members.append((key.stringValue, try keyed.decode(JSONValue.self, forKey: key))) }
            self = .object(JSONObject(members))
        } else if var unkeyed = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !unkeyed.isAtEnd { items.append(try unkeyed.decode(JSONValue.self)) }
            self = .array(items)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                self = .null
            } else if let flag = try? single.decode(Bool.self) {
                self = .bool(flag)
            } else if let number = try? single.decode(Int64.self) {
                self = .int(number)
            } else if let number = try? single.decode(UInt64.self) {
                self = .int(number)
            } else if let number = try? single.decode(Double.self) {
                self = .number(String(number))
            } else {
                self = .string(try single.decode(String.self))
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        if case .array(let items) = self {
            var unkeyed = encoder.unkeyedContainer()
            for item in items { try unkeyed.encode(item) }
        } else if case .object(let members) = self {
            var keyed = encoder.container(keyedBy: MemberKey.self)
            for member in members { try keyed.encode(member.value, forKey: MemberKey(stringValue: member.key)) }
        } else {
            var single = encoder.singleValueContainer()
            switch self {
            case .bool(let flag): try single.encode(flag)
            case .string(let text): try single.encode(text)
            case .number(let text):
                if let number = Int64(text) {
                    try single.encode(number)
                } else if let number = UInt64(text) {
                    try single.encode(number)
                } else {
                    try single.encode(Double(text) ?? 0)
                }
            default: try single.encodeNil()
            }
        }
    }
}
