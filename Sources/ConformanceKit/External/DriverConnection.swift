// SPDX-License-Identifier: MIT
import HarnessJSON
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A running driver process: writes request lines, reads reply and event lines on dedicated
/// threads, and matches replies to requests by `id`.
final class DriverConnection: Sendable {
    private struct State {
        var process: Process?
        var input: FileHandle?
        var nextID = 1
        var pending: [Int: CheckedContinuation<DriverLines.ReplyBody, any Error>] = [:]
        var finished = false
        var stderrTail = ""
        /// The current case's event sinks; nil between cases (lines then are dropped).
        var eventSink: AsyncStream<ClientEvent>.Continuation?
        var pusherSink: AsyncStream<PusherObservation>.Continuation?
        /// Counts the cases this process has served; a request names the case it belongs to.
        var session = 0
        /// Set when the driver wrote a line that does not decode: it is not given another case.
        var broken = false
        /// On a reused process, the `configure` request whose reply starts the case's events: a
        /// line the previous case wrote late (it precedes that reply on the pipe) is dropped.
        var openingID: Int?
        var accepting = true
    }

    /// One case's view of the driver: its events, and the number its requests carry.
    struct SessionStreams: Sendable {
        let number: Int
        let events: AsyncStream<ClientEvent>
        let pusherEvents: AsyncStream<PusherObservation>
    }

    private let state: Mutex<State>
    /// Serialises writes to the driver's stdin off the Swift concurrency pool (a pipe write can block).
    private let writer = DispatchQueue(label: "pubnub-harness.driver.writer")
    /// Which protocol's event lines the driver writes.
    let family: DriverFamily

    enum DriverFamily: Sendable { case pubnub, pusher }

    init(command: String, family: DriverFamily = .pubnub) throws {
        self.family = family
        // A driver that exits leaves a broken pipe: its write must fail with EPIPE (reported as
        // the case's failure), not kill the harness with SIGPIPE.
        Self.ignoreBrokenPipes
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \(command)"]
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        state = Mutex(State())
        do {
            try process.run()
        } catch {
            throw ClientAdapterError.startFailed("\(command): \(error.localizedDescription)")
        }
        let input = stdin.fileHandleForWriting
        state.withLock {
            $0.process = process
            $0.input = input
        }
        let output = stdout.fileHandleForReading
        let errors = stderr.fileHandleForReading
        Thread.detachNewThread { [self] in readLines(output) }
        Thread.detachNewThread { [self] in readErrors(errors) }
    }

    private static let ignoreBrokenPipes: Void = {
        #if canImport(Glibc)
        _ = signal(SIGPIPE, SIG_IGN)
        #endif
    }()

    /// Starts the next case on this process: fresh event streams (the previous case's are
    /// finished), and a number that ``request(_:timeout:session:)`` checks.
    /// With `afterReply`, events are taken only once the reply to the next request sent with
    /// `opensSession` (the `configure`) has arrived.
    func beginSession(afterReply: Bool = false) -> SessionStreams {
        let (events, eventSink) = AsyncStream.makeStream(of: ClientEvent.self, bufferingPolicy: .unbounded)
        let (pusherEvents, pusherSink) = AsyncStream.makeStream(of: PusherObservation.self, bufferingPolicy: .unbounded)
        let (old, oldPusher, number, finished) = state.withLock { state in
            defer {
                state.eventSink = eventSink
                state.pusherSink = pusherSink
                state.session += 1
                state.accepting = !afterReply
                state.openingID = nil
            }
            return (state.eventSink, state.pusherSink, state.session + 1, state.finished)
        }
        old?.finish()
        oldPusher?.finish()
        if finished {
            eventSink.finish()
            pusherSink.finish()
        }
        return SessionStreams(number: number, events: events, pusherEvents: pusherEvents)
    }

    /// Ends case `number` without ending the process: its event streams finish, its requests still
    /// waiting fail, and later requests naming it are refused (a reused driver drops the
    /// previous case's late replies and events itself; docs/driver-protocol.md, "Reuse").
    func endSession(_ number: Int) {
        let ended = state.withLock { state -> (AsyncStream<ClientEvent>.Continuation, AsyncStream<PusherObservation>.Continuation?,
                                                [CheckedContinuation<DriverLines.ReplyBody, any Error>])? in
            guard state.session == number, let events = state.eventSink else { return nil }
            defer {
                state.eventSink = nil
                state.pusherSink = nil
                state.pending.removeAll()
            }
            return (events, state.pusherSink, Array(state.pending.values))
        }
        guard let (events, pusherEvents, pending) = ended else { return }
        events.finish()
        pusherEvents?.finish()
        for continuation in pending { continuation.resume(throwing: ClientAdapterError.protocolViolation("session closed")) }
    }

    /// Whether the process has ended (its output closed) or was terminated.
    var isFinished: Bool { state.withLock { $0.finished } }

    /// Whether the driver has written a line that does not decode.
    var brokeProtocol: Bool { state.withLock { $0.broken } }

