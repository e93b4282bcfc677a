// SPDX-License-Identifier: MIT
import CPosix
import Foundation
import Glibc

/// The built `pubnub-harness` binary run as a subprocess, as a user or a CI job runs it: the one
/// built beside the running tests (so a sanitizer build under `.build-asan` runs its own), else
/// `.build/debug`, where `swift build` and `swift test` put it.
/// The one process launcher of the tests.
package enum HarnessProcess {
    /// The package root (this file is `Tests/HarnessTesting/HarnessProcess.swift`).
    package static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    package static let binary: String = {
        let tests = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        let sibling = URL(fileURLWithPath: tests).deletingLastPathComponent().appendingPathComponent("pubnub-harness").path
        if FileManager.default.isExecutableFile(atPath: sibling) { return sibling }
        return packageRoot.appendingPathComponent(".build/debug/pubnub-harness").path
    }()
    package static var exists: Bool { FileManager.default.isExecutableFile(atPath: binary) }

    /// The environment a launched binary gets: this process's, with LeakSanitizer off when the
    /// tests run under AddressSanitizer (`scripts/sanitize.sh`). A CLI that exits with its server
    /// still alive shows the weak-reference side tables of live objects as leaks (the object header
    /// keeps the side-table pointer shifted, where LeakSanitizer cannot see it), and the report
    /// would land in the stderr the tests compare. Heap errors in the child are still caught.
    package static let childEnvironment: [String: String] = {
        var environment = ProcessInfo.processInfo.environment
        if let options = environment["ASAN_OPTIONS"] { environment["ASAN_OPTIONS"] = options + ":detect_leaks=0" }
        return environment
    }()

    package struct Outcome {
        package var status: Int32
        package var stdout: String
        package var stderr: String
    }

    /// Runs to completion in `directory` (a fresh temporary one by default); at most `limit`
    /// seconds stretched by ``TestTime/scale``.
    package static func run(_ arguments: [String], in directory: URL? = nil, limit: Double = 60) async throws -> Outcome {
        let work = directory ?? FileManager.default.temporaryDirectory.appendingPathComponent("harness-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let io = FileManager.default.temporaryDirectory.appendingPathComponent("harness-io-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: io, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(at: io)
            if directory == nil { try? FileManager.default.removeItem(at: work) }
        }
        let out = io.appendingPathComponent("out"), err = io.appendingPathComponent("err")
        for file in [out, err] { try Data().write(to: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.environment = childEnvironment
        process.currentDirectoryURL = work
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
            let pid = process.processIdentifier
            // The time budget: a process still running then is killed (and the test fails on its status).
            DispatchQueue.global().asyncAfter(deadline: .now() + TestTime.budget(limit)) { if process.isRunning { kill(pid, SIGKILL) } }
        }
        return Outcome(status: status, stdout: String(decoding: try Data(contentsOf: out), as: UTF8.self),
                       stderr: String(decoding: try Data(contentsOf: err), as: UTF8.self))
    }

    /// A running `serve` or `record` (stdout and stderr both read through one pipe). A thread of its own drains
    /// the pipe for the process's whole life, so a server that writes much (a sanitizer's reports)
    /// never blocks on a full pipe while the test is busy elsewhere. Every blocking wait runs on a
    /// dedicated thread, never on the Swift concurrency pool (other tests run there meanwhile).
    // @unchecked Sendable: `received` and `ended` are read and written only with `condition` locked;
    // `pid` is immutable; the pipe's read end belongs to the drain thread alone.
    package final class Server: @unchecked Sendable {
        package let pid: pid_t
        private let condition = NSCondition()
        private var received = ""
        private var ended = false
        /// Everything read from the process so far.
        package var text: String {
            condition.lock()
            defer { condition.unlock() }
            return received
        }

        /// Starts `pubnub-harness serve ARGUMENTS`.
        package convenience init(_ arguments: [String]) throws {
            try self.init(command: "serve", arguments)
        }

        /// Starts `pubnub-harness COMMAND ARGUMENTS` (a command that runs until a signal: `serve`, `record`).
        package init(command: String, _ arguments: [String]) throws {
            // Close-on-exec, so that no other process started meanwhile holds this pipe open.
            var fds: [Int32] = [0, 0]
            guard cposix_pipe_cloexec(&fds) == 0 else { throw POSIXError(.EMFILE) }
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
            posix_spawn_file_actions_adddup2(&actions, fds[1], 2)
            // The child keeps only stdin, stdout and stderr. Other tests' pipes (Foundation's `Pipe`
            // is not close-on-exec) would otherwise stay open in this server for its whole life, and a
            // test reading such a pipe to its end would wait for this server to exit.
            cposix_spawn_close_from(&actions, 3)
            let argv = ([HarnessProcess.binary, command] + arguments).map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            let environment = HarnessProcess.childEnvironment.map { strdup("\($0.key)=\($0.value)") } + [nil]
            defer { environment.forEach { free($0) } }
            var pid: pid_t = 0
            let result = posix_spawn(&pid, HarnessProcess.binary, &actions, nil, argv, environment)
            close(fds[1])
            guard result == 0 else {
                close(fds[0])
                throw POSIXError(POSIXErrorCode(rawValue: result) ?? .ENOENT)
            }
            self.pid = pid
            let output = fds[0]
            Thread.detachNewThread { [self] in drain(output) }
        }

        /// Reads the pipe until its end (every writer gone), then closes it.
        private func drain(_ output: Int32) {
            var buffer = [UInt8](repeating: 0, count: 8192)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
                if n < 0, errno == EINTR { continue }
                condition.lock()
                if n > 0 { received += String(decoding: buffer[..<n], as: UTF8.self) } else { ended = true }
                condition.broadcast()
                condition.unlock()
                if n <= 0 { break }
            }
            close(output)
        }

        /// The rest of the first output line starting with `prefix` (bounded: 10 s, scaled).
        package func line(after prefix: String) async -> String? {
            await offPool { self.blockingLine(after: prefix) }
        }

        /// Waits (bounded: 5 s, scaled) until the output contains `text`.
        package func waitFor(_ text: String) async -> Bool {
            await offPool {
                for _ in 0..<Self.rounds(seconds: 5) where !self.text.contains(text) { self.readSome(waitMs: 100) }
                return self.text.contains(text)
            }
        }

        /// Sends `signal`, reads the remaining output, and returns the exit status (nil if it had to be killed).
        package func stop(signal: Int32 = SIGINT) async -> Int32? {
            await offPool { self.blockingStop(signal: signal) }
        }

        /// Waits for the process to end on its own (bounded: 10 s, scaled); its exit status, or
        /// nil if it had to be killed.
        package func exitStatus() async -> Int32? {
            await offPool { self.blockingStop(signal: nil) }
        }

        /// How many 100 ms polls make `seconds` of time budget on this machine.
        package static func rounds(seconds: Double) -> Int { Int((TestTime.budget(seconds) * 10).rounded(.up)) }

        private func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread { continuation.resume(returning: work()) }
            }
        }

        private func blockingLine(after prefix: String) -> String? {
            for _ in 0..<Self.rounds(seconds: 10) {
                if let line = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().first(where: { $0.hasPrefix(prefix) }) {
                    return String(line.dropFirst(prefix.count))
                }
                guard readSome(waitMs: 100) else { return nil }
            }
            return nil
        }

        /// Waits up to `waitMs` for more output; false at end of output.
        @discardableResult
        package func readSome(waitMs: Int32) -> Bool {
            condition.lock()
            defer { condition.unlock() }
            let seen = received.utf8.count
            let deadline = Date(timeIntervalSinceNow: Double(waitMs) / 1000)
            while !ended, received.utf8.count == seen, condition.wait(until: deadline) {}
            return !(ended && received.utf8.count == seen)
        }

        private func blockingStop(signal: Int32?) -> Int32? {
            if let signal { kill(pid, signal) }
            for _ in 0..<Self.rounds(seconds: 10) where readSome(waitMs: 100) {}
            var status: Int32 = 0
            for _ in 0..<(Self.rounds(seconds: 5) * 10) {
                if waitpid(pid, &status, WNOHANG) == pid { return (status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F) }
                usleep(10_000)
            }
            kill(pid, SIGKILL)
            _ = waitpid(pid, &status, 0)
            return nil
        }
    }
}
