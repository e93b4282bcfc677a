// SPDX-License-Identifier: MIT
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The wall clock of the service: timetokens, presence timestamps, grant expiry, signature windows.
package struct ServiceClock: Sendable {
    /// Nanoseconds since the Unix epoch.
    package var unixNanoseconds: @Sendable () -> Int64

    package init(unixNanoseconds: @escaping @Sendable () -> Int64) {
        self.unixNanoseconds = unixNanoseconds
    }

    /// The system's real-time clock.
    package static let system = ServiceClock {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    /// Whole Unix seconds now.
    package var unixSeconds: Int64 { unixNanoseconds() / 1_000_000_000 }
}

/// Hands out 17-digit timetokens (Unix time in 100 ns units), strictly increasing even when
/// several are taken within one tick or the clock steps back.
package final class TimetokenClock: Sendable {
    private let clock: ServiceClock
    private let last = Atomic<UInt64>(0)

    package init(clock: ServiceClock) {
        self.clock = clock
    }

    /// A fresh timetoken greater than every earlier one.
    package func next() -> UInt64 {
        let wall = UInt64(max(0, clock.unixNanoseconds() / 100))
        // Lock-free: every publish on every loop asks for one, so a contended lock would cost a syscall.
        var current = last.load(ordering: .relaxed)
        while true {
            let candidate = max(wall, current + 1)
            let (exchanged, original) = last.compareExchange(
                expected: current, desired: candidate, ordering: .relaxed)
            if exchanged { return candidate }
            current = original
        }
    }
}
