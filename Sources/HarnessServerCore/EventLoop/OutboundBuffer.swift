// SPDX-License-Identifier: MIT

/// The bytes a connection still has to write, in order, as at most two pieces.
///
/// Pieces are kept as the arrays they were handed in, not copied together: the connections of a
/// fan-out share one response body (and one encoded head per loop), and a head with its body
/// leaves in one gather write. A buffer that is written out holds no storage at all, so an idle
/// connection costs no buffer. Bytes queued behind two unwritten pieces are appended to the
/// second (copied once).
struct OutboundBuffer {
    /// The piece being written; empty only when the whole buffer is.
    private var first: [UInt8] = []
    /// What is queued behind `first`.
    private var second: [UInt8] = []
    /// Bytes of `first` already written.
    private var offset = 0

    /// Whether nothing is left to write.
    var isEmpty: Bool { first.isEmpty }

    /// The number of bytes not yet written.
    var pendingCount: Int { first.count - offset + second.count }

    /// Whether the buffer still holds array storage (false once drained: nothing is kept).
    var holdsStorage: Bool { first.capacity > 0 || second.capacity > 0 }

    /// Queues `bytes` behind everything already queued (empty arrays are ignored).
    mutating func append(_ bytes: consuming [UInt8]) {
        guard !bytes.isEmpty else { return }
        if first.isEmpty {
            first = consume bytes
            offset = 0
        } else if second.isEmpty {
            second = consume bytes
        } else {
            second.append(contentsOf: bytes)
        }
    }

    /// Writes as much as `write` takes, with both unwritten pieces in one gather write; returns
    /// `write`'s result. On `.bytes(n)` the first `n` bytes are consumed.
    mutating func writeOut(_ write: (UnsafeBufferPointer<UnsafeRawBufferPointer>) -> IOResult) -> IOResult {
        let result = first.withUnsafeBytes { one in
            second.withUnsafeBytes { two in
                withUnsafeTemporaryAllocation(of: UnsafeRawBufferPointer.self, capacity: 2) { pieces in
                    pieces[0] = UnsafeRawBufferPointer(rebasing: one[offset...])
                    pieces[1] = two
                    return write(UnsafeBufferPointer(rebasing: pieces[0..<(two.isEmpty ? 1 : 2)]))
                }
            }
        }
        if case .bytes(let count) = result { consume(count) }
        return result
    }

    /// `writeOut`, and whether nothing is left to write afterwards (one call: an owner that keeps
    /// this in a class reads the buffer once per write).
    mutating func writeOutReportingEmpty(_ write: (UnsafeBufferPointer<UnsafeRawBufferPointer>) -> IOResult) -> (result: IOResult, isEmpty: Bool) {
        let result = writeOut(write)
        return (result, first.isEmpty)
    }

    /// Drops the first `count` unwritten bytes; pieces written completely are released.
    private mutating func consume(_ count: Int) {
        var left = count
        while left > 0 && !first.isEmpty {
            let inFirst = first.count - offset
            if left < inFirst {
                offset += left
                return
            }
            left -= inFirst
            first = second
            second = []
            offset = 0
        }
    }

    /// Drops everything (the connection closes or hands its socket over).
    mutating func removeAll() {
        first = []
        second = []
        offset = 0
    }
}

/// A response ready for the wire: the encoded head and the body array it was given (shared).
struct EncodedResponse {
    var head: [UInt8]
    var body: [UInt8]

    /// Head and body as one array (what goes on the wire).
    var bytes: [UInt8] { head + body }
}
