// SPDX-License-Identifier: MIT
import HarnessJSON

/// One message a client sent, decoded leniently (spec §3.1): `data` may be an object, a string
/// holding JSON, `""`, or missing; spaces anywhere; unknown members ignored.
struct PusherClientMessage {
    var event: String
    var channel: String?
    /// `data` parsed as it appears in the message.
    var data: JSONValue?
    /// The exact text of the `data` member as received (for relaying client events unchanged).
    var rawData: String?

    /// Why a text message is not a Pusher message.
    enum DecodingError: Error, Equatable {
        case notJSON
        case notAnObject
        case noEventName
    }

    static func decode(_ text: String) throws(DecodingError) -> PusherClientMessage {
        let bytes = Array(text.utf8)
        var scanner = JSONScanner(bytes, maxDepth: 64)
        guard JSONText.isValid(text, maxDepth: 64) else { throw .notJSON }
        guard let spans = try? scanner.objectMemberSpans() else { throw .notAnObject }
        func member(_ name: String) -> Range<Int>? { spans.first { $0.key == name }?.value }
        func value(_ span: Range<Int>) -> JSONValue? { try? JSONValue.parse(bytes[span], maxDepth: 64) }
        guard let eventSpan = member("event"), case .string(let event)? = value(eventSpan) else { throw .noEventName }
        var message = PusherClientMessage(event: event)
        if let channelSpan = member("channel"), case .string(let channel)? = value(channelSpan) { message.channel = channel }
        if let dataSpan = member("data") {
            message.data = value(dataSpan)
            message.rawData = String(decoding: bytes[dataSpan], as: UTF8.self)
        }
        return message
    }

    /// The members of `data` for the `pusher:` events that carry an object: the object itself, or
    /// the object inside a string holding JSON (some clients double-encode what they send).
    var dataObject: JSONObject? {
        switch data {
        case .object(let members)?: members
        case .string(let text)?: (try? JSONValue.parse(text, maxDepth: 64))?.objectValue
        default: nil
        }
    }

    /// The text a client event carried, for receivers and webhooks: a string as is, anything else as
    /// the JSON text it was sent as.
    var dataText: String? {
        if case .string(let text)? = data { return text }
        return rawData
    }

    private init(event: String) { self.event = event }
}
