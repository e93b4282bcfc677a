// SPDX-License-Identifier: MIT
import MockPusher

/// The transport's monotonic clock in `PusherInstant`s (milliseconds since the clock was made).
public struct PusherClock: Sendable {
    private let read: @Sendable () -> PusherInstant

    /// A clock that returns whatever `read` says (tests drive time themselves).
    public init(_ read: @escaping @Sendable () -> PusherInstant) { self.read = read }

    /// Milliseconds of `ContinuousClock` since this call.
    public static func monotonic() -> PusherClock {
        let origin = ContinuousClock.now
        return PusherClock {
            let elapsed = ContinuousClock.now - origin
            let (seconds, attoseconds) = elapsed.components
            return PusherInstant(milliseconds: seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        }
    }

    /// The current instant.
    public var now: PusherInstant { read() }
}
