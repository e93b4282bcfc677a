// SPDX-License-Identifier: MIT
// TEMPORARY COPY — delete this file at integration. It mirrors the non-blocking stream contract
// that EventLoop/StreamIO.swift defines, so that TLSStream can be built and tested on its own.
// If the definitions differ at merge time, EventLoop/StreamIO.swift wins and TLSStream adapts.

/// The outcome of one non-blocking stream operation.
enum IOResult: Equatable, Sendable {
    /// The operation made progress: bytes read or written (0 for a completed handshake).
    case bytes(Int)
    /// Nothing can be done until the socket is readable.
    case wantRead
    /// Nothing can be done until the socket is writable.
    case wantWrite
    /// The peer finished its side of the stream.
    case eof
    /// The stream failed; `errno` is 0 when the failure is not a system-call error.
    case failed(errno: Int32, detail: String)
}

/// A byte stream over a non-blocking socket (plain or TLS), driven by one event-loop thread.
protocol StreamIO: AnyObject {
    /// Advances the transport handshake; `.bytes(0)` once it is complete (at once for plain TCP).
    func handshake() -> IOResult
    /// Reads up to `buffer.count` bytes.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> IOResult
    /// Writes some prefix of `bytes`.
    func write(_ bytes: UnsafeRawBufferPointer) -> IOResult
    /// Ends the write side (best effort; never blocks).
    func shutdownWrite()
}
