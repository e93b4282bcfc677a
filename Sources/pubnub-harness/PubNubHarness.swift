// SPDX-License-Identifier: MIT
import ArgumentParser

/// The `pubnub-harness` command: serve the mock, run the conformance suites, list cases, and crypto tools.
@main
struct PubNubHarness: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pubnub-harness",
        abstract: "A PubNub protocol conformance harness: mock server, fault injection, suites and crypto tools.",
        subcommands: [RunCommand.self, ListCommand.self]
    )
}
