// SPDX-License-Identifier: MIT

/// One HTTP header field of a handshake, as sent (names compare case-insensitively).
public struct WebSocketHeaderField: Hashable, Sendable {
    public var name: String
    public var value: String

    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

extension [WebSocketHeaderField] {
    /// Every value of the fields named `name` (case-insensitive), in order.
    func values(named name: String) -> [String] {
        let wanted = name.lowercased()
        return filter { $0.name.lowercased() == wanted }.map(\.value)
    }

    /// The comma-separated tokens of every field named `name`, trimmed and lower-cased.
    func tokens(named name: String) -> [String] {
        values(named: name).flatMap { value in
            value.split(separator: ",").map { $0.trimmingWhitespace().lowercased() }.filter { !$0.isEmpty }
        }
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs (HTTP optional whitespace).
    func trimmingWhitespace() -> String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start...end])
    }
}