    /// Sends `message` with a fresh `id` and waits for its reply (at most `timeout`, if given).
    /// With `session`, the request is refused unless that case is still this process's current one.
    func request(_ message: JSONValue, timeout: Duration?, session: Int? = nil, opensSession: Bool = false) async throws -> DriverLines.ReplyBody {
        guard case .object(var fields) = message else { throw ClientAdapterError.protocolViolation("request is not an object") }
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            if opensSession { state.openingID = state.nextID }
            return state.nextID
        }
        fields["id"] = .int(id)
        let line = Data((JSONValue.object(fields).jsonText + "\n").utf8)
        var timer: Task<Void, Never>?
        if let timeout {
            timer = Task { [self] in
                try? await Task.sleep(for: timeout)
                if !Task.isCancelled { fail(id, ClientAdapterError.protocolViolation("no reply to \(fields["type"]?.stringValue ?? "?") within \(timeout)")) }
            }
        }
        defer { timer?.cancel() }
        return try await withCheckedThrowingContinuation { continuation in
            let input: FileHandle? = state.withLock { state in
                if state.finished {
                    continuation.resume(throwing: ClientAdapterError.protocolViolation("driver has exited\(Self.tail(state.stderrTail))"))
                    return nil
                }
                if let session, session != state.session || state.eventSink == nil {
                    continuation.resume(throwing: ClientAdapterError.protocolViolation("session closed"))
                    return nil
                }
                state.pending[id] = continuation
                return state.input
            }
            guard let input else { return }
            writer.async { [self] in
                do { try input.write(contentsOf: line) } catch {
                    fail(id, ClientAdapterError.protocolViolation("cannot write to driver: \(error.localizedDescription)"))
                }
            }
        }
    }

    /// Ends the process (if it has not exited) and fails any waiting request.
    func terminate() {
        let (process, input) = state.withLock { ($0.process, $0.input) }
        writer.async { try? input?.close() }
        if let process, process.isRunning {
            process.terminate()
            // SIGTERM may be blocked (a parent's signal mask is inherited): SIGKILL after 1 s.
            writer.asyncAfter(deadline: .now() + 1) {
                if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            }
        }
        finish(reason: "session closed")
    }

    private func fail(_ id: Int, _ error: any Error) {
        state.withLock { $0.pending.removeValue(forKey: id) }?.resume(throwing: error)
    }

    private func finish(reason: String) {
        let pending = state.withLock { state -> [CheckedContinuation<DriverLines.ReplyBody, any Error>] in
            state.finished = true
            defer { state.pending.removeAll() }
            return Array(state.pending.values)
        }
        let (tail, eventSink, pusherSink) = state.withLock { (Self.tail($0.stderrTail), $0.eventSink, $0.pusherSink) }
        for continuation in pending { continuation.resume(throwing: ClientAdapterError.protocolViolation(reason + tail)) }
        eventSink?.finish()
        pusherSink?.finish()
    }

    /// Runs on its own thread: blocking reads of the driver's stdout until EOF.
    private func readLines(_ handle: FileHandle) {
        // Plain bytes with explicit offsets: a `Data` buffer trimmed in place lost line prefixes
        // now and then (a reply arrived as `"type":…}` without its `{"id":N,`).
        var buffer: [UInt8] = []
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { break }
            buffer.append(contentsOf: chunk)
            var start = 0
            while let newline = buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                if !line.trimmingCharacters(in: .whitespaces).isEmpty { receive(line) }
            }
            buffer.removeFirst(start)
        }
        finish(reason: "driver closed its output")
    }

    private func receive(_ line: String) {
        do {
            if family == .pusher, let observation = try PusherDriverLines.event(line) {
                _ = state.withLock { $0.accepting ? $0.pusherSink : nil }?.yield(observation)
                return
            }
            switch try DriverLines.decode(line) {
            case .reply(let id, let body):
                state.withLock { state in
                    if id == state.openingID {
                        state.openingID = nil
                        state.accepting = true
                    }
                    return state.pending.removeValue(forKey: id)
                }?.resume(returning: body)
            case .event(let event):
                _ = state.withLock { $0.accepting ? $0.eventSink : nil }?.yield(event)
            case .log:
                break
            }
        } catch {
            // A broken line fails everything waiting: the runner reports it as the case's failure.
            let pending = state.withLock { state in
                state.broken = true
                defer { state.pending.removeAll() }
                return Array(state.pending.values)
            }
            for continuation in pending { continuation.resume(throwing: error) }
        }
    }

    /// Runs on its own thread: keeps the last 2 KB of stderr for diagnostics.
    private func readErrors(_ handle: FileHandle) {
        while true {
            let chunk = handle.availableData
            if chunk.isEmpty { return }
            let text = String(decoding: chunk, as: UTF8.self)
            state.withLock { state in
                state.stderrTail = String((state.stderrTail + text).suffix(2_048))
            }
        }
    }

    private static func tail(_ text: String) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? "" : " (stderr: \(trimmed.suffix(300)))"
    }
}
