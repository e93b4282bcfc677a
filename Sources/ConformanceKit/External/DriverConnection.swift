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
    }

    private let state: Mutex<State>
    /// Serialises writes to the driver's stdin off the Swift concurrency pool (a pipe write can block).
    private let writer = DispatchQueue(label: "pubnub-harness.driver.writer")
    let events: AsyncStream<ClientEvent>
    private let eventSink: AsyncStream<ClientEvent>.Continuation
    /// Events of a Pusher driver (``family`` `.pusher`).
    let pusherEvents: AsyncStream<PusherObservation>
    private let pusherSink: AsyncStream<PusherObservation>.Continuation
    /// Which protocol's event lines the driver writes.
    let family: DriverFamily

    enum DriverFamily: Sendable { case pubnub, pusher }

    init(command: String, family: DriverFamily = .pubnub) throws {
        self.family = family
        (pusherEvents, pusherSink) = AsyncStream.makeStream(of: PusherObservation.self, bufferingPolicy: .unbounded)
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
        (events, eventSink) = AsyncStream.makeStream(of: ClientEvent.self, bufferingPolicy: .unbounded)
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

    /// Sends `message` with a fresh `id` and waits for its reply (at most `timeout`, if given).
    func request(_ message: JSONValue, timeout: Duration?) async throws -> DriverLines.ReplyBody {
        guard case .object(var fields) = message else { throw ClientAdapterError.protocolViolation("request is not an object") }
        let id = state.withLock { state in
            defer { state.nextID += 1 }
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
        let tail = state.withLock { Self.tail($0.stderrTail) }
        for continuation in pending { continuation.resume(throwing: ClientAdapterError.protocolViolation(reason + tail)) }
        eventSink.finish()
        pusherSink.finish()
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
                pusherSink.yield(observation)
                return
            }
            switch try DriverLines.decode(line) {
            case .reply(let id, let body):
                state.withLock { $0.pending.removeValue(forKey: id) }?.resume(returning: body)
            case .event(let event):
                eventSink.yield(event)
            case .log:
                break
            }
        } catch {
            // A broken line fails everything waiting: the runner reports it as the case's failure.
            let pending = state.withLock { state in
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
