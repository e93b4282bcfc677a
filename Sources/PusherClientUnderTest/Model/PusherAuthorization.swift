// SPDX-License-Identifier: MIT

/// What the client asks an authorizer: the channel and the socket id of the current connection.
public struct PusherAuthorizationRequest: Sendable, Hashable {
    public var channelName: String
    public var socketID: String
    /// True when an encrypted channel asks again for its shared secret after an event did not
    /// decrypt (the subscription itself stands; nothing is re-sent to the server).
    public var refreshesKey: Bool

    public init(channelName: String, socketID: String, refreshesKey: Bool = false) {
        self.channelName = channelName
        self.socketID = socketID
        self.refreshesKey = refreshesKey
    }

    /// The auth endpoint's form body: `socket_id=…&channel_name=…`, values form-encoded.
    public var formBody: String {
        "socket_id=\(FormEncoding.encode(socketID))&channel_name=\(FormEncoding.encode(channelName))"
    }
}

/// An authorizer's answer: `auth` (`key:signature`) and, for presence channels, the exact
/// `channel_data` string to forward (its bytes are signed, so it is never re-serialized), and for
/// `private-encrypted-` channels the decoded `shared_secret` (spec §4.3; never sent to the server).
public struct PusherChannelAuthorization: Sendable, Hashable {
    public var auth: String
    public var channelData: String?
    public var sharedSecret: [UInt8]?

    public init(auth: String, channelData: String? = nil, sharedSecret: [UInt8]? = nil) {
        self.auth = auth
        self.channelData = channelData
        self.sharedSecret = sharedSecret
    }
}

/// `application/x-www-form-urlencoded` values: unreserved bytes as is, space as `+`, the rest `%XX`.
enum FormEncoding {
    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "*"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: " "):
                out += "+"
            default:
                let hex = Array("0123456789ABCDEF".utf8)
                out += "%" + String(decoding: [hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]], as: UTF8.self)
            }
        }
        return out
    }
}
