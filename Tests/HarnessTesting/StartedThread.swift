// SPDX-License-Identifier: MIT
import Foundation
import Synchronization

/// Blocking work on a thread of its own, started the moment this value is made, whose result is
/// awaited later.
///
/// `async let x = onDedicatedThread { … }` starts its thread only when the child task first runs
/// on the cooperative pool: with the pool busy or blocked, a test server's thread could start
/// seconds after the client's, and the client's socket timeout expired while the server had not
/// yet begun (the TLS handshakes that gave up with `SSL_ERROR_WANT_READ`, errno 11). Two
/// `StartedThread`s made one after the other run side by side whatever the pool does.
package final class StartedThread<T: Sendable>: Sendable {
    private enum State {
        case running
        case waiting(CheckedContinuation<T, Never>)
        case finished(T)
    }

    private let state = Mutex(State.running)

    /// Starts `body` on a new thread now.
    package init(_ body: @escaping @Sendable () -> T) {
        let thread = Thread { [self] in finish(body()) }
        thread.start()
    }

    /// The body's result, once it has returned (awaited at most once).
    package var value: T {
        get async {
            await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
                let done: T? = state.withLock { state in
                    switch state {
                    case .finished(let value): return value
                    case .running:
                        state = .waiting(continuation)
                        return nil
                    case .waiting: preconditionFailure("StartedThread.value awaited twice")
                    }
                }
                if let done { continuation.resume(returning: done) }
            }
        }
    }

    private func finish(_ value: T) {
        let waiter: CheckedContinuation<T, Never>? = state.withLock { state in
            defer { state = .finished(value) }
            if case .waiting(let continuation) = state { return continuation }
            return nil
        }
        waiter?.resume(returning: value)
    }
}
