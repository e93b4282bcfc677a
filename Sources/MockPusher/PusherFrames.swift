// SPDX-License-Identifier: MIT
import HarnessJSON

/// The server's messages, byte for byte as the live service sends them (spec §3.1): compact JSON,
/// keys in the order event, data, channel, user_id, and `data` a string holding JSON for everything
/// the server generates except `pusher:error`.
enum PusherFrames {
    /// `{"event":NAME,"data":"<data as a JSON string>"[,"channel":C][,"user_id":U]}`.
    static func event(_ name: String, data: String, channel: String? = nil, userID: String? = nil) -> String {
        event(name, rawData: JSONText.stringLiteral(data), channel: channel, userID: userID)
    }

    /// An event whose `data` member is `rawData`, already JSON text (a string literal or, for a
    /// client event sent with an object, that object's text as received).
    static func event(_ name: String, rawData: String?, channel: String? = nil, userID: String? = nil) -> String {
        var out: [UInt8] = []
        out.append(contentsOf: #"{"event":"#.utf8)
        JSONText.appendStringLiteral(name, to: &out)
        if let rawData {
            out.append(contentsOf: #","data":"#.utf8)
            out.append(contentsOf: rawData.utf8)
        }
        if let channel {
            out.append(contentsOf: #","channel":"#.utf8)
            JSONText.appendStringLiteral(channel, to: &out)
        }
        if let userID {
            out.append(contentsOf: #","user_id":"#.utf8)
            JSONText.appendStringLiteral(userID, to: &out)
        }
        out.append(UInt8(ascii: "}"))
        return String(decoding: out, as: UTF8.self)
    }

    /// `{"event":"pusher:error","data":{"code":CODE|null,"message":"…"}}`: the one object `data`.
    static func error(code: Int?, message: String) -> String {
        let data: JSONValue = ["code": code.map { .int($0) } ?? .null, "message": .string(message)]
        return event("pusher:error", rawData: data.jsonText)
    }

    /// `pusher:connection_established`, `activity_timeout` last (erlpusher splits on it, spec §3.1).
    static func connectionEstablished(socketID: String, activityTimeoutSeconds: Int64) -> String {
        let data: JSONValue = ["socket_id": .string(socketID), "activity_timeout": .int(activityTimeoutSeconds)]
        return event("pusher:connection_established", data: data.jsonText)
    }

    /// `{"event":"pusher:pong","data":"{}"}`.
    static let pong = event("pusher:pong", data: "{}")
    /// `{"event":"pusher:ping","data":"{}"}`.
    static let ping = event("pusher:ping", data: "{}")

    /// `{"event":"pusher_internal:subscription_succeeded","data":"{}","channel":"NAME"}`.
    static func subscriptionSucceeded(channel: String) -> String {
        event("pusher_internal:subscription_succeeded", data: "{}", channel: channel)
    }
}
