// SPDX-License-Identifier: MIT
import Foundation

/// Where the run's reports go: checked (and their folders created) before any case runs, so an
/// unwritable path costs one line, not a whole run.
public enum ReportFiles {
    /// Why a report path cannot be used.
    public struct Unwritable: Error, Sendable, Hashable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "cannot write report \(path): \(reason)" }
    }

    /// Creates the parent folders of `path` and checks that the file can be written (an existing
    /// file is left as it is; a new one is created empty and written after the run).
    public static func prepare(_ path: String) throws(Unwritable) {
        let url = URL(fileURLWithPath: path)
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
            throw Unwritable(path: path, reason: "is a directory")
        }
        let parent = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: parent, withIntermediateDirectories: true)
        } catch {
            throw Unwritable(path: path, reason: "cannot create folder \(parent.path): \(Self.reason(error))")
        }
        let fd = open(url.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Unwritable(path: path, reason: String(cString: strerror(errno))) }
        close(fd)
    }

    /// Writes a report's bytes.
    public static func write(_ data: Data, to path: String) throws(Unwritable) {
        do {
            try data.write(to: URL(fileURLWithPath: path))
        } catch {
            throw Unwritable(path: path, reason: reason(error))
        }
    }

    private static func reason(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        return nsError.localizedDescription
    }
}
