// SPDX-License-Identifier: MIT
import Glibc

/// A point on the monotonic clock, in milliseconds.
struct Deadline {
    let milliseconds: Int64

    static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    init(secondsFromNow seconds: Double) {
        milliseconds = Self.now() + Int64((seconds * 1000).rounded(.up))
    }

    /// Milliseconds left, never negative, capped for `poll`.
    var remaining: Int32 { Int32(clamping: max(0, min(milliseconds - Self.now(), Int64(Int32.max)))) }
}

/// Waits until `fd` is ready for `events`, the deadline passes, or the cancellation signal fires.
func waitReady(fd: Int32, events: Int16, deadline: Deadline, cancel: CancellationSignal, phase: String)
    throws(HTTPClientError)
{
    while true {
        if cancel.isCancelled { throw .cancelled }
        let remaining = deadline.remaining
        if remaining == 0 { throw .timedOut(phase: phase) }
        var fds = [pollfd(fd: fd, events: events, revents: 0), pollfd(fd: cancel.wakeFD, events: Int16(POLLIN), revents: 0)]
        let rc = poll(&fds, 2, remaining)
        if rc < 0 {
            if errno == EINTR { continue }
            throw .localFailure("poll: \(String(cString: strerror(errno)))")
        }
        if fds[1].revents != 0 || cancel.isCancelled { throw .cancelled }
        if fds[0].revents != 0 { return }
    }
}

func errnoText(_ code: Int32) -> String { String(cString: strerror(code)) }
