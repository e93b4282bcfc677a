// SPDX-License-Identifier: MIT
import Foundation

/// Appends exchanges to a recording file so that it is a complete JSON document after every
/// append: the exchanges come before the key and name tables, and each append rewrites only the
/// tables after the new exchange. Not thread-safe: its owner serialises the calls.
final class RecordingWriter {
    let path: String
    private let fd: Int32
    /// Where the text of the last exchange ends.
    private var exchangesEnd: off_t
    private var count = 0

    /// Creates (or truncates) `path` and writes the head of an empty recording.
    init(path: String, origin: RecordingOrigin, rules: RecordingRules? = nil) throws(ProxyError) {
        self.path = path
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .output(path: path, reason: String(cString: strerror(errno))) }
        var head = "{\n  \"format\" : \"\(Recording.formatName)\",\n  \"version\" : \(Recording.currentVersion),\n"
        head += "  \"recorded\" : " + Self.indented(Self.encode(origin), by: 2) + ",\n"
        if let rules { head += "  \"rules\" : " + Self.indented(Self.encode(rules), by: 2) + ",\n" }
        head += "  \"exchanges\" : ["
        exchangesEnd = off_t(head.utf8.count)
        try write(head, at: 0)
        try writeTail(keys: [], names: [])
    }

    deinit { close(fd) }

    /// Appends `exchange` and rewrites the tables.
    func append(_ exchange: RecordedExchange, keys: [RecordedKey], names: [RecordedName]) throws(ProxyError) {
        let text = (count == 0 ? "\n    " : ",\n    ") + Self.indented(Self.encode(exchange), by: 4)
        try write(text, at: exchangesEnd)
        exchangesEnd += off_t(text.utf8.count)
        count += 1
        try writeTail(keys: keys, names: names)
    }

    /// Rewrites the tables (after a change the next exchange would otherwise wait for).
    func writeTail(keys: [RecordedKey], names: [RecordedName]) throws(ProxyError) {
        let tail = (count == 0 ? "],\n" : "\n  ],\n") + "  \"keys\" : " + Self.indented(Self.encode(keys), by: 2)
            + ",\n  \"names\" : " + Self.indented(Self.encode(names), by: 2) + "\n}\n"
        try write(tail, at: exchangesEnd)
        guard ftruncate(fd, exchangesEnd + off_t(tail.utf8.count)) == 0 else {
            throw .output(path: path, reason: String(cString: strerror(errno)))
        }
    }

    private func write(_ text: String, at offset: off_t) throws(ProxyError) {
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let written = bytes.withUnsafeBytes { raw in pwrite(fd, raw.baseAddress! + done, bytes.count - done, offset + off_t(done)) }
            if written < 0 {
                if errno == EINTR { continue }
                throw .output(path: path, reason: String(cString: strerror(errno)))
            }
            done += written
        }
    }

    /// The pretty JSON text of a recording's part (sorted keys, `/` unescaped).
    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value) else { return "null" }
        return String(decoding: data, as: UTF8.self)
    }

    /// `text` with every line after the first indented by `spaces`.
    static func indented(_ text: String, by spaces: Int) -> String {
        text.replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: spaces))
    }
}

extension Recording {
    /// Reads a recording file's bytes.
    public static func decode(_ bytes: [UInt8]) throws(RecordingError) -> Recording {
        struct Header: Decodable {
            var format: String?
            var version: Int?
        }
        let data = Data(bytes)
        let header: Header
        do { header = try JSONDecoder().decode(Header.self, from: data) } catch { throw .unreadable(Self.reason(error)) }
        guard header.format == formatName, header.version == currentVersion else {
            throw .unsupportedVersion(format: header.format ?? "(none)", version: header.version ?? 0)
        }
        do { return try JSONDecoder().decode(Recording.self, from: data) } catch { throw .unreadable(Self.reason(error)) }
    }

    /// The recording as the file holds it (pretty, sorted keys).
    public func encoded() -> [UInt8] { Array((RecordingWriter.encode(self) + "\n").utf8) }

    /// Where a decoding error happened, in one line.
    private static func reason(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error)" }
        func at(_ context: DecodingError.Context) -> String {
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? "." + $0.stringValue }.joined()
            return (path.isEmpty ? "" : "at \(path.hasPrefix(".") ? String(path.dropFirst()) : path): ") + context.debugDescription
        }
        switch decoding {
        case .dataCorrupted(let context): return at(context) + ((context.underlyingError as NSError?).map { " (\($0.localizedDescription))" } ?? "")
        case .keyNotFound(let key, let context): return at(context) + " (missing \(key.stringValue))"
        case .typeMismatch(_, let context), .valueNotFound(_, let context): return at(context)
        @unknown default: return "\(error)"
        }
    }
}
