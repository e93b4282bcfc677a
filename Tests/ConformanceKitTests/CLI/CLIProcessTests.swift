// SPDX-License-Identifier: MIT
import Foundation
import Glibc
import HarnessHTTPClient
import Testing
@testable import ConformanceKit

/// Every way a user can stumble on the CLI ends in one line on stderr and exit 2, before any case
/// runs; the commands a CI job copies from the README work from an empty directory.
@Suite(.enabled(if: HarnessProcess.exists, "needs the built pubnub-harness binary (HarnessProcess.binary)"), .timeLimit(.minutes(TestTime.limitMinutes(10))))
struct CLIProcessTests {
    /// A port bound to loopback without listening: connections to it are refused.
    final class RefusedPort {
        let fd: Int32
        let port: Int
        init() throws {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            self.fd = fd
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
            }
            guard bound else { throw POSIXError(.EADDRINUSE) }
            port = Int(UInt16(bigEndian: address.sin_port))
        }
        deinit { close(fd) }
    }

    static func expectOneLineUsageError(_ outcome: HarnessProcess.Outcome, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(outcome.status == 2, sourceLocation: sourceLocation)
        #expect(outcome.stderr == "error: \(expected)\n", sourceLocation: sourceLocation)
        #expect(outcome.stdout == "", sourceLocation: sourceLocation)
    }

    @Test func unknownSuiteAndCase() async throws {
        let suites = "(suites: access-v3, encryption, event-engine, faults, files, filters, groups, history, message-actions, message-types, objects, pam, presence, publish, push, reconnect, subscribe, threshold, tls, transport)"
        Self.expectOneLineUsageError(try await HarnessProcess.run(["run", "--suite", "nope"]), "unknown suite \"nope\" \(suites)")
        Self.expectOneLineUsageError(try await HarnessProcess.run(["list", "--suite", "nope"]), "unknown suite \"nope\" \(suites)")
        Self.expectOneLineUsageError(try await HarnessProcess.run(["run", "--case", "x"]), "unknown case \"x\" (see `pubnub-harness list`)")
    }

    @Test func missingFilesSayWhy() async throws {
        Self.expectOneLineUsageError(try await HarnessProcess.run(["serve", "--plan", "/missing.json"]),
                                     "cannot read plan /missing.json: No such file or directory")
        Self.expectOneLineUsageError(try await HarnessProcess.run(["run", "--expectations", "/missing-expectations.json"]),
                                     "cannot read expectation file /missing-expectations.json: No such file or directory")
        Self.expectOneLineUsageError(try await HarnessProcess.run(["run", "--vectors", "/missing-vectors"]),
                                     "cannot read vectors /missing-vectors: No such file or directory")
        Self.expectOneLineUsageError(try await HarnessProcess.run(["list", "--vectors", "/missing-vectors"]),
                                     "cannot read vectors /missing-vectors: No such file or directory")
    }

    @Test func deadServerAndMissingDriverAreCheckedBeforeTheRun() async throws {
        let refused = try RefusedPort()
        Self.expectOneLineUsageError(try await HarnessProcess.run(["run", "--server", "127.0.0.1:\(refused.port)"]),
                                     "--server 127.0.0.1:\(refused.port) does not answer: connect failed: errno 111 (Connection refused)")
        Self.expectOneLineUsageError(try await HarnessProcess.run(["run", "--client-command", "no-such-driver-42 --flag"]),
                                     "--client-command: no-such-driver-42: command not found")
        Self.expectOneLineUsageError(try await HarnessProcess.run(["run", "--client-command", "FOO=1 /nonexistent/driver.py"]),
                                     "--client-command: /nonexistent/driver.py: command not found")
    }

    @Test func unwritableReportPath() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("harness-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        try Data().write(to: work.appendingPathComponent("plain-file"))
        let outcome = try await HarnessProcess.run(["run", "--junit", "plain-file/report.xml"], in: work)
        #expect(outcome.status == 2)
        #expect(outcome.stdout == "")
        #expect(outcome.stderr.hasPrefix("error: cannot write report plain-file/report.xml: cannot create folder /"))
        #expect(outcome.stderr.hasSuffix("/plain-file: Not a directory\n"))
        #expect(outcome.stderr.count { $0 == "\n" } == 1)
    }

    @Test func parseErrorsAndVersion() async throws {
        Self.expectOneLineUsageError(try await HarnessProcess.run(["run", "--bogus-option"]), "Unknown option '--bogus-option' (see --help)")
        let version = try await HarnessProcess.run(["--version"])
        #expect(version.status == 0)
        #expect(version.stdout.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+\n/) != nil)
    }

    /// The README's first command from an empty directory: report folders are created.
    @Test func readmeCommandWritesReportsIntoNewFolders() async throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("harness-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let outcome = try await HarnessProcess.run(
            ["run", "--suite", "publish", "--json", "reports/conformance.json", "--junit", "reports/x/conformance.junit.xml",
             "--html", "reports/conformance.html"], in: work)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        #expect(outcome.stdout.hasPrefix("pubnub-harness "))
        let json = try JSONValue.parse(Data(contentsOf: work.appendingPathComponent("reports/conformance.json")))
        #expect(json["schemaVersion"] == 4)
        #expect(json["run"]?["family"] == "pubnub")
        #expect(json["summary"]?["newFailures"] == 0)
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("reports/x/conformance.junit.xml").path))
        #expect(FileManager.default.fileExists(atPath: work.appendingPathComponent("reports/conformance.html").path))
    }

    /// `list` shows both families; `run --family pusher` runs a Pusher group with reports; the
    /// PubNub run's own `--vectors` is refused for it; unknown groups and a dead `--server` are usage errors.
    @Test func pusherFamilyThroughTheCLI() async throws {
        let all = try await HarnessProcess.run(["list", "--ids-only"])
        let pubnub = try await HarnessProcess.run(["list", "--family", "pubnub", "--ids-only"])
        let pusher = try await HarnessProcess.run(["list", "--family", "pusher", "--ids-only"])
        let pusherIDs = pusher.stdout.split(separator: "\n").map(String.init)
        #expect(pusherIDs == PusherCatalog.all().map(\.id))
        #expect(all.stdout.split(separator: "\n").count == pubnub.stdout.split(separator: "\n").count + pusherIDs.count)
        #expect(!pubnub.stdout.contains("pusher."))
        let listed = try await HarnessProcess.run(["list", "--suite", "pusher.presence"])
        #expect(listed.stdout.hasPrefix("pusher.presence (3 cases)\n"), "\(listed.stdout)")

        let work = FileManager.default.temporaryDirectory.appendingPathComponent("harness-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let outcome = try await HarnessProcess.run(["run", "--family", "pusher", "--suite", "pusher.channels", "--json", "r/pusher.json"], in: work)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let json = try JSONValue.parse(Data(contentsOf: work.appendingPathComponent("r/pusher.json")))
        #expect(json["summary"]?["total"] == 4)
        #expect(json["summary"]?["passed"] == 4)
        #expect(json["summary"]?["client"] == "built-in-pusher")

        Self.expectOneLineUsageError(try await HarnessProcess.run(["run", "--family", "pusher", "--suite", "pusher.nope"]),
                                     "unknown suite \"nope\" (suites: pusher, \(PusherCatalog.groups.map { "pusher.\($0)" }.joined(separator: ", ")))")
        let refused = try await HarnessProcess.run(["run", "--family", "pusher", "--vectors", "/tmp"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--vectors applies to the pubnub family only"))
        Self.expectOneLineUsageError(try await HarnessProcess.run(["run", "--family", "pusher", "--server", "127.0.0.1:1"]),
                                     "--server 127.0.0.1:1 does not answer: connect failed: errno 111 (Connection refused)")
    }

    /// `serve --host localhost`: the printed admin URL answers with the route list, and health is ok.
    @Test func serveOnLocalhostAnswersItsAdminIndexAndHealth() async throws {
        let server = try HarnessProcess.Server(["--host", "localhost", "--port", "0", "--quiet"])
        let admin = await server.line(after: "admin API: http://")
        guard let admin, let slash = admin.firstIndex(of: "/"), let colon = admin[..<slash].lastIndex(of: ":"),
              let port = Int(admin[admin.index(after: colon)..<slash]) else {
            Issue.record("no admin line in: \(server.text)")
            _ = await server.stop()
            return
        }
        #expect(admin[..<colon] == "127.0.0.1")
        let client = try HTTPClient(host: "localhost", port: port, trust: nil, userAgent: "test")
        let index = try await client.perform(HTTPClientRequest(target: "/__admin/"), timeout: 5).get()
        #expect(index.statusCode == 200)
        let routes = try JSONValue.parse(Data(index.body))["routes"]?.arrayValue ?? []
        let paths = Set(routes.compactMap { $0["path"]?.stringValue })
        #expect(paths.isSuperset(of: ["/__admin/health", "/__admin/plans/{subscribeKey}", "/__admin/keysets",
                                      "/__admin/grants/{subscribeKey}", "/__admin/messages/{subscribeKey}"]))
        let health = try await client.perform(HTTPClientRequest(target: "/__admin/health"), timeout: 5).get()
        #expect(health.statusCode == 200)
        #expect(try JSONValue.parse(Data(health.body))["status"] == "ok")
        client.closeIdleConnections()
        #expect(await server.stop() == 0)
    }

    /// `--log-level` is a threshold: at warning, requests are not logged but an unparsable request
    /// and a failed TLS handshake are, with the peer.
    @Test func logLevelIsAThreshold() async throws {
        let server = try HarnessProcess.Server(["--port", "0", "--tls-port", "0", "--log-level", "warning"])
        guard let portText = await server.line(after: "listening on http://127.0.0.1:"), let port = Int(portText),
              let tlsText = await server.line(after: "listening on https://127.0.0.1:"), let tlsPort = Int(tlsText.prefix { $0.isNumber }) else {
            Issue.record("no address in: \(server.text)")
            _ = await server.stop()
            return
        }
        // Plain HTTP on the TLS port: the server's handshake fails.
        let plainOnTLS = try HTTPClient(host: "127.0.0.1", port: tlsPort, trust: nil, userAgent: "test", keepAlive: false)
        guard case .failure = await plainOnTLS.perform(HTTPClientRequest(target: "/time/0"), timeout: 5) else {
            Issue.record("plain HTTP on the TLS port was answered")
            _ = await server.stop()
            return
        }
        let client = try HTTPClient(host: "127.0.0.1", port: port, trust: nil, userAgent: "test", keepAlive: false)
        #expect(try await client.perform(HTTPClientRequest(target: "/time/0"), timeout: 5).get().statusCode == 200)
        let bad = try await client.perform(HTTPClientRequest(method: "BAD LINE", target: "/x"), timeout: 5).get()
        #expect(bad.statusCode == 400)
        // The warnings are written when the connections see the bad bytes; wait for them (bounded).
        let logged = await server.waitFor("unparsable request from 127.0.0.1:")
        #expect(await server.waitFor("TLS handshake with 127.0.0.1:"))
        #expect(await server.stop() == 0)
        #expect(logged, "\(server.text)")
        #expect(server.text.contains(" warning "))
        #expect(!server.text.contains("GET /time/0"))
    }

    /// `run --server` against `serve` in another process scores exactly what the in-process run
    /// scores, case by case: keysets and grants (pam) and server-side publishes of every size
    /// (encryption vectors) go through /__admin/ — the suites that needed the new admin routes;
    /// `.ci/run` compares the whole catalog in both modes. Under a sanitizer both runs get its time
    /// scale, which stretches the admin client's request timeout too.
    @Test func runAgainstAServeProcessMatchesTheInProcessRun() async throws {
        let server = try HarnessProcess.Server(["--port", "0", "--quiet"])
        guard let portText = await server.line(after: "listening on http://127.0.0.1:"), let port = Int(portText) else {
            Issue.record("no address in: \(server.text)")
            _ = await server.stop()
            return
        }
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("harness-parity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: work) }
        let selection = ["--seed", "11", "--concurrency", "2", "--suite", "pam", "--suite", "encryption"] + TestTime.runScaleArguments
        let remote = try await HarnessProcess.run(["run", "--server", "127.0.0.1:\(port)", "--json", "remote.json"] + selection, in: work, limit: 120)
        #expect(await server.stop() == 0)
        let local = try await HarnessProcess.run(["run", "--json", "local.json"] + selection, in: work, limit: 120)
        func outcomes(_ file: String) throws -> [String: String] {
            let cases = try JSONValue.parse(Data(contentsOf: work.appendingPathComponent(file)))["cases"]?.arrayValue ?? []
            return Dictionary(uniqueKeysWithValues: cases.compactMap { item in
                item["id"]?.stringValue.map { ($0, item["outcome"]?.stringValue ?? "") }
            })
        }
        let remoteOutcomes = try outcomes("remote.json")
        let localOutcomes = try outcomes("local.json")
        #expect(remoteOutcomes.count == localOutcomes.count)
        #expect(remoteOutcomes.keys.filter { $0.hasPrefix("encryption.vectors.") }.count == 24)
        #expect(remoteOutcomes.keys.contains { $0.hasPrefix("pam.") })
        #expect(!remoteOutcomes.values.contains("skipped"))
        #expect(remoteOutcomes.filter { localOutcomes[$0.key] != $0.value }.keys.sorted() == [])
        #expect(remote.status == local.status, "\(remote.stdout.suffix(2000))")
    }
}
