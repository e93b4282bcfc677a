// SPDX-License-Identifier: MIT
import Foundation
import Synchronization

/// Finds the Python interpreter an end-to-end test can use: the first candidate that exists and
/// imports the named modules. Each search runs once per test process, on a thread of its own (an
/// interpreter start and an SDK import take seconds on a busy machine, which a pool thread must
/// not spend), and its answer is kept.
package enum PythonInterpreters {
    private static let found = Mutex<[String: String?]>([:])

    /// The candidates in order: each named environment variable that is set, the CI venv
    /// (`$PUBNUB_SDK_VENV`, else `$TMPDIR/pubnub-harness-ci-venv`, as `.ci/run` makes it), then
    /// `/usr/bin/python3` when `systemPython` is true.
    package static func candidates(environment names: [String], systemPython: Bool) -> [String] {
        let environment = ProcessInfo.processInfo.environment
        let venv = (environment["PUBNUB_SDK_VENV"] ?? ((environment["TMPDIR"] ?? "/tmp") + "/pubnub-harness-ci-venv")) + "/bin/python"
        return names.compactMap { environment[$0] } + [venv] + (systemPython ? ["/usr/bin/python3"] : [])
    }

    /// The first of `candidates` that is executable and runs `import <modules>` successfully.
    package static func first(of candidates: [String], importing modules: String) async -> String? {
        let key = candidates.joined(separator: "\u{0}") + "\u{1}" + modules
        if let known = found.withLock({ $0[key] }) { return known }
        let answer = await TestSockets.onDedicatedThread {
            candidates.first { candidate in
                FileManager.default.isExecutableFile(atPath: candidate)
                    && (try? runPythonScript(candidate, arguments: ["-c", "import \(modules)"], seconds: 60).status) == 0
            }
        }
        found.withLock { $0[key] = .some(answer) }
        return answer
    }
}
