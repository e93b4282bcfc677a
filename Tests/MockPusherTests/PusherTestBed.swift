// SPDX-License-Identifier: MIT
import MockPusher
import Testing

/// The app of the auth doc's examples (key and secret of spec §4.2).
let docApp = PusherApp(id: "3", key: "278d425bdf160c739803", secret: "7ad3773142a6692b25b8")

/// A core with one app and helpers that drive it like a transport would, at a controlled clock.
struct PusherTestBed {
    let core: PusherCore
    let app: PusherApp
    var now = PusherInstant(milliseconds: 1_000_000)

    init(app: PusherApp = docApp, seed: UInt64 = 42) {
        self.app = app
        core = PusherCore(apps: [app], socketIDSeed: seed)
    }

    static func connection(_ number: UInt64) -> PusherConnectionID { PusherConnectionID(number) }

    /// Connects with protocol 7 and returns the socket id the core gave.
    @discardableResult
    func connect(_ number: UInt64, protocolVersion: String = "7") -> String {
        let actions = core.handle(.connected(Self.connection(number), appKey: app.key, query: [PusherQueryItem("protocol", protocolVersion)], now: now))
        #expect(actions.count == 1)
        return core.socketID(of: Self.connection(number)) ?? ""
    }

    /// Sends one text message from a connection.
    @discardableResult
    func send(_ number: UInt64, _ text: String) -> [PusherAction] {
        core.handle(.text(Self.connection(number), text, now: now))
    }

    /// Subscribes to a channel, signing like the app server for private and presence channels.
    @discardableResult
    func subscribe(_ number: UInt64, _ channel: String, channelData: String? = nil) -> [PusherAction] {
        let socketID = core.socketID(of: Self.connection(number)) ?? ""
        var data = #"{"channel":"# + json(channel)
        if channel.hasPrefix("private-") || channel.hasPrefix("presence-") {
            data += #","auth":"# + json(PusherSignatures.channelAuth(app: app, socketID: socketID, channel: channel, channelData: channelData))
        }
        if let channelData { data += #","channel_data":"# + json(channelData) }
        return send(number, #"{"event":"pusher:subscribe","data":"# + data + "}}")
    }

    /// Signs in as `userData` with a valid signature.
    @discardableResult
    func signin(_ number: UInt64, userData: String) -> [PusherAction] {
        let socketID = core.socketID(of: Self.connection(number)) ?? ""
        let auth = PusherSignatures.userAuth(app: app, socketID: socketID, userData: userData)
        return send(number, #"{"event":"pusher:signin","data":{"auth":"# + json(auth) + #","user_data":"# + json(userData) + "}}")
    }

    mutating func advance(seconds: Int64) { now = now + .seconds(seconds) }
}

/// A JSON string literal (tests build client messages by hand to control every byte).
func json(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\"": out += "\\\""
        case "\\": out += "\\\\"
        default: out.unicodeScalars.append(scalar)
        }
    }
    return out + "\""
}

/// The text messages in `actions` for one connection.
func sent(_ actions: [PusherAction], to number: UInt64) -> [String] {
    actions.compactMap { action in
        if case .send(let connection, let text) = action, connection == PusherConnectionID(number) { return text }
        return nil
    }
}

/// The webhook events in `actions`.
func webhooks(_ actions: [PusherAction]) -> [PusherWebhookEvent] {
    actions.compactMap { action in
        if case .webhook(_, let event) = action { return event }
        return nil
    }
}

/// `{"event":"pusher:error","data":{"code":null,"message":"…"}}` as the live service sends it.
func errorFrame(_ message: String, code: Int? = nil) -> String {
    #"{"event":"pusher:error","data":{"code":"# + (code.map(String.init) ?? "null") + #","message":"# + json(message) + "}}"
}
