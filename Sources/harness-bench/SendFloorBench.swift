// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import CPosix

/// The floor of "one `send` per connection" on this machine (scripts/bench-send-floor.sh): N loopback
/// TCP connections from a reader child process that waits in `epoll_wait` and reads everything,
/// as the fan-out benches' clients do, and one or two sender threads here that send one frame to
/// every connection with one non-blocking `send` each and nothing else. On loopback the receiver's
/// half of the TCP path (its socket's receive queue, the wake-up of the reader) runs in the
/// sender's system call, so the sender's CPU per send is what a server pays at least per answer.
enum SendFloorBench {
    /// What `send-floor` runs.
    struct Settings {
        var connections = 10_000
        /// Sender threads (the server runs two event loops).
        var threads = 2
        /// Bytes per send: the Pusher bench's frame or the long-poll bench's answer.
        var bytes = SendFloorBench.pusherFrameSize
        var rounds = 5
        /// The reader polls epoll without blocking (never asleep): the floor without the wake-ups.
        var spinningReader = false
        /// Sends through io_uring, this many per `io_uring_enter` (0: one `send` per connection).
        var uringBatch = 0
    }

    /// The Pusher bench's event frame: a 2-byte header and the payload `pusher-fanout` expects.
    static let pusherFrameSize = 2 + Array(#"{"event":"tick","data":"{\"n\":1}","channel":"bench"}"#.utf8).count
    /// The long-poll bench's answer to one parked subscribe: the head (`Content-Type`,
    /// `Content-Length`, `Connection: keep-alive`) and the one-message envelope, as `serve` writes it.
    static let longPollAnswerSize = 270

    /// Listens, starts the reader child (this executable, `send-floor-reader`), accepts its
    /// connections, then sends `rounds` times one frame per connection and reports each round.
    static func run(_ settings: Settings, executable: String) throws {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        guard Int(limit.rlim_cur) > settings.connections + 64 else {
            throw BenchError("file descriptor limit \(limit.rlim_cur) is too low for \(settings.connections) connections (ulimit -n)")
        }
        let listener = cposix_tcp_socket(0)
        guard listener >= 0, cposix_bind(listener, "127.0.0.1", 0) == 0, listen(listener, 4096) == 0 else {
            throw BenchError("listen failed: errno \(errno)")
        }
        defer { close(listener) }
        var host = [CChar](repeating: 0, count: 64)
        var port: Int32 = 0
        guard cposix_local_address(listener, &host, host.count, &port) == 0 else { throw BenchError("getsockname failed") }

        let reader = try Reader(executable: executable, port: Int(port), settings: settings)
        defer { reader.finish() }
        var fds: [Int32] = []
        fds.reserveCapacity(settings.connections)
        defer { for fd in fds { close(fd) } }
        // Bounded: one accept per connection, each within 10 s.
        while fds.count < settings.connections {
            var pfd = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 10_000) > 0 else { throw BenchError("accepted \(fds.count) of \(settings.connections) connections") }
            let fd = cposix_accept_nonblocking(listener)
            guard fd >= 0 else {
                if errno == EAGAIN || errno == EINTR { continue }
                throw BenchError("accept failed: errno \(errno)")
            }
            // As the server's accept does.
            _ = cposix_set_int_option(fd, Int32(IPPROTO_TCP), TCP_NODELAY, 1)
            fds.append(fd)
        }
        guard reader.line()?.hasPrefix("ready") == true else { throw BenchError("the reader did not get ready") }
        emit("send-floor connections=\(settings.connections) threads=\(settings.threads) bytes=\(settings.bytes) rounds=\(settings.rounds)\(settings.spinningReader ? " reader=spinning" : "")"
            + (settings.uringBatch > 0 ? " io_uring_batch=\(settings.uringBatch)" : "")
            + " syscall_ns=\(format(syscallNanos()))")

        let frame = [UInt8](repeating: UInt8(ascii: "x"), count: settings.bytes)
        let threads = max(1, min(settings.threads, 2))
        let slices = try (0..<threads).map { index in
            try SendSlice(fds: Array(fds[(fds.count * index / threads)..<(fds.count * (index + 1) / threads)]), frame: frame,
                          uringBatch: settings.uringBatch)
        }
        var alls: [Double] = []
        var perSend: [Double] = []
        for round in 1...max(1, settings.rounds) {
            // The reader printed its line and went back to epoll_wait; give it time to park there.
            var pause = timespec(tv_sec: 0, tv_nsec: 100_000_000)
            nanosleep(&pause, nil)
            var before = rusage()
            getrusage(Int32(RUSAGE_SELF.rawValue), &before)
            let started = cposix_monotonic_nanos()
            try send(slices)
            let sent = cposix_monotonic_nanos()
            var after = rusage()
            getrusage(Int32(RUSAGE_SELF.rawValue), &after)
            guard let line = reader.line(), line.hasPrefix("round \(round) "),
                let last = field(line, "last_ns").flatMap(UInt64.init), let received = field(line, "complete") else {
                throw BenchError("round \(round): the reader did not report")
            }
            let failed = slices.reduce(0) { $0 + $1.failed }
            let user = microseconds(after.ru_utime) - microseconds(before.ru_utime)
            let system = microseconds(after.ru_stime) - microseconds(before.ru_stime)
            let sends = Double(fds.count)
            let all = last > started ? Double(last - started) / 1e6 : 0
            alls.append(all)
            perSend.append((user + system) / sends)
            emit("round \(round): sent_ms=\(format(Double(sent - started) / 1e6)) all_ms=\(format(all)) received=\(received)/\(fds.count)"
                + " failed_sends=\(failed) sender_user_us=\(format2(user / sends)) sender_system_us=\(format2(system / sends))"
                + " sender_cpu_us_per_send=\(format2((user + system) / sends))"
                + (field(line, "reader_cpu_ms").map { " reader_cpu_ms=\($0)" } ?? ""))
        }
        emit("median: all_ms=\(format(median(alls))) sender_cpu_us_per_send=\(format2(median(perSend)))")
    }

