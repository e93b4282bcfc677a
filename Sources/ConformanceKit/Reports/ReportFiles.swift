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
        let parent = url.deletingLastPathComponent().path
        if let failure = makeDirectories(parent) {
            throw Unwritable(path: path, reason: "cannot create folder \(failure.folder): \(failure.reason)")
        }
        let fd = open(url.path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Unwritable(path: path, reason: String(cString: strerror(errno))) }
        close(fd)
    }

    /// Creates `path` and its missing parents (`mkdir -p`); the folder that failed and why, or nil.
    static func makeDirectories(_ path: String) -> (folder: String, reason: String)? {
        var prefix = path.hasPrefix("/") ? "" : "."
        for component in path.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o755) != 0 && errno != EEXIST {
                return (prefix, String(cString: strerror(errno)))
            }
        }
        var info = stat()
        guard stat(path, &info) == 0 else { return (path, String(cString: strerror(errno))) }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { return (path, String(cString: strerror(ENOTDIR))) }
        return nil
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
