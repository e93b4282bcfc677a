// SPDX-License-Identifier: MIT
import CPosix
import Glibc
import Synchronization

/// Cancels one in-flight request from any thread: an eventfd the I/O thread polls next to its socket.
public final class CancellationSignal: Sendable {
    let wakeFD: Int32
    private let state = Mutex(false)

    public init() {
        wakeFD = cposix_eventfd()
    }

    deinit {
        if wakeFD >= 0 { close(wakeFD) }
    }

    /// True once `cancel()` was called.
    public var isCancelled: Bool { state.withLock { $0 } }

    /// Wakes the I/O thread; its request fails with `HTTPClientError.cancelled`.
    public func cancel() {
        let first = state.withLock { cancelled in
            defer { cancelled = true }
            return !cancelled
        }
        guard first, wakeFD >= 0 else { return }
        var one: UInt64 = 1
        _ = withUnsafeBytes(of: &one) { write(wakeFD, $0.baseAddress, 8) }
    }
}
