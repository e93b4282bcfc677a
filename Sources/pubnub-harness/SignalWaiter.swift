// SPDX-License-Identifier: MIT
import Dispatch
import Foundation
import Synchronization

/// SIGINT/SIGTERM handling without blocking the Swift concurrency pool.
///
/// `install()` takes over both signals at once (call it before announcing the address, so a
/// supervisor that signals as soon as it reads the address line never hits the default action);
/// `wait()` then suspends until one arrives, or returns at once if one already did.
final class SignalWaiter: Sendable {
    private struct State {
        var received: String?
        var waiter: CheckedContinuation<String, Never>?
    }

    private let state = Mutex(State())
    /// The signal sources, kept alive for the process's lifetime. Appended to only by `install`
    /// (called once, from the command's task), never read: the one unguarded global of the CLI.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    private init() {}

    /// Ignores SIGINT and SIGTERM's default action and starts listening for them.
    static func install() -> SignalWaiter {
        let waiter = SignalWaiter()
        let queue = DispatchQueue(label: "pubnub-harness.signals")
        for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { waiter.deliver(name) }
            source.resume()
            sources.append(source)
        }
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
