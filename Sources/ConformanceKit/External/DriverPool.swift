// SPDX-License-Identifier: MIT
import Dispatch
import Foundation
import HarnessJSON
import Synchronization

/// Warm driver processes kept between cases, for a driver whose `hello` declares `"reuse": true`
/// (docs/driver-protocol.md, "Reuse"): a process that answered `close` with `"reusable": true`
/// waits here for the next case's `configure` instead of being ended. Shared by every copy of the
/// client that made it; inactive (one process per case, as before) until ``enable()``.
package final class DriverPool: Sendable {
    private struct Idle {
        let connection: DriverConnection
        let stamp: Int
    }

    private struct State {
        var enabled = false
        var idle: [Idle] = []
        var nextStamp = 0
        var counts = Counts()
        var lastDiscard: String?
    }

    /// What the pool did in a run, for the console.
    package struct Counts: Sendable, Equatable {
        /// Processes started for a case.
        package var started = 0
        /// Cases served by a process that had served an earlier one.
        package var reused = 0
        /// Processes ended because they failed a warm `configure`, could not clean up, broke the
        /// protocol, exited, or did not fit in the pool.
        package var discarded = 0
    }

    private let state = Mutex(State())
    /// At most this many processes wait between cases (the run's concurrency).
    package let capacity: Int
    /// An idle process is ended after this long without a case (no process outlives its run by more).
    package let idleLimit: Duration

    /// At most this many processes start at once (the cores): the cases that start first, the
    /// longest (``StartOrder``), get their interpreter first instead of all sharing the CPU with
    /// every other start and being ready last together.
    private let starts: StartGate

    package init(capacity: Int, idleLimit: Duration = .seconds(5),
                 concurrentStarts: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.capacity = max(0, capacity)
        self.idleLimit = idleLimit
        starts = StartGate(slots: concurrentStarts)
    }

    /// Keeps processes between cases from now on (the driver declared `"reuse": true`).
    func enable() { state.withLock { $0.enabled = capacity > 0 } }

    /// Whether processes are kept between cases.
    package var isEnabled: Bool { state.withLock { $0.enabled } }

    package var counts: Counts { state.withLock { $0.counts } }

    /// Why the last process was discarded (for diagnostics).
    package var lastDiscard: String? { state.withLock { $0.lastDiscard } }

    /// Ends every waiting process (the run is over).
    package func drain() {
        let idle = state.withLock { state in
            defer { state.idle.removeAll() }
            return state.idle
        }
        for entry in idle { entry.connection.terminate() }
    }

    /// A driver configured for one case: a warm process when one accepts the `configure`, else a
    /// fresh one. A warm process that fails it (no reply in `warmTimeout`, an `error`, a broken
    /// line, an exit) is ended and the next is tried: the case is never blamed on it. A fresh
    /// process's failure is the case's (the caller closes it); `reply` is its answer otherwise.
    func open(command: String, family: DriverConnection.DriverFamily, configure: JSONValue,
              warmTimeout: Duration, startTimeout: Duration) async throws -> OpenedDriver {
        while true {
            if let warm = await openWarm(configure: configure, warmTimeout: warmTimeout) { return warm }
            await starts.enter()
            // A process may have come back while this case waited for its turn to start one.
            if hasIdle {
                starts.leave()
                continue
            }
            defer { starts.leave() }
            return try await openFresh(command: command, family: family, configure: configure, startTimeout: startTimeout)
        }
    }

    /// An idle process that accepted `configure`, trying each in turn; nil when none is left.
    private func openWarm(configure: JSONValue, warmTimeout: Duration) async -> OpenedDriver? {
        while let connection = take() {
            let streams = connection.beginSession(afterReply: true)
            let reply: DriverLines.ReplyBody
            do {
                reply = try await connection.request(configure, timeout: warmTimeout, session: streams.number, opensSession: true)
            } catch {
                discard(connection, session: streams.number, because: "warm configure: \(error)")
                continue
            }
            if case .error(let detail) = reply {
                discard(connection, session: streams.number, because: "warm configure: \(detail)")
                continue
            }
            state.withLock { $0.counts.reused += 1 }
            return OpenedDriver(connection: connection, streams: streams, reply: .success(reply))
        }
        return nil
    }

    private var hasIdle: Bool { state.withLock { !$0.idle.isEmpty } }

    /// A new process with the case's session begun and its first `configure` answered (or failed).
    private func openFresh(command: String, family: DriverConnection.DriverFamily, configure: JSONValue,
                           startTimeout: Duration) async throws -> OpenedDriver {
        let connection = try DriverConnection(command: command, family: family)
        state.withLock { $0.counts.started += 1 }
        let streams = connection.beginSession()
        do {
            // The first request of a fresh process: its reply waits for the start-up too.
            let reply = try await connection.request(configure, timeout: startTimeout, session: streams.number)
            return OpenedDriver(connection: connection, streams: streams, reply: .success(reply))
        } catch {
            return OpenedDriver(connection: connection, streams: streams, reply: .failure(error))
        }
    }

    /// Ends case `session` on `connection`: with the pool enabled, asks the driver to clean up
    /// and keeps it when it answers `"reusable": true`; otherwise (and for any other answer) the
    /// `close` of one process per case, then the process is ended.
    func close(_ connection: DriverConnection, session: Int, timeout: Duration) async {
        guard isEnabled, !connection.isFinished, !connection.brokeProtocol else {
            _ = try? await connection.request(["type": "close"], timeout: timeout)
            connection.endSession(session)
            connection.terminate()
            return
        }
        let reply = try? await connection.request(["type": "close", "reuse": true], timeout: timeout)
        connection.endSession(session)
        if case .result(let result)? = reply, result.data?["reusable"]?.boolValue == true {
            give(connection)
        } else if case .result(let result)? = reply {
            discard(connection, session: session, because: "close: not reusable (\(result.data?["detail"]?.stringValue ?? "no detail"))")
        } else {
            discard(connection, session: session, because: "close: \(reply.map { "\($0)" } ?? "no reply")")
        }
    }

    /// Keeps a process that has answered `hello` and nothing else (its first case's `configure` follows).
    func adopt(_ connection: DriverConnection) {
        state.withLock { $0.counts.started += 1 }
        give(connection)
    }

    private func take() -> DriverConnection? {
        while true {
            let next = state.withLock { state -> DriverConnection? in state.idle.popLast()?.connection }
            guard let next else { return nil }
            if !next.isFinished && !next.brokeProtocol { return next }
            discard(next, session: nil, because: "exited or broke the protocol while idle")
        }
    }

    private func give(_ connection: DriverConnection) {
        let stamp = state.withLock { state -> Int? in
            guard state.enabled, state.idle.count < capacity, !connection.isFinished, !connection.brokeProtocol else { return nil }
            state.nextStamp += 1
            state.idle.append(Idle(connection: connection, stamp: state.nextStamp))
            return state.nextStamp
        }
        guard let stamp else { return discard(connection, session: nil, because: "no room in the pool") }
        let limit = Double(idleLimit.components.seconds) + Double(idleLimit.components.attoseconds) / 1e18
        DispatchQueue.global().asyncAfter(deadline: .now() + limit) { [weak self] in self?.expire(stamp) }
    }

    /// Ends the process given back with `stamp` if it is still waiting.
    private func expire(_ stamp: Int) {
        let expired = state.withLock { state -> DriverConnection? in
            guard let index = state.idle.firstIndex(where: { $0.stamp == stamp }) else { return nil }
            return state.idle.remove(at: index).connection
        }
        expired?.terminate()
    }

    private func discard(_ connection: DriverConnection, session: Int?, because reason: String) {
        if let session { connection.endSession(session) }
        connection.terminate()
        state.withLock { state in
            state.counts.discarded += 1
            state.lastDiscard = reason
        }
    }
}

