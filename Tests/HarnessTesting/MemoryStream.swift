// SPDX-License-Identifier: MIT
import HarnessServerCore

/// One end of an in-memory byte stream pair: what one end writes, the other reads. A connection
/// runs over it without a socket; the test plays the peer with the other end and injects the
/// stream's moods (a write taking only some bytes, `wantWrite`, `wantRead`, end of stream, failure).
///
/// Not thread-safe: a test that steps a loop by hand uses both ends from its own thread.
package final class MemoryStream: StreamIO {
    /// Bytes written by the other end and not yet read.
    package private(set) var inbound: [UInt8] = []
    /// The other end ended its sending side (its `shutdownWrite`): reads return `.eof` once `inbound` is read.
    package private(set) var peerFinished = false
    /// This end ended its sending side.
    package private(set) var finished = false
    /// How many bytes a write may still take; nil = any number. At 0 a write answers `wantWrite`.
    package var writeBudget: Int?
    /// The results the next reads return instead of reading (first first), e.g. `.wantWrite`.
    package var scriptedReads: [IOResult] = []
    /// The results the next writes return instead of writing (first first), e.g. `.wantRead`.
    package var scriptedWrites: [IOResult] = []
    /// The results the next handshake steps return (first first); `.bytes(0)` once empty.
    package var scriptedHandshake: [IOResult] = []
    /// Every write call's byte count (0 for a scripted or refused one).
    package private(set) var writeCalls: [Int] = []
    /// Whether a short read proves nothing more is readable (as plain TCP).
    package var shortReadDrains: Bool = true
    private weak var other: MemoryStream?

    private init() {}

    /// Two connected ends.
    package static func pair() -> (MemoryStream, MemoryStream) {
        let one = MemoryStream()
        let two = MemoryStream()
        one.other = two
        two.other = one
        return (one, two)
    }

    package func handshake() -> IOResult {
        scriptedHandshake.isEmpty ? .bytes(0) : scriptedHandshake.removeFirst()
    }

    package func read(into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        if !scriptedReads.isEmpty { return scriptedReads.removeFirst() }
        guard !inbound.isEmpty else { return peerFinished ? .eof : .wantRead }
        let count = min(buffer.count, inbound.count)
        buffer.copyBytes(from: inbound[0..<count])
        inbound.removeFirst(count)
        return .bytes(count)
    }

    package func write(_ bytes: UnsafeRawBufferPointer) -> IOResult {
        if !scriptedWrites.isEmpty {
            writeCalls.append(0)
            return scriptedWrites.removeFirst()
        }
        guard let other, !finished else {
            writeCalls.append(0)
            return .failed(errno: 32, detail: "memory stream closed")
        }
        let count = min(bytes.count, writeBudget ?? bytes.count)
        writeCalls.append(count)
        guard count > 0 || bytes.isEmpty else { return .wantWrite }
        other.inbound.append(contentsOf: bytes.prefix(count))
        if let budget = writeBudget { writeBudget = budget - count }
        return .bytes(count)
    }

    package func shutdownWrite() {
        finished = true
        other?.peerFinished = true
    }

    // MARK: The test's side

    /// Writes `text` to the other end at once (no budget applies to the test's end).
    package func send(_ text: String) { send(Array(text.utf8)) }

    /// Writes `bytes` to the other end at once (no budget applies to the test's end).
    package func send(_ bytes: [UInt8]) { other?.inbound.append(contentsOf: bytes) }

    /// Everything the other end wrote so far, taken out.
    package func receiveAll() -> [UInt8] {
        defer { inbound.removeAll() }
        return inbound
    }

    /// `receiveAll` as text.
    package func receiveText() -> String { String(decoding: receiveAll(), as: UTF8.self) }

    /// Ends this end's sending side (the peer reads `.eof` after what it has).
    package func finish() { shutdownWrite() }
}
