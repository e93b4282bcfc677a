// SPDX-License-Identifier: MIT
import Foundation
import HarnessTesting
import Testing

/// Runs the built `pubnub-harness` binary (`HarnessProcess.binary`, when the build has produced it).
enum HarnessBinary {
    static var url: URL { URL(fileURLWithPath: HarnessProcess.binary) }
    static var exists: Bool { FileManager.default.isExecutableFile(atPath: url.path) }

    struct Outcome {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the binary with `arguments` and `stdin`, waiting for its exit without blocking a thread (10 s limit).
    static func run(_ arguments: [String], stdin: String = "") async throws -> Outcome {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("crypto-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let paths = ["in", "out", "err"].map { directory.appendingPathComponent($0) }
        try Data(stdin.utf8).write(to: paths[0])
        for path in paths.dropFirst() { try Data().write(to: path) }
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        process.environment = HarnessProcess.childEnvironment
        process.standardInput = try FileHandle(forReadingFrom: paths[0])
        process.standardOutput = try FileHandle(forWritingTo: paths[1])
        process.standardError = try FileHandle(forWritingTo: paths[2])
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        return Outcome(
            status: status,
            stdout: String(decoding: try Data(contentsOf: paths[1]), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: paths[2]), as: UTF8.self)
        )
    }
}

@Suite("crypto CLI", .enabled(if: HarnessBinary.exists, "needs the built pubnub-harness binary (HarnessProcess.binary)"), .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct CryptoCLITests {
    @Test func encryptWithFixedIVAndDecrypt() async throws {
        let encrypted = try await HarnessBinary.run([
            "crypto", "encrypt", "--cipher-key", "enigma", "--scheme", "aescbc", "--iv", "02dff84eb992c7982704f0d89e81524f", "test",
        ])
        #expect(encrypted.status == 0)
        #expect(encrypted.stdout == "UE5FRAFBQ1JIEALf+E65kseYJwTw2J6BUk9MePHiCcBCS+8ykXLkBIOA\n")
        let decrypted = try await HarnessBinary.run(
            ["crypto", "decrypt", "--cipher-key", "enigma", "--scheme", "aescbc", "-"],
            stdin: "UE5FRAFBQ1JIEALf+E65kseYJwTw2J6BUk9MePHiCcBCS+8ykXLkBIOA\n"
        )
        #expect(decrypted.status == 0)
        #expect(decrypted.stdout == "\"test\"\n")
    }

    @Test func rawLegacyKnownAnswer() async throws {
        let result = try await HarnessBinary.run(["crypto", "encrypt", "--cipher-key", "enigma", "--scheme", "legacy", "--raw", "yay!"])
        #expect(result.stdout == "q/xJqqN6qbiZMXYmiQC1Fw==\n")
    }

    @Test func undecryptableDataExitsOneWithOneLine() async throws {
        let result = try await HarnessBinary.run(["crypto", "decrypt", "--cipher-key", "not-enigma", "--scheme", "legacy", "q/xJqqN6qbiZMXYmiQC1Fw=="])
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("error: wrongKeyOrPadding: "))
        #expect(result.stderr.filter { $0 == "\n" }.count == 1)
    }

    @Test func validationErrorsExitTwoWithOneLine() async throws {
        let result = try await HarnessBinary.run(["crypto", "encrypt", "--cipher-key", "k", "--scheme", "aescbc", "--iv", "abc", "x"])
        #expect(result.status == 2)
        #expect(result.stderr == "error: --iv must be 32 hex digits (16 bytes)\n")
    }

    @Test func verifyReportsEachVectorAndTheSummary() async throws {
        let path = FixtureLocator.cryptoDirectory.appendingPathComponent("known-answers.json").path
        let result = try await HarnessBinary.run(["crypto", "verify", path, "/nonexistent.json"])
        let lines = result.stdout.split(separator: "\n")
        #expect(result.status == 1)
        #expect(lines.first == "PASS legacy-yay-enigma")
        #expect(lines.filter { $0.hasPrefix("FAIL /nonexistent.json: cannot read vector file") }.count == 1)
        #expect(lines.last == "7 vectors in 2 file(s): 6 passed, 1 failed")
    }
}
