// SPDX-License-Identifier: MIT
import Glibc

/// A byte stream of one connection; used by one I/O thread at a time (a kept-alive connection
/// passes between threads only through the client's idle pool, under its lock).
protocol ByteStream: AnyObject, Sendable {
    /// The socket, for the idle check before reuse.
    var fd: Int32 { get }
    /// The signal that aborts the request currently using the stream.
    var cancel: CancellationSignal { get set }
    func send(_ bytes: [UInt8], deadline: Deadline) throws(HTTPClientError)
    /// Up to `maxCount` bytes; empty at end of stream.
    func receive(maxCount: Int, deadline: Deadline) throws(HTTPClientError) -> [UInt8]
    func close()
}

/// Plain TCP.
// @unchecked Sendable: used by one thread at a time; handed over only through HTTPClient's pool lock.
final class PlainStream: ByteStream, @unchecked Sendable {
    let fd: Int32
    var cancel: CancellationSignal
    private var closed = false

    init(fd: Int32, cancel: CancellationSignal) {
        self.fd = fd
        self.cancel = cancel
    }

    deinit { close() }

    func send(_ bytes: [UInt8], deadline: Deadline) throws(HTTPClientError) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 { offset += n; continue }
            let code = errno
            if code == EAGAIN || code == EWOULDBLOCK {
                try waitReady(fd: fd, events: Int16(POLLOUT), deadline: deadline, cancel: cancel, phase: "send")
            } else if code != EINTR {
                throw .connectionLost(errno: code, errnoText(code))
            }
        }
    }

    func receive(maxCount: Int, deadline: Deadline) throws(HTTPClientError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: maxCount)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, maxCount, 0) }
            if n > 0 { return Array(buffer[0..<n]) }
            if n == 0 { return [] }
            let code = errno
            if code == EAGAIN || code == EWOULDBLOCK {
                try waitReady(fd: fd, events: Int16(POLLIN), deadline: deadline, cancel: cancel, phase: "receive")
            } else if code != EINTR {
                throw .connectionLost(errno: code, errnoText(code))
            }
        }
    }

    func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
    }
}
