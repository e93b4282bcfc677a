// SPDX-License-Identifier: MIT

/// The bytes a connection still has to write, in order, as at most three pieces.
///
/// Pieces are kept as the arrays they were handed in, not copied together: the connections of a
/// fan-out share one response body (and one encoded head per loop), and a queue of two or three
/// pieces leaves in one gather write. A buffer that is written out holds no storage at all, so an
/// idle connection costs no buffer. Only a fourth piece queued behind three unwritten ones is
/// copied (appended to the last piece).
struct OutboundBuffer {
    /// The piece being written; empty only when the whole buffer is.
    private var first: [UInt8] = []
    /// The pieces queued behind `first`, in order (`third` only when `second` is set).
    private var second: [UInt8] = []
    private var third: [UInt8] = []
    /// Bytes of `first` already written.
    private var offset = 0

    /// Whether nothing is left to write.
    var isEmpty: Bool { first.isEmpty }

    /// The number of bytes not yet written.
    var pendingCount: Int { first.count - offset + second.count + third.count }

    /// Whether the buffer still holds array storage (false once drained: nothing is kept).
    var holdsStorage: Bool { first.capacity > 0 || second.capacity > 0 || third.capacity > 0 }

    /// Queues `bytes` behind everything already queued (empty arrays are ignored).
    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        if first.isEmpty {
            first = bytes
            offset = 0
        } else if second.isEmpty {
            second = bytes
        } else if third.isEmpty {
            third = bytes
        } else {
            third.append(contentsOf: bytes)
        }
    }

    /// Writes as much as `write` takes, with every unwritten piece in one gather write; returns
    /// `write`'s result. On `.bytes(n)` the first `n` bytes are consumed.
    mutating func writeOut(_ write: (UnsafeBufferPointer<UnsafeRawBufferPointer>) -> IOResult) -> IOResult {
        let result = first.withUnsafeBytes { one in
            second.withUnsafeBytes { two in
                third.withUnsafeBytes { three in
                    withUnsafeTemporaryAllocation(of: UnsafeRawBufferPointer.self, capacity: 3) { pieces in
                        pieces[0] = UnsafeRawBufferPointer(rebasing: one[offset...])
                        var count = 1
                        if two.count > 0 {
                            pieces[count] = two
                            count += 1
                        }
                        if three.count > 0 {
                            pieces[count] = three
                            count += 1
                        }
                        return write(UnsafeBufferPointer(rebasing: pieces[0..<count]))
                    }
                }
            }
        }
        if case .bytes(let count) = result { consume(count) }
        return result
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
            second = third
            third = []
            offset = 0
        }
    }

    /// Drops everything (the connection closes or hands its socket over).
    mutating func removeAll() {
        first = []
        second = []
        third = []
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
