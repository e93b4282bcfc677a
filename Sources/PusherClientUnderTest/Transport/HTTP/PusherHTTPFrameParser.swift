// SPDX-License-Identifier: MIT
import HarnessJSON

/// One frame of the HTTP fallback transports (one line of the answer body).
enum PusherHTTPFrame: Sendable, Hashable {
    /// `o`: the session is open.
    case open
    /// `a[…]` (or `m…`): Pusher messages, each the JSON text of one message.
    case messages([String])
    /// `h`: a heartbeat.
    case heartbeat
    /// `c[code,"reason"]`: the session is closed.
    case close(code: Int?, reason: String)
}

/// Splits the body bytes of streams and polls into frames, line by line (pure). A line whose
/// first byte names no frame is skipped, as the reference client skips it; a frame whose JSON
/// does not parse is an error.
struct PusherHTTPFrameParser {
    private var pending: [UInt8] = []

    /// The longest line kept waiting for its newline.
    static let maxLineBytes = 1 << 20

    struct Malformed: Error, Hashable { var line: String }

    /// Feeds body bytes; the frames of every complete line.
    mutating func feed(_ bytes: [UInt8]) throws(Malformed) -> [PusherHTTPFrame] {
        pending += bytes
        var frames: [PusherHTTPFrame] = []
        while let newline = pending.firstIndex(of: 0x0A) {
            let line = String(decoding: pending[..<newline], as: UTF8.self)
            pending.removeSubrange(...newline)
            if let frame = try Self.frame(line) { frames.append(frame) }
        }
        if pending.count > Self.maxLineBytes { throw Malformed(line: String(decoding: pending.prefix(80), as: UTF8.self)) }
        return frames
    }

    /// The frame of one line; nil for a line that names none (an empty one).
    static func frame(_ line: String) throws(Malformed) -> PusherHTTPFrame? {
        guard let type = line.first else { return nil }
        let rest = String(line.dropFirst())
        switch type {
        case "o": return .open
        case "h": return .heartbeat
        case "a":
            guard case .array(let elements)? = try? JSONValue.parse(rest.isEmpty ? "[]" : rest) else { throw Malformed(line: line) }
            return .messages(elements.map(Self.message))
        case "m":
            guard let value = try? JSONValue.parse(rest.isEmpty ? "null" : rest) else { throw Malformed(line: line) }
            return .messages([Self.message(value)])
        case "c":
            guard case .array(let parts)? = try? JSONValue.parse(rest.isEmpty ? "[]" : rest) else { throw Malformed(line: line) }
            let code: Int? = parts.first?.intValue.map { Int($0) }
            let reason: String = parts.count > 1 ? (parts[1].stringValue ?? "") : ""
            return .close(code: code, reason: reason)
        default: return nil
        }
    }

    /// A message element: its text (a string element), or the JSON text of any other value.
    private static func message(_ value: JSONValue) -> String {
        value.stringValue ?? value.jsonText
    }
}
