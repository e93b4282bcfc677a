// SPDX-License-Identifier: MIT
import Foundation
import Synchronization

/// The write end of the self-pipe the signal handler writes to; set once by `SignalWaiter.install`
/// before the handler is installed, read-only afterwards (also from the handler).
nonisolated(unsafe) private var signalPipeWrite: Int32 = -1

/// SIGINT/SIGTERM handling without blocking the Swift concurrency pool.
///
/// `install()` puts a handler in place synchronously (a self-pipe write, async-signal-safe), so a
/// supervisor that signals as soon as it reads the address line never hits the default action and
/// no signal is lost; a dedicated thread reads the pipe. `wait()` suspends until a signal arrived,
/// or returns at once if one already did.
final class SignalWaiter: Sendable {
    private struct State {
        var received: String?
        var waiter: CheckedContinuation<String, Never>?
    }

    private let state = Mutex(State())

    private init() {}

    /// Installs the handlers for SIGINT and SIGTERM (call once, before announcing the address).
    static func install() -> SignalWaiter {
        let waiter = SignalWaiter()
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return waiter }
        signalPipeWrite = fds[1]
        let readFD = fds[0]
        for number in [SIGINT, SIGTERM] {
            signal(number) { received in
                var byte = UInt8(truncatingIfNeeded: received)
                _ = write(signalPipeWrite, &byte, 1)
            }
        }
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let n = read(readFD, &byte, 1)
                if n == 1 { break }
                if n < 0 && errno == EINTR { continue }
                return
            }
            waiter.deliver(Int32(byte) == SIGINT ? "SIGINT" : "SIGTERM")
        }
        thread.start()
        return waiter
    }

    private func deliver(_ name: String) {
        let resume = state.withLock { state -> CheckedContinuation<String, Never>? in
            guard state.received == nil else { return nil }
            state.received = name
            defer { state.waiter = nil }
            return state.waiter
        }
        resume?.resume(returning: name)
    }

    /// Suspends until SIGINT or SIGTERM arrives; returns the signal's name.
    func wait() async -> String {
        await withCheckedContinuation { continuation in
            let already = state.withLock { state -> String? in
                if let received = state.received { return received }
                state.waiter = continuation
                return nil
            }
            if let already { continuation.resume(returning: already) }
        }
    }
}