/// A driver process with a case's session begun on it, and its answer to `configure`.
struct OpenedDriver: Sendable {
    let connection: DriverConnection
    let streams: DriverConnection.SessionStreams
    let reply: Result<DriverLines.ReplyBody, any Error>
}

/// Makes sure a session's `close` runs once (``ClientSession/close()`` may be called twice, and a
/// reused process must not receive a second `close` meant for a case it no longer serves).
final class SessionTicket: Sendable {
    let number: Int
    private let closed = Atomic<Bool>(false)

    init(number: Int) { self.number = number }

    /// True for the first caller only.
    func claimClose() -> Bool {
        !closed.exchange(true, ordering: .acquiringAndReleasing)
    }
}

/// A first-come, first-served limit on how many driver processes start at once.
final class StartGate: Sendable {
    private struct State {
        var free: Int
        var waiting: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    init(slots: Int) { state = Mutex(State(free: max(1, slots))) }

    /// How many callers wait for a slot.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Waits for a free slot (in arrival order) and takes it.
    func enter() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let now = state.withLock { state -> Bool in
                guard state.free > 0 else {
                    state.waiting.append(continuation)
                    return false
                }
                state.free -= 1
                return true
            }
            if now { continuation.resume() }
        }
    }

    /// Gives the slot back: to the longest-waiting caller if there is one.
    func leave() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.waiting.isEmpty else {
                state.free += 1
                return nil
            }
            return state.waiting.removeFirst()
        }
        next?.resume()
    }
}
