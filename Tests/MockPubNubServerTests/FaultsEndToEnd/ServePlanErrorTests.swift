// SPDX-License-Identifier: MIT
import Foundation
import HarnessTesting
import Testing

/// `pubnub-harness serve --plan FILE` refuses an invalid plan with one line naming the field (a
/// usage error: exit 2).
/// Runs the built binary (`HarnessProcess.binary`); skipped when it has not been built.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ServePlanErrorTests {
    private static let binary = URL(fileURLWithPath: HarnessProcess.binary)
    static var binaryExists: Bool { FileManager.default.isExecutableFile(atPath: binary.path) }

    @Test(.enabled(if: binaryExists), .timeLimit(.minutes(TestTime.limitMinutes(5))))
    func invalidPlanFileExitsWithOneLineNamingTheField() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("serve-plan-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let plan = directory.appendingPathComponent("bad.json")
        try Data(#"{"rules":[{"fault":{"kind":"close"}},{"match":{"chanel":"a"},"fault":{"kind":"close"}}]}"#.utf8).write(to: plan)
        let out = directory.appendingPathComponent("out")
        let err = directory.appendingPathComponent("err")
        for file in [out, err] { try Data().write(to: file) }

        let process = Process()
        process.executableURL = Self.binary
        process.arguments = ["serve", "--port", "0", "--quiet", "--plan", plan.path]
        process.environment = HarnessProcess.childEnvironment
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        #expect(status == 2)
        #expect(String(decoding: try Data(contentsOf: err), as: UTF8.self) == "error: --plan \(plan.path): rules[1].match.chanel: unknown field\n")
        #expect(String(decoding: try Data(contentsOf: out), as: UTF8.self) == "")
    }
}
