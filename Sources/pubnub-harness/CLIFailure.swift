// SPDX-License-Identifier: MIT
import Foundation

/// A failure the CLI reports as one line on standard error, exiting with status 1.
struct CLIFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// A usage or setup error (bad option value, unknown suite or case, a file that cannot be read,
/// a server that does not answer): one line on standard error, exit status 2, nothing run.
struct UsageError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}

/// The one place the CLI's errors are written: `error: <first line of the message>`.
enum ErrorOutput {
    static func exit(_ message: String, code: Int32) -> Never {
        let line = message.split(separator: "\n", omittingEmptySubsequences: true).first.map(String.init) ?? "failed"
        FileHandle.standardError.write(Data("error: \(line)\n".utf8))
        Foundation.exit(code)
    }

    /// Exits 2 with the message.
    static func usage(_ message: String) -> Never { exit(message, code: 2) }
}

/// Reads a whole file, or throws a ``UsageError`` "cannot read WHAT PATH: <system reason>".
func readInput(_ path: String, what: String) throws(UsageError) -> Data {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { throw UsageError("cannot read \(what) \(path): \(String(cString: strerror(errno)))") }
    close(fd)
    guard let data = FileManager.default.contents(atPath: path) else {
        throw UsageError("cannot read \(what) \(path): \(String(cString: strerror(EISDIR)))")
    }
    return data
}
