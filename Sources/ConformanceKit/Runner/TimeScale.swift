// SPDX-License-Identifier: MIT
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How much slower than the reference machine a run is: every case budget and every window in
/// which something must happen is multiplied by it (``CaseBudget/scaled(_:by:)``).
public struct TimeScale: Sendable, Hashable, CustomStringConvertible {
    /// The factor, at least 1.
    public var factor: Double
    /// How it was chosen, for the run header (e.g. `--time-scale 2` or the probe's figures).
    public var origin: String

    public static let unit = TimeScale(factor: 1, origin: "fixed")
    /// The largest factor the probe may choose (a fixed `--time-scale` may go higher).
    public static let maximumAutomatic = 8.0

    public init(factor: Double, origin: String) {
        self.factor = max(1, factor.isFinite ? factor : 1)
        self.origin = origin
    }

    public var description: String { "time scale ×\(Self.format(factor)) (\(origin))" }

    /// Reads `--time-scale`: `auto` or a number ≥ 1 (`nil` for `auto`).
    public static func parse(_ text: String) -> Double?? {
        if text == "auto" { return .some(nil) }
        guard let value = Double(text), value.isFinite, value >= 1, value <= 100 else { return nil }
        return .some(value)
    }

    /// The factor a probe's figures call for (pure): the CPU loop's wall time against the
    /// faster of its own CPU time and the reference, and the loopback round-trip against its
    /// reference; the larger, rounded up to a tenth and capped at ``maximumAutomatic``.
    public static func fromProbe(_ probe: MachineProbe.Figures) -> TimeScale {
        let cpuBase = min(max(probe.cpuThreadSeconds, 1e-6), MachineProbe.referenceCPUSeconds)
        let cpu = probe.cpuWallSeconds / cpuBase
        let loopback = probe.roundTripSeconds / MachineProbe.referenceRoundTripSeconds
        let raw = min(max(cpu, loopback, 1), maximumAutomatic)
        let factor = (raw * 10).rounded(.up) / 10
        return TimeScale(factor: factor, origin: String(format: "auto: cpu ×%.2f, loopback ×%.2f", cpu, loopback))
    }

    static func format(_ value: Double) -> String { String(format: "%.1f", value) }
}

/// A quick measurement of how busy the machine is: a fixed CPU loop (wall and thread CPU time)
/// and a loopback TCP round-trip between two threads. Takes well under a second on a quiet machine.
public enum MachineProbe {
    /// The CPU time above which the loop's own CPU is called slow. Measured on an idle 2-core AMD
    /// EPYC (load ≤ 1.8): 6.6 ms of CPU in a release build, 13 ms in a debug build; so this
    /// counts only on a CPU about 1.5-3× slower (docs/conformance.md, "Pacing").
    public static let referenceCPUSeconds = 0.02
    /// A loopback round-trip (write, echo, read): 14 µs measured idle, 10-70 µs at load 2-30 on
    /// the same machine; a millisecond means loopback itself is slow, not merely a busy CPU.
    public static let referenceRoundTripSeconds = 0.001

    public struct Figures: Sendable, Hashable {
        public var cpuWallSeconds: Double
        public var cpuThreadSeconds: Double
        public var roundTripSeconds: Double

        public init(cpuWallSeconds: Double, cpuThreadSeconds: Double, roundTripSeconds: Double) {
            self.cpuWallSeconds = cpuWallSeconds
            self.cpuThreadSeconds = cpuThreadSeconds
            self.roundTripSeconds = roundTripSeconds
        }
    }

    /// Measures on a thread of its own (the probe blocks: it stays off the concurrency pool).
    public static func measured() async -> Figures {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: measure()) }
        }
    }

    /// Measures, blocking the calling thread (well under a second on a quiet machine).
    public static func measure() -> Figures {
        let loops = (0..<3).map { _ in cpuLoop() }.sorted { $0.wall < $1.wall }
        let median = loops[1]
        return Figures(cpuWallSeconds: median.wall, cpuThreadSeconds: median.cpu, roundTripSeconds: loopbackRoundTrip() ?? 0)
    }

    /// A fixed amount of integer work: wall and thread CPU seconds.
    static func cpuLoop() -> (wall: Double, cpu: Double) {
        let wallStart = monotonic(CLOCK_MONOTONIC), cpuStart = monotonic(CLOCK_THREAD_CPUTIME_ID)
        var x: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<4_000_000 {
            x ^= x << 13
            x ^= x >> 7
            x ^= x << 17
        }
        let wall = monotonic(CLOCK_MONOTONIC) - wallStart, cpu = monotonic(CLOCK_THREAD_CPUTIME_ID) - cpuStart
        // Keeps the loop from being optimised away.
        if x == 0 { FileHandle.standardError.write(Data("\n".utf8)) }
        return (wall, cpu)
    }

    /// The median of 20 one-byte echoes over a TCP connection on 127.0.0.1 (nil if sockets fail).
    static func loopbackRoundTrip() -> Double? {
        // Close-on-exec everywhere: driver processes started meanwhile must not inherit these.
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard listener >= 0 else { return nil }
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard bound, listen(listener, 1) == 0 else { return nil }
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard client >= 0 else { return nil }
        defer { close(client) }
        var timeout = timeval(tv_sec: 2, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let connected = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else { return nil }
        let server = accept(listener, nil, nil)
        if server >= 0 { _ = fcntl(server, F_SETFD, FD_CLOEXEC) }
        guard server >= 0 else { return nil }
        setsockopt(server, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        let rounds = 20
        // The echo thread: bounded by `rounds` and by the receive timeout; closes its socket.
        let echo = Thread {
            var byte: UInt8 = 0
            for _ in 0..<rounds {
                guard recv(server, &byte, 1, 0) == 1, send(server, &byte, 1, Int32(MSG_NOSIGNAL)) == 1 else { break }
            }
            close(server)
        }
        echo.start()
        var samples: [Double] = []
        var byte: UInt8 = 1
        for _ in 0..<rounds {
            let start = monotonic(CLOCK_MONOTONIC)
            guard send(client, &byte, 1, Int32(MSG_NOSIGNAL)) == 1, recv(client, &byte, 1, 0) == 1 else { break }
            samples.append(monotonic(CLOCK_MONOTONIC) - start)
        }
        guard !samples.isEmpty else { return nil }
        return samples.sorted()[samples.count / 2]
    }

    private static func monotonic(_ clock: clockid_t) -> Double {
        var now = timespec()
        clock_gettime(clock, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
