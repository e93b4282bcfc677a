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

    func run() throws {
        let catalog = try CatalogSource.load(vectors: vectors)
        let cases: [ConformanceCase]
        do {
            cases = try ConformanceCatalog.select(catalog.cases, suites: suites, ids: [])
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