    /// The connections one sender thread serves, and the frame.
    final class SendSlice {
        let fds: [Int32]
        let frame: [UInt8]
        /// Sends that did not write the whole frame in this round.
        var failed = 0
        /// This thread's ring, with `--uring N`.
        private let ring: OpaquePointer?
        private let uringBatch: Int

        init(fds: [Int32], frame: [UInt8], uringBatch: Int) throws {
            self.fds = fds
            self.frame = frame
            self.uringBatch = uringBatch
            if uringBatch > 0 {
                guard let ring = cposix_uring_create(UInt32(uringBatch)) else { throw BenchError("io_uring_setup failed: errno \(errno)") }
                self.ring = ring
            } else {
                ring = nil
            }
        }

        deinit {
            if let ring { cposix_uring_destroy(ring) }
        }

        /// One non-blocking `send` per connection, nothing else (or the same sends through io_uring).
        func sendOnce() {
            failed = 0
            if let ring {
                let complete = fds.withUnsafeBufferPointer { fds in
                    frame.withUnsafeBytes { bytes in
                        cposix_uring_send_each(ring, fds.baseAddress, fds.count, bytes.baseAddress, UInt32(bytes.count), UInt32(uringBatch))
                    }
                }
                failed = fds.count - max(0, complete)
                return
            }
            frame.withUnsafeBytes { bytes in
                for fd in fds where Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) != bytes.count {
                    failed += 1
                }
            }
        }
    }

    /// Runs the first slice on this thread and the second (if any) on a new thread, then joins it.
    private static func send(_ slices: [SendSlice]) throws {
        guard slices.count > 1 else {
            slices[0].sendOnce()
            return
        }
        let box = Unmanaged.passRetained(slices[1]).toOpaque()
        var thread = pthread_t()
        let result = pthread_create(&thread, nil, { raw in
            Unmanaged<SendSlice>.fromOpaque(raw!).takeRetainedValue().sendOnce()
            return nil
        }, box)
        guard result == 0 else {
            Unmanaged<SendSlice>.fromOpaque(box).release()
            throw BenchError("pthread_create failed: \(result)")
        }
        slices[0].sendOnce()
        pthread_join(thread, nil)
    }

    /// The cost of a bare system call here (`getppid`, which glibc does not cache), in nanoseconds
    /// of this thread's CPU time (not wall time: a busy machine preempts the loop).
    static func syscallNanos() -> Double {
        let count = 200_000
        let started = threadCPUNanos()
        var sum: Int32 = 0
        for _ in 0..<count { sum &+= getppid() }
        let nanos = Double(threadCPUNanos() - started) / Double(count)
        return sum == 0 ? nanos : nanos  // keeps the calls
    }

    private static func threadCPUNanos() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    private static func microseconds(_ value: timeval) -> Double { Double(value.tv_sec) * 1e6 + Double(value.tv_usec) }

    private static func format2(_ value: Double) -> String { String((value * 100).rounded() / 100) }

    private static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
    }

    /// The value of `name=VALUE` in a report line.
    static func field(_ line: String, _ name: String) -> String? {
        for word in line.split(separator: " ") where word.hasPrefix(name + "=") {
            return String(word.dropFirst(name.count + 1))
        }
        return nil
    }
}
