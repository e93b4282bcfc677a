// SPDX-License-Identifier: MIT
import Foundation
import HarnessHTTPClient

/// Checks made before a run starts, so a dead server or a missing driver costs one line and
/// exit 2 instead of a run where every case fails.
enum Preflight {
    /// Seconds the server gets to answer `/__admin/health`.
    static let healthTimeout = 5.0

    /// `GET /__admin/health` on `address` must answer 200.
    static func checkServer(_ address: String) async throws(UsageError) {
        guard let colon = address.lastIndex(of: ":"), let port = Int(address[address.index(after: colon)...]) else {
            throw UsageError("--server \(address) is not HOST:PORT")
        }
        var host = String(address[..<colon])
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let client: HTTPClient
        do {
            client = try HTTPClient(host: host, port: port, trust: nil, userAgent: "pubnub-harness-preflight", keepAlive: false)
        } catch {
            throw UsageError("--server \(address): \(error)")
        }
        switch await client.perform(HTTPClientRequest(target: "/__admin/health"), timeout: healthTimeout) {
        case .success(let response) where response.statusCode == 200:
            return
        case .success(let response):
            throw UsageError("--server \(address): GET /__admin/health answered HTTP \(response.statusCode), not 200 (is it pubnub-harness serve?)")
        case .failure(let error):
            throw UsageError("--server \(address) does not answer: \(error)")
        }
    }

    /// The program `command` starts (its first word after `NAME=value` assignments) must exist:
    /// asked of `/bin/sh` itself, so quoting and PATH work as they will for the run. The wait for
    /// the shell runs on its own thread, off the Swift concurrency pool.
    static func checkCommand(_ command: String) async throws(UsageError) {
        let outcome: Result<Void, UsageError> = await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: Result { () throws(UsageError) in try blockingCheckCommand(command) }) }
        }
        try outcome.get()
    }

    private static func blockingCheckCommand(_ command: String) throws(UsageError) {
        let script = #"eval "set -- $HARNESS_CLIENT_COMMAND" || exit 3; "#
            + #"while [ $# -gt 0 ]; do case "$1" in *=*) shift ;; *) break ;; esac; done; "#
            + #"[ $# -gt 0 ] || exit 4; command -v -- "$1" >/dev/null 2>&1 || { printf '%s' "$1"; exit 5; }"#
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", script]
        var environment = ProcessInfo.processInfo.environment
        environment["HARNESS_CLIENT_COMMAND"] = command
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw UsageError("--client-command: cannot start /bin/sh: \(error)")
        }
        let program = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        switch process.terminationStatus {
        case 0: return
        case 4: throw UsageError("--client-command is empty")
        case 5: throw UsageError("--client-command: \(program): command not found")
        default: throw UsageError("--client-command: cannot parse \"\(command)\" as a shell command")
        }
    }
}
