// SPDX-License-Identifier: MIT
import Glibc
import Testing

/// Where two sequences first differ, found in one linear pass, and a short readable account of it.
///
/// `#expect(a == b)` on two large arrays that differ makes the testing library compute a
/// collection difference (Myers' algorithm, quadratic in the worst case) to show what changed: on
/// 3 MB of bytes that ran for minutes on a pool thread and held every other test behind it. A
/// ``Mismatch`` costs one pass over the shorter sequence and tells what a reader needs: both
/// lengths, the first offset that differs, and a few elements either side of it.
package struct Mismatch<Element: Equatable>: Equatable, CustomStringConvertible {
    /// The number of elements of the value that was checked.
    package var actualCount: Int
    /// The number of elements it should have had.
    package var expectedCount: Int
    /// The first offset whose elements differ, or where the shorter sequence ends.
    package var offset: Int
    /// Up to ``context`` elements before `offset` and after it, of each side (shorter at an end).
    package var actualWindow: [Element]
    package var expectedWindow: [Element]
    /// The offset the windows start at.
    package var windowStart: Int

    /// Elements shown on each side of the first difference.
    package static var context: Int { 8 }

    /// The first difference between `actual` and `expected`, or nil when they are equal.
    package static func first<A: Collection<Element>, E: Collection<Element>>(_ actual: A, _ expected: E) -> Mismatch? {
        var offset = Element.self == UInt8.self ? equalBytePrefix(actual, expected) : 0
        var a = actual.dropFirst(offset).makeIterator(), e = expected.dropFirst(offset).makeIterator()
        while true {
            let left = a.next(), right = e.next()
            if left == nil, right == nil { return nil }
            if left != right { break }
            offset += 1
        }
        let start = max(0, offset - context)
        func window<C: Collection<Element>>(_ c: C) -> [Element] {
            Array(c.dropFirst(start).prefix(offset - start + context + 1))
        }
        return Mismatch(
            actualCount: actual.count, expectedCount: expected.count, offset: offset,
            actualWindow: window(actual), expectedWindow: window(expected), windowStart: start)
    }

    /// How many leading bytes two byte arrays share, compared with `memcmp` a block at a time
    /// (0 when they are not arrays: the element loop then does all the work).
    private static func equalBytePrefix<A: Collection, E: Collection>(_ actual: A, _ expected: E) -> Int {
        guard let left = actual as? [UInt8], let right = expected as? [UInt8] else { return 0 }
        let common = min(left.count, right.count), block = 4096
        return left.withUnsafeBytes { l in
            right.withUnsafeBytes { r in
                var offset = 0
                while offset + block <= common, memcmp(l.baseAddress! + offset, r.baseAddress! + offset, block) == 0 {
                    offset += block
                }
                return offset
            }
        }
    }

    package var description: String {
        let lengths = actualCount == expectedCount ? "both \(actualCount) long" : "\(actualCount) against \(expectedCount) expected"
        return "first difference at offset \(offset) (\(lengths)); from offset \(windowStart): "
            + "got \(Self.show(actualWindow)), expected \(Self.show(expectedWindow))"
    }

    private static func show(_ window: [Element]) -> String {
        if Element.self == UInt8.self, let bytes = window as? [UInt8] { return hexAndText(bytes) }
        return "\(window)"
    }

    /// Bytes as hex pairs, then as text with non-printable bytes shown as `.`.
    private static func hexAndText(_ bytes: [UInt8]) -> String {
        let digits: [Character] = Array("0123456789abcdef")
        let hex = bytes.map { String([digits[Int($0 >> 4)], digits[Int($0 & 15)]]) }.joined(separator: " ")
        let text = String(bytes.map { (0x20..<0x7f).contains($0) ? Character(UnicodeScalar($0)) : "." })
        return "[\(hex)] \"\(text)\""
    }
}

/// Records one issue naming the lengths and the first differing offset when `actual` and
/// `expected` differ: the check for byte buffers, bodies and any collection that may be large.
@discardableResult
package func expectSameElements<A: Collection, E: Collection>(
    _ actual: A, _ expected: E, _ comment: @autoclosure () -> String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool where A.Element == E.Element, A.Element: Equatable {
    guard let mismatch = Mismatch<A.Element>.first(actual, expected) else { return true }
    let note = comment()
    Issue.record(Comment(rawValue: (note.isEmpty ? "" : note + ": ") + mismatch.description), sourceLocation: sourceLocation)
    return false
}

/// ``expectSameElements(_:_:_:sourceLocation:)`` on the UTF-8 of two strings.
@discardableResult
package func expectSameText(
    _ actual: String, _ expected: String, _ comment: @autoclosure () -> String = "",
    sourceLocation: SourceLocation = #_sourceLocation
) -> Bool {
    expectSameElements(Array(actual.utf8), Array(expected.utf8), comment(), sourceLocation: sourceLocation)
}
