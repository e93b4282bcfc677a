// SPDX-License-Identifier: MIT
import Glibc

/// The monotonic clock in milliseconds, for the runtime's timers and deadlines.
enum PusherClock {
    static func now() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    /// Seconds from now until `deadline` (ms), at least one millisecond so a call still polls once.
    static func secondsLeft(until deadline: Int64) -> Double {
        Double(max(deadline - now(), 1)) / 1000
    }
}
