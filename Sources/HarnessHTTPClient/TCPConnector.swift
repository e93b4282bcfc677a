// SPDX-License-Identifier: MIT
import CPosix
import Glibc

/// Opens a non-blocking TCP connection with a deadline.
enum TCPConnector {
    static func connect(host: String, port: Int, deadline: Deadline, cancel: CancellationSignal)
        throws(HTTPClientError) -> Int32
    {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, String(port), &hints, &list)
        guard rc == 0, let first = list else { throw .nameResolution(host) }
        defer { freeaddrinfo(first) }
        var lastError = HTTPClientError.nameResolution(host)
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            cursor = info.pointee.ai_next
            do {
                return try attempt(info.pointee, deadline: deadline, cancel: cancel)
            } catch {
                if case .cancelled = error { throw error }
                if case .timedOut = error { throw error }
                lastError = error
            }
        }
        throw lastError
    }

    private static func attempt(_ info: addrinfo, deadline: Deadline, cancel: CancellationSignal)
        throws(HTTPClientError) -> Int32
    {
        let fd = socket(info.ai_family, info.ai_socktype | cposix_SOCK_NONBLOCK | cposix_SOCK_CLOEXEC, info.ai_protocol)
        guard fd >= 0 else { throw .localFailure("socket: \(errnoText(errno))") }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        if Glibc.connect(fd, info.ai_addr, info.ai_addrlen) == 0 { return fd }
        let code = errno
        guard code == EINPROGRESS else {
            close(fd)
            throw .connectFailed(errno: code, errnoText(code))
        }
        do {
            try waitReady(fd: fd, events: Int16(POLLOUT), deadline: deadline, cancel: cancel, phase: "connect")
        } catch {
            close(fd)
            throw error
        }
        var soError: Int32 = 0
        var len = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &len)
        if soError != 0 {
            close(fd)
            throw .connectFailed(errno: soError, errnoText(soError))
        }
        return fd
    }
}
