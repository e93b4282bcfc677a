// SPDX-License-Identifier: MIT
import ArgumentParser
import Foundation

/// The `pubnub-harness` command: serve the mock, run the conformance suites, list cases, crypto tools, and
/// record and verify live traffic.
@main
struct PubNubHarness: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pubnub-harness",
        abstract: "A PubNub protocol conformance harness: mock server, fault injection, suites and crypto tools.",
        version: HarnessVersion.current,
        subcommands: [RunCommand.self, ListCommand.self, ServeCommand.self, CryptoCommand.self, MergeCommand.self, RecordCommand.self, VerifyCommand.self]
    )

    /// Parses and runs, mapping outcomes to the harness's exit statuses: 0 success, 1 failure
    /// (a command's own), 2 usage error. Every error is one line, written by ``ErrorOutput``.
    static func main() async {
        let command: any ParsableCommand
        do {
            command = try parseAsRoot()
        } catch {
            exitForParseError(error)
        }
        do {
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                var syncCommand = command
                try syncCommand.run()
            }
        } catch let failure as CLIFailure {
            ErrorOutput.exit(failure.description, code: 1)
        } catch let usage as UsageError {
            ErrorOutput.usage(usage.description)
        } catch let validation as ValidationError {
            ErrorOutput.usage(validation.message)
        } catch {
            exit(withError: error)
        }
    }

    /// Help and version requests print in full and exit 0; every other parse or validation error
    /// prints its first line and exits 2.
    private static func exitForParseError(_ error: any Error) -> Never {
        let code = exitCode(for: error)
        let message = fullMessage(for: error)
        // A command that already printed its own message signals it with a bare `ExitCode`
        // (which the parser may hand back wrapped: then it has no message of its own).
        if code == .success || error is ExitCode || message.isEmpty {
            exit(withError: error)
        }
        let line = message.split(separator: "\n").first.map(String.init) ?? "invalid usage"
        let text = line.hasPrefix("Error: ") ? String(line.dropFirst(7)) : line
        ErrorOutput.usage("\(text) (see --help)")
    }
}
