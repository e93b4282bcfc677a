// SPDX-License-Identifier: MIT
import HarnessJSON
import HarnessWebSocket

extension PusherMalformation {
    /// The socket id a `bad-socket-id` fault sends (no `\d+\.\d+` shape).
    static let invalidSocketID = "not-a-socket-id"

    /// `message` broken this way, as what goes on the wire. A payload change that does not apply
    /// to the message (e.g. `missing-activity-timeout` on a message without one) sends it unchanged.
    func steps(for message: PusherOutboundMessage) -> [PusherWireStep] {
        let text = message.text
        var encoder = WebSocketFrameEncoder.server
        switch self {
        case .splitFrames:
            return [.raw(encoder.encodeText(text, fragments: 3))]
        case .badUTF8:
            // 0xC3 0x28: a two-byte lead followed by a non-continuation byte.
            return [.raw(WebSocketRawFrame(opcode: WebSocketOpcode.text.rawValue, payload: Array(text.utf8) + [0xC3, 0x28]).bytes)]
        case .reservedBits:
            return [.raw(WebSocketRawFrame(reservedBits: 4, opcode: WebSocketOpcode.text.rawValue, payload: Array(text.utf8)).bytes)]
        case .invalidJSON:
            return [.text(String(text.prefix(text.count / 2)))]
        case .objectData:
            return [.text(rewritten(message) { members in
                guard let inner = members["data"]?.stringValue, let object = try? JSONValue.parse(inner) else { return }
                members["data"] = object
            })]
        case .reorderedKeys:
            return [.text(message.members.map { JSONValue.object(JSONObject($0.members.reversed().map { ($0.key, $0.value) })).jsonText } ?? text)]
        case .missingActivityTimeout:
            return [.text(rewritingData(message) { $0.filter { $0.key != "activity_timeout" }.map { ($0.key, $0.value) } })]
        case .badSocketID:
            return [.text(rewritingData(message) { data in
                data.map { $0.key == "socket_id" ? ($0.key, .string(Self.invalidSocketID)) : ($0.key, $0.value) }
            })]
        }
    }

    /// The message with its members changed by `change`, re-encoded compactly.
    private func rewritten(_ message: PusherOutboundMessage, _ change: (inout JSONObject) -> Void) -> String {
        guard var members = message.members else { return message.text }
        change(&members)
        return JSONValue.object(members).jsonText
    }

    /// The message with the object inside its string `data` changed, still double-encoded.
    private func rewritingData(_ message: PusherOutboundMessage, _ change: (JSONObject) -> [(String, JSONValue)]) -> String {
        rewritten(message) { members in
            guard let inner = members["data"]?.stringValue, let object = (try? JSONValue.parse(inner))?.objectValue else { return }
            members["data"] = .string(JSONValue.object(JSONObject(change(object))).jsonText)
        }
    }
}
