// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import CPosix

extension SendFloorBench {
    /// The reader child as the sender sees it: started with its stdout on a pipe, whose lines
    /// (`ready`, then `round R last_ns=... complete=K reader_cpu_ms=...`) are its reports.
    final class Reader {
        private let pid: pid_t
        private let pipe: Int32
        private var pending: [UInt8] = []

        init(executable: String, port: Int, settings: Settings) throws {
            var ends: [Int32] = [0, 0]
            guard Glibc.pipe(&ends) == 0 else { throw BenchError("pipe failed: errno \(errno)") }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, ends[1], 1)
            // Nothing else of this process (the listener, accepted sockets) goes to the child.
            _ = cposix_spawn_close_from(&actions, 3)
            let arguments = [executable, "send-floor-reader", "--port", "\(port)", "--connections", "\(settings.connections)",
                             "--bytes", "\(settings.bytes)", "--rounds", "\(settings.rounds)"] + (settings.spinningReader ? ["--spin"] : [])
            var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
            defer { for pointer in argv { free(pointer) } }
            var child = pid_t()
            let result = posix_spawn(&child, executable, &actions, nil, &argv, environ)
            close(ends[1])
            guard result == 0 else {
                close(ends[0])
                throw BenchError("posix_spawn \(executable) failed: \(result)")
            }
            pid = child
            pipe = ends[0]
        }

        /// The child's next line, or nil after 15 s or at its end.
        func line() -> String? {
            var chunk = [UInt8](repeating: 0, count: 256)
            // Bounded: each round reads at least one byte or stops.
            while true {
                if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    let text = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    return text
                }
                var pfd = pollfd(fd: pipe, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, 15_000) > 0 else { return nil }
                let n = chunk.withUnsafeMutableBytes { Glibc.read(pipe, $0.baseAddress, $0.count) }
                guard n > 0 else { return nil }
                pending += chunk[..<n]
            }
        }

        /// Ends the child (it may still wait for rounds that did not run) and reaps it.
        func finish() {
            kill(pid, SIGTERM)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            close(pipe)
        }
    }

    /// The reader child: connects `connections` times to the sender, reports `ready`, then per round
    /// waits in `epoll_wait`, reads everything and reports when the last connection has the round's
    /// bytes (`last_ns`, the monotonic clock the sender reads too). `spin`: polls epoll without
    /// blocking, so the reader is never asleep and a send never has to wake it (the wake-up's share).
    static func read(port: Int, connections: Int, bytes: Int, rounds: Int, spin: Bool) throws {
        var fds: [Int32] = []
        fds.reserveCapacity(connections)
        let epfd = cposix_epoll_create()
        for index in 0..<connections {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0, cposix_connect(fd, "127.0.0.1", Int32(port)) == 0 else {
                throw BenchError("reader: connect \(index) failed: errno \(errno)")
            }
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = cposix_epoll_ctl(epfd, EPOLL_CTL_ADD, fd, cposix_EPOLLIN, UInt64(index))
            fds.append(fd)
        }
        emit("ready")
        var received = [Int](repeating: 0, count: connections)
        let events = cposix_epoll_events_alloc(512)!
        defer { cposix_epoll_events_free(events) }
        var buffer = [UInt8](repeating: 0, count: 4096)
        for round in 1...max(1, rounds) {
            let target = bytes * round
            var complete = 0
            var last: UInt64 = 0
            var usageBefore = rusage()
            getrusage(Int32(RUSAGE_SELF.rawValue), &usageBefore)
            // Bounded: until every connection has the round's bytes, 10 s after the first byte, or 30 s of nothing.
            var deadline = cposix_monotonic_nanos() + 30_000_000_000
            var started = false
            while complete < connections && cposix_monotonic_nanos() < deadline {
                let count = cposix_epoll_wait(epfd, events, 512, spin ? 0 : 1000)
                if !started && count > 0 {
                    started = true
                    deadline = cposix_monotonic_nanos() + 10_000_000_000
                }
                for slot in 0..<max(0, count) {
                    let index = Int(cposix_epoll_data_at(events, slot))
                    let n = buffer.withUnsafeMutableBytes { Glibc.read(fds[index], $0.baseAddress, $0.count) }
                    guard n > 0 else { continue }
                    let wasShort = received[index] < target
                    received[index] += n
                    if wasShort && received[index] >= target {
                        complete += 1
                        last = cposix_monotonic_nanos()
                    }
                }
            }
            var usageAfter = rusage()
            getrusage(Int32(RUSAGE_SELF.rawValue), &usageAfter)
            let cpu = milliseconds(usageAfter.ru_utime) + milliseconds(usageAfter.ru_stime)
                - milliseconds(usageBefore.ru_utime) - milliseconds(usageBefore.ru_stime)
            emit("round \(round) last_ns=\(last) complete=\(complete) reader_cpu_ms=\(format(cpu))")
        }
    }

    private static func milliseconds(_ value: timeval) -> Double { Double(value.tv_sec) * 1000 + Double(value.tv_usec) / 1000 }
}
