// SPDX-License-Identifier: MIT
import HarnessJSON

/// The frames of Pusher's HTTP fallback transports (SockJS-style, one frame per line), as the
/// client parses them: a line's first byte says what it is, the rest is JSON (pure).
///
/// - `o`: the session is open (sent once, first).
/// - `a[…]`: messages, each the JSON text of one Pusher message, as strings.
/// - `h`: a heartbeat.
/// - `c[code,"reason"]`: the session is closed.
public enum PusherHTTPFrames {
    /// `o` and its newline.
    public static let open: [UInt8] = Array("o\n".utf8)
    /// `h` and its newline.
    public static let heartbeat: [UInt8] = Array("h\n".utf8)

    /// `a[…]` of `messages` (each a string element), and its newline.
    public static func array(_ messages: [String]) -> [UInt8] {
        Array(("a" + JSONValue.array(messages.map(JSONValue.string)).jsonText + "\n").utf8)
    }

    /// `c[code,"reason"]` and its newline.
    public static func close(code: UInt16, reason: String) -> [UInt8] {
        Array(("c" + JSONValue.array([.int(Int(code)), .string(reason)]).jsonText + "\n").utf8)
    }

    /// The streaming prelude: 2048 `h` and a newline. UNVERIFIED whether the live service sends
    /// it (the SockJS protocol does, for old browsers that show nothing of a response before
    /// 2 KB); a client reads it as one heartbeat line, before the session is open.
    public static let streamingPrelude: [UInt8] = Array(repeating: UInt8(ascii: "h"), count: 2048) + [0x0A]

    /// The messages of an `xhr_send` body: a JSON array of strings (`[]` is a heartbeat); nil
    /// when the body is anything else.
    public static func sentMessages(_ body: [UInt8]) -> [String]? {
        guard let text = String(validating: body, as: UTF8.self), let value = try? JSONValue.parse(text),
              case .array(let elements) = value
        else { return nil }
        var messages: [String] = []
        for element in elements {
            guard let message = element.stringValue else { return nil }
            messages.append(message)
        }
        return messages
    }
}
