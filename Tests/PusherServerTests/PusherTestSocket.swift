// SPDX-License-Identifier: MIT
import HarnessTesting
import HarnessWebSocket

/// A Pusher client socket for tests: masked text out, exact server frames in.
final class PusherTestSocket {
    let client: WebSocketTestClient

    init(client: WebSocketTestClient) { self.client = client }

    struct UnexpectedFrame: Error, CustomStringConvertible {
        var description: String
    }

    /// Sends one text message.
    func send(_ text: String) { client.send(text: text) }

    /// The next frame, whatever it is.
    func nextFrame(timeoutMs: Int32 = 5000) throws -> WebSocketFrame {
        switch client.readFrame(timeoutMs: timeoutMs) {
        case .success(let frame): return frame
        case .failure(let error): throw UnexpectedFrame(description: "no frame: \(error.end)")
        }
    }

    /// The next frame, which must be a text frame; its text.
    func nextText(timeoutMs: Int32 = 5000) throws -> String {
        let frame = try nextFrame(timeoutMs: timeoutMs)
        guard frame.opcode == .text else { throw UnexpectedFrame(description: "expected text, got \(frame)") }
        return String(decoding: frame.payload, as: UTF8.self)
    }

    /// Subscribes and returns the server's answer (the next text).
    func subscribe(_ channel: String, auth: String? = nil, channelData: String? = nil) throws -> String {
        var data = "{\"channel\":\"\(channel)\""
        if let auth { data += ",\"auth\":\"\(auth)\"" }
        if let channelData { data += ",\"channel_data\":\(jsonString(channelData))" }
        send("{\"event\":\"pusher:subscribe\",\"data\":\(data)}}")
        return try nextText()
    }

    /// `{"event":"pusher:connection_established","data":"{\"socket_id\":\"…\",…}"}` → the id.
    static func socketID(inEstablished text: String) throws -> String {
        let marker = Array("\\\"socket_id\\\":\\\"".utf8)
        let bytes = Array(text.utf8)
        guard bytes.count > marker.count,
            let start = (0...(bytes.count - marker.count)).first(where: { Array(bytes[$0..<($0 + marker.count)]) == marker })
        else { throw UnexpectedFrame(description: "not connection_established: \(text)") }
        let id = bytes[(start + marker.count)...].prefix { $0 != UInt8(ascii: "\\") }
        return String(decoding: id, as: UTF8.self)
    }
}

/// `text` as a JSON string literal (quotes and backslashes escaped; test inputs have no controls).
func jsonString(_ text: String) -> String {
    var quoted = "\""
    for character in text {
        if character == "\"" || character == "\\" { quoted.append("\\") }
        quoted.append(character)
    }
    return quoted + "\""
}

/// A close frame's payload: the code big-endian, then the reason.
func closePayload(_ code: UInt16, _ reason: String) -> [UInt8] {
    [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8)
}
