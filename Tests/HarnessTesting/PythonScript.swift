// SPDX-License-Identifier: MIT
import Foundation
import Synchronization

/// Runs `python` with `arguments`, stdout and stderr together, killed after `seconds`; blocking,
/// so async tests call it through ``PythonTestGate/run(_:)``.
package func runPythonScript(_ python: String, arguments: [String], seconds: Double) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: python)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let output = Mutex<[UInt8]>([])
    let readerDone = DispatchSemaphore(value: 0)
    let handle = pipe.fileHandleForReading
    let reader = Thread {
        let data = handle.readDataToEndOfFile()
        output.withLock { $0 = Array(data) }
        readerDone.signal()
    }
    reader.start()
    if readerDone.wait(timeout: .now() + seconds) == .timedOut {
        process.terminate()
        _ = readerDone.wait(timeout: .now() + 5)
    }
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output.withLock { $0 }, as: UTF8.self))
}
