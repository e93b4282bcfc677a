// SPDX-License-Identifier: MIT
import Dispatch
import Foundation
import Synchronization

/// Waits for SIGINT or SIGTERM without blocking the Swift concurrency pool.
enum SignalWaiter {
    /// The installed signal sources, kept alive for the process's lifetime. Written only inside
    /// `waitForTermination` on its serial queue, never read: the one unguarded global of the CLI.
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// Suspends until the process receives SIGINT or SIGTERM; returns the signal's name.
    static func waitForTermination() async -> String {
        await withCheckedContinuation { continuation in
            let queue = DispatchQueue(label: "pubnub-harness.signals")
            let resumed = Mutex(false)
            queue.sync {
                for (number, name) in [(SIGINT, "SIGINT"), (SIGTERM, "SIGTERM")] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler {
                    let first = resumed.withLock { done in
                        defer { done = true }
                        return !done
                    }
                    if first { continuation.resume(returning: name) }
                }
                source.resume()
                sources.append(source)
            }
            }
        }
    }
}
