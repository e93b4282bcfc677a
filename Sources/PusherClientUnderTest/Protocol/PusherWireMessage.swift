// SPDX-License-Identifier: MIT
import HarnessJSON

/// Reading server messages and writing client messages (spec §3).
enum PusherWire {
    /// Parses one text message; nil when it is not a JSON object with a string `event`.
    static func parse(_ text: String) -> PusherEventMessage? {
        guard let value = try? JSONValue.parse(text), case .object(let object) = value,
              let name = object["event"]?.stringValue else { return nil }
        let channel = object["channel"]?.stringValue
        let userID: String? = object["user_id"].flatMap(identifier)
        switch object["data"] {
        case .string(let raw)?:
            return PusherEventMessage(name: name, channel: channel, data: decodeData(raw), rawData: raw, userID: userID)
        case let other:
            return PusherEventMessage(name: name, channel: channel, data: other, rawData: nil, userID: userID)
        }
    }

    /// libPusher's rule (`PTPusherEvent.m`, JSON parsing without fragments): a string holding a JSON
    /// object or array becomes that value; any other string stays the string.
    static func decodeData(_ raw: String) -> JSONValue {
        if let parsed = try? JSONValue.parse(raw) {
            switch parsed {
            case .object, .array: return parsed
            default: break
            }
        }
        return .string(raw)
    }

    /// The data as an object: the parsed object, or nil.
    static func objectData(_ message: PusherEventMessage) -> JSONObject? {
        message.data?.objectValue
    }

    /// A user id given as a string or a number (`user_id: 10` in the auth doc's Ruby example).
    static func identifier(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .number(let text): text
        default: nil
        }
    }

    // MARK: Client → server

    static func subscribe(channel: String, authorization: PusherChannelAuthorization?) -> String {
        var data: JSONObject = ["channel": .string(channel)]
        if let authorization {
            data["auth"] = .string(authorization.auth)
            if let channelData = authorization.channelData { data["channel_data"] = .string(channelData) }
        }
        return JSONValue.object(["event": "pusher:subscribe", "data": .object(data)]).jsonText
    }

    static func unsubscribe(channel: String) -> String {
        JSONValue.object(["event": "pusher:unsubscribe", "data": ["channel": .string(channel)]]).jsonText
    }

    /// `{"event":"pusher:ping"}` — no `data`, as libPusher sends it (`PTPusherConnection.m` `sendPing`).
    static let ping = #"{"event":"pusher:ping"}"#
    /// The answer to a server `pusher:ping`.
    static let pong = #"{"event":"pusher:pong","data":{}}"#

    /// A client event: `{"event","data","channel"}`, data as given (object data stays an object).
    static func clientEvent(name: String, data: JSONValue, channel: String) -> String {
        JSONValue.object(["event": .string(name), "data": data, "channel": .string(channel)]).jsonText
    }
}
