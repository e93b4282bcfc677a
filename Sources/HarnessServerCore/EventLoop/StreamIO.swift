// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CPosix

/// The outcome of one non-blocking stream operation.
package enum IOResult: Sendable, Hashable {
    /// The operation moved this many bytes (0 only for a completed handshake or an empty write).
    case bytes(Int)
    /// Retry when the socket is readable (TLS may need to read even while writing).
    case wantRead
    /// Retry when the socket is writable.
    case wantWrite
    /// The peer closed its side cleanly (read returned 0, or a TLS close_notify).
    case eof
    /// The stream failed; `errno` is 0 for failures that are not system-call errors (e.g. TLS alerts).
    case failed(errno: Int32, detail: String)
}

/// A non-blocking byte stream over one connected socket: plain TCP, or TLS on top of it.
///
/// An instance belongs to one event-loop thread, which alone calls it. The stream never blocks,
/// never closes the file descriptor (the connection does) and never registers with epoll; it
/// reports what it waits for through `IOResult`.
package protocol StreamIO: AnyObject {
    /// Advances the handshake: `.bytes(0)` when done (plain streams: at once), or what to wait for.
    func handshake() -> IOResult
    /// Reads decrypted bytes into `buffer`.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> IOResult
    /// Writes from `bytes`; a partial write returns the count written.
    func write(_ bytes: UnsafeRawBufferPointer) -> IOResult
    /// Writes `pieces` in order as if they were one buffer (a gather write); a partial write
    /// returns the count written over all pieces. The default writes the pieces in turn.
    func write(gathering pieces: UnsafeBufferPointer<UnsafeRawBufferPointer>) -> IOResult
    /// Ends the sending direction cleanly (TLS: close_notify, then `shutdown(SHUT_WR)`).
    func shutdownWrite()
    /// Whether a read that filled less than its buffer proves nothing more is readable now, so the
    /// connection can wait for the next epoll event instead of reading until `wantRead`. True for
    /// plain TCP (level-triggered epoll reports anything that arrives later); false for streams
    /// that may hold decoded bytes of their own, such as TLS.
    var shortReadDrains: Bool { get }
}

extension StreamIO {
    package var shortReadDrains: Bool { false }

    /// Writes the pieces one after the other until one is not written completely.
    package func write(gathering pieces: UnsafeBufferPointer<UnsafeRawBufferPointer>) -> IOResult {
        writePiecesInTurn(pieces)
    }

    /// The default gather write, for conformers that choose it only in some states: one `write`
    /// per piece, stopping at the first piece not written completely.
    package func writePiecesInTurn(_ pieces: UnsafeBufferPointer<UnsafeRawBufferPointer>) -> IOResult {
        var total = 0
        for piece in pieces where piece.count > 0 {
            let result = write(piece)
            guard case .bytes(let count) = result else { return total > 0 ? .bytes(total) : result }
            total += count
            if count < piece.count { break }
        }
        return .bytes(total)
    }
}

/// A plain TCP stream with `read`/`send(MSG_NOSIGNAL)`.
package final class PlainStream: StreamIO {
    let fd: Int32

    /// Wraps a connected, non-blocking socket.
    package init(fd: Int32) {
        self.fd = fd
    }

    package func handshake() -> IOResult { .bytes(0) }

    package func read(into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n > 0 { return .bytes(n) }
            if n == 0 { return .eof }
            let code = errno  // errno is only valid right after the -1 return
            switch code {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wantRead
            default: return .failed(errno: code, detail: "read")
            }
        }
    }

    package func write(_ bytes: UnsafeRawBufferPointer) -> IOResult {
        guard bytes.count > 0 else { return .bytes(0) }
        return Self.sending("send") { cposix_send(fd, bytes.baseAddress, bytes.count) }
    }

    /// One `sendmsg` for all pieces (a response head and its shared body leave in one call).
    package func write(gathering pieces: UnsafeBufferPointer<UnsafeRawBufferPointer>) -> IOResult {
        if pieces.count == 1 { return write(pieces[0]) }
        let count = min(pieces.count, 16)
        return withUnsafeTemporaryAllocation(of: iovec.self, capacity: count) { vectors in
            var total = 0
            for index in 0..<count {
                vectors[index] = iovec(iov_base: UnsafeMutableRawPointer(mutating: pieces[index].baseAddress), iov_len: pieces[index].count)
                total += pieces[index].count
            }
            guard total > 0 else { return .bytes(0) }
            return Self.sending("sendmsg") { cposix_sendv(fd, vectors.baseAddress, Int32(count)) }
        }
    }

    /// Runs a non-blocking send call again while it is interrupted and maps its outcome.
    private static func sending(_ call: String, _ send: () -> Int) -> IOResult {
        while true {
            let n = send()
            if n >= 0 { return .bytes(n) }
            let code = errno  // errno is only valid right after the -1 return
            switch code {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wantWrite
            default: return .failed(errno: code, detail: call)
            }
        }
    }

    package func shutdownWrite() {
        _ = Glibc.shutdown(fd, Int32(SHUT_WR))
    }

    package var shortReadDrains: Bool { true }
}

/// Makes the stream for each accepted connection of a listener.
///
/// The TLS layer supplies a factory that wraps the socket in a TLS stream configured for the
/// listener fault in force for that connection (trusted, self-signed, expired...).
package struct StreamFactory: Sendable {
    /// Whether streams from this factory speak TLS (reported as `RequestContext.isTLS`).
    package var isTLS: Bool
    /// Called on the connection's loop thread with the accepted socket and the connection's fault.
    package var make: @Sendable (_ fd: Int32, _ fault: ListenerFault) throws -> any StreamIO

    /// Creates a factory; `make` must not block (it runs on a loop thread).
    package init(isTLS: Bool, make: @escaping @Sendable (_ fd: Int32, _ fault: ListenerFault) throws -> any StreamIO) {
        self.isTLS = isTLS
        self.make = make
    }

    /// Plain TCP.
    package static let plain = StreamFactory(isTLS: false) { fd, _ in PlainStream(fd: fd) }
}
