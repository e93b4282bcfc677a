// SPDX-License-Identifier: MIT

/// The outcome of decoding one driver line, as the package's other modules see it (the fuzz
/// entry points compare outcomes without reaching into `DriverLines`).
package struct DecodedDriverLine: Sendable, CustomStringConvertible {
    let line: DriverLines.Line?
    /// Why the line was refused, or `nil` when it decoded.
    package let failure: String?

    /// Decodes `text` as one driver line (docs/driver-protocol.md).
    package init(_ text: String) {
        do {
            line = try DriverLines.decode(text)
            failure = nil
        } catch {
            line = nil
            failure = error.description
        }
    }

    /// Whether the line decoded.
    package var isDecoded: Bool { line != nil }

    /// Whether both decoded to the same line, or both were refused (whatever the messages say).
    package func agrees(with other: DecodedDriverLine) -> Bool {
        line == other.line
    }

    /// `text` parsed as JSON and written back compactly, or `nil` when it is not JSON.
    package static func rewritten(_ text: String) -> String? {
        (try? JSONValue.parse(text))?.jsonText
    }

    package var description: String {
        if let line { return String(describing: line) }
        return failure ?? "refused"
    }
}
