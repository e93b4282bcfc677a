// SPDX-License-Identifier: MIT
import CPosix
import Foundation
import Glibc

/// Loopback socket helpers and a dedicated-thread bridge for blocking test clients and servers.
package enum TestSockets {
    /// A blocking TCP socket connected to 127.0.0.1:port with send/receive timeouts, or -errno.
    package static func connectLoopback(port: UInt16, timeoutMilliseconds: Int) -> Int32 {
        let fd = socket(AF_INET, cposix_SOCK_STREAM | cposix_SOCK_CLOEXEC, 0)
        guard fd >= 0 else { return -errno }
        var timeout = timeval(tv_sec: timeoutMilliseconds / 1000, tv_usec: (timeoutMilliseconds % 1000) * 1000)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = loopback(port: port)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        if rc != 0 {
            let code = errno
            close(fd)
            return -code
        }
        return fd
    }

    /// A listening socket on 127.0.0.1 port 0 and the port it got.
    package static func listenLoopback() throws -> (fd: Int32, port: UInt16) {
        let fd = socket(AF_INET, cposix_SOCK_STREAM | cposix_SOCK_CLOEXEC, 0)
        guard fd >= 0 else { throw TestSocketError(step: "socket", code: errno) }
        var address = loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(fd, 8) == 0 else {
            let code = errno
            close(fd)
            throw TestSocketError(step: "bind/listen", code: code)
        }
        var actual = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &actual) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return (fd, UInt16(bigEndian: actual.sin_port))
    }

    /// Waits for `events` on `fd` until `deadline`; false on timeout or error.
    package static func wait(_ fd: Int32, for events: Int16, until deadline: ContinuousClock.Instant) -> Bool {
        for _ in 0..<1_000 {
            let remaining = deadline - ContinuousClock.now
            let milliseconds = Int32(max(0, remaining.components.seconds * 1000 + remaining.components.attoseconds / 1_000_000_000_000_000))
            if milliseconds <= 0 { return false }
            var pfd = pollfd(fd: fd, events: events, revents: 0)
            let rc = poll(&pfd, 1, milliseconds)
            if rc > 0 { return true }
            if rc == 0 { return false }
            if errno != EINTR { return false }
        }
        return false
    }

    /// Runs blocking work on a new thread (never on the Swift concurrency pool) and awaits its result.
    package static func onDedicatedThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await StartedThread(body).value
    }

    private static func loopback(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }
}

package struct TestSocketError: Error, CustomStringConvertible {
    package let step: String
    package let code: Int32
    package var description: String { "\(step) failed: errno \(code)" }
}
