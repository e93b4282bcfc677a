// SPDX-License-Identifier: MIT

/// Why JSON text could not be read: the byte offset and what was expected there.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Offset of the offending byte from the start of the text.
    public var offset: Int
    /// What the scanner expected, e.g. "a value" or "`,` or `}`".
    public var expected: String

    public init(offset: Int, expected: String) {
        self.offset = offset
        self.expected = expected
    }

    public var description: String { "invalid JSON at byte \(offset): expected \(expected)" }
}
