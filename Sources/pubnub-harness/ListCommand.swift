// SPDX-License-Identifier: MIT
import ArgumentParser
import ConformanceKit
import Foundation

/// `pubnub-harness list`: the suites and their case ids.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List the conformance suites and case ids.")

    @Option(name: .customLong("suite"), help: "Only this suite (repeatable).")
    var suites: [String] = []
    @Flag(help: "Print only the case ids, one per line.")
    var idsOnly = false
    @Option(help: "Directory of crypto vector files (default: the vectors built into the binary).")
    var vectors: String?
    @Option(help: "Which family: all (default), pubnub or pusher.")
    var family: String = "all"

    func validate() throws {
        guard ["all", "pubnub", "pusher"].contains(family) else { throw ValidationError("--family must be all, pubnub or pusher") }
    }

    /// One listed case.
    struct Entry {
        var id: String
        var suite: String
        var spec: String
        var title: String
    }

    func run() throws {
        let catalog = try CatalogSource.load(vectors: vectors)
        // `--suite pusher` / `pusher.GROUP` name the Pusher family; other names the PubNub suites.
        let pusherNames = suites.filter { $0 == "pusher" || $0.hasPrefix("pusher.") }
        let pubnubNames = suites.filter { !pusherNames.contains($0) }
        var cases: [Entry] = []
        do {
            if family != "pusher" && (suites.isEmpty || !pubnubNames.isEmpty) {
                cases += try ConformanceCatalog.select(catalog.cases, suites: pubnubNames, ids: []).map {
                    Entry(id: $0.id, suite: $0.suite, spec: $0.spec, title: $0.title)
                }
            }
            if family != "pubnub" && (suites.isEmpty || !pusherNames.isEmpty) {
                cases += try PusherCatalog.select(PusherCatalog.all(), groups: pusherNames, ids: []).map {
                    Entry(id: $0.id, suite: "pusher.\($0.group)", spec: $0.spec, title: $0.title)
                }
            }
        } catch {
            throw UsageError("\(error)")
        }
        var output = ""
        if idsOnly {
            output = cases.map(\.id).joined(separator: "\n") + "\n"
        } else {
            var order: [String] = []
            for testCase in cases where !order.contains(testCase.suite) { order.append(testCase.suite) }
            for suite in order {
                let members = cases.filter { $0.suite == suite }
                output += "\(suite) (\(members.count) cases)\n"
                let width = members.map(\.id.count).max() ?? 0
                for testCase in members {
                    output += "  \(testCase.id.padding(toLength: width, withPad: " ", startingAt: 0))  \(testCase.spec)  \(testCase.title)\n"
                }
            }
            output += "\(cases.count) cases\n"
        }
        FileHandle.standardOutput.write(Data(output.utf8))
    }
}
