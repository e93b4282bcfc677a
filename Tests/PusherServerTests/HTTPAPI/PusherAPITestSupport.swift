// SPDX-License-Identifier: MIT
import MockPubNubServer
import MockPusher
import PusherServer
import Testing

/// The REST reference's worked example app (spec §6.2).
let vectorApp = PusherApp(id: "3", key: "278d425bdf160c739803", secret: "7ad3773142a6692b25b8")
/// The worked example's body.
let vectorBody = #"{"name":"foo","channels":["project-3"],"data":"{\"some\":\"data\"}"}"#

/// A core with the example app, connections driven like the transport does, and signed API requests.
struct PusherAPIBed {
    let core: PusherCore
    let api: PusherHTTPAPI
    let app: PusherApp
    var unixTime: Int64 = 1_353_088_179
    var now = PusherInstant(milliseconds: 5_000_000)

    init(app: PusherApp = vectorApp, core: PusherCore? = nil) {
        self.app = app
        self.core = core ?? PusherCore(apps: [app], socketIDSeed: 7)
        api = PusherHTTPAPI(core: self.core)
    }

    @discardableResult
    func connect(_ number: UInt64) -> String {
        _ = core.handle(.connected(PusherConnectionID(number), appKey: app.key, query: [PusherQueryItem("protocol", "7")], now: now))
        return core.socketID(of: PusherConnectionID(number)) ?? ""
    }

    /// Subscribes (signing like the app server for private and presence channels).
    func subscribe(_ number: UInt64, _ channel: String, userID: String? = nil) {
        let socketID = core.socketID(of: PusherConnectionID(number)) ?? ""
        let channelData = userID.map { #"{"user_id":"\#($0)"}"# }
        var data: JSONObject = ["channel": .string(channel)]
        if channel.hasPrefix("private-") || channel.hasPrefix("presence-") {
            data["auth"] = .string(PusherSignatures.channelAuth(app: app, socketID: socketID, channel: channel, channelData: channelData))
        }
        if let channelData { data["channel_data"] = .string(channelData) }
        let message: JSONValue = ["event": "pusher:subscribe", "data": .object(data)]
        _ = core.handle(.text(PusherConnectionID(number), message.jsonText, now: now))
    }

    func signin(_ number: UInt64, userID: String) {
        let socketID = core.socketID(of: PusherConnectionID(number)) ?? ""
        let userData = #"{"id":"\#(userID)"}"#
        let message: JSONValue = [
            "event": "pusher:signin",
            "data": ["auth": .string(PusherSignatures.userAuth(app: app, socketID: socketID, userData: userData)), "user_data": .string(userData)],
        ]
        _ = core.handle(.text(PusherConnectionID(number), message.jsonText, now: now))
    }

    /// A request signed with the app's secret at `timestamp` (default: the bed's clock).
    func signed(_ method: String, _ path: String, _ parameters: [QueryItem] = [], body: String = "", timestamp: Int64? = nil) -> PusherAPIRequest {
        let bytes = Array(body.utf8)
        let query = PusherRequestAuthentication.signedQuery(
            app: app, method: method, path: path, parameters: parameters, body: bytes, timestamp: timestamp ?? unixTime)
        return PusherAPIRequest(method: method, rawPath: path, decodedPath: path, query: query, body: bytes)
    }

    func respond(_ request: PusherAPIRequest) -> PusherAPIOutcome { api.respond(to: request, unixTime: unixTime, now: now) }
}

extension PusherAPIOutcome {
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// The messages `actions` send to connection `number`.
func messages(_ actions: [PusherAction], to number: UInt64) -> [String] {
    actions.compactMap { action in
        if case .send(let connection, let text) = action, connection == PusherConnectionID(number) { return text }
        return nil
    }
}

/// Replaces one query parameter's value.
func replacing(_ name: String, with value: String, in request: PusherAPIRequest) -> PusherAPIRequest {
    var copy = request
    copy.query = request.query?.map { $0.name == name ? QueryItem(name: name, value: value) : $0 }
    return copy
}
