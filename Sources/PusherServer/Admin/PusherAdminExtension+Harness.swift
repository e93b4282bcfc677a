// SPDX-License-Identifier: MIT
import HarnessJSON
import HarnessServerCore
import MockPusher

/// The admin routes a conformance harness drives a Pusher run with (docs/pusher.md, "Harness routes"):
/// apps added per case, socketless peers, server-side closes and raw messages, the harness's auth
/// endpoint and one read of what a key's clients did. Each wraps a `PusherService` call, so a run
/// over HTTP does exactly what a run in process does.
extension PusherAdminExtension {
    static let harnessRoutes: [(method: String, path: String, description: String)] = [
        ("GET, POST", "/__admin/pusher/apps", "the apps served; POST {id,key,secret[,activityTimeoutMs,pongTimeoutMs,serverPing,subscriptionCount,cacheChannels,cacheTtlMs,encryptionMasterKey,watchlistLimit,watchlistInitial]} adds one"),
        ("POST", "/__admin/pusher/peers/subscribe", "{appKey,name,channel[,userId]}: a socketless peer subscribes (signed by the server)"),
        ("POST", "/__admin/pusher/peers/signin", "{appKey,name[,userId,watchlist]}: a socketless peer signs in (signed by the server)"),
        ("POST", "/__admin/pusher/peers/event", "{appKey,name,channel,event,data}: the peer sends a client event"),
        ("GET", "/__admin/pusher/peers/messages?app_key=KEY&name=NAME", "what the server sent the peer"),
        ("DELETE", "/__admin/pusher/peers?app_key=KEY[&name=NAME]", "ends the key's peers (or one)"),
        ("POST", "/__admin/pusher/connections/close", "{appKey,code[,reason]}: closes the key's open connections (1006: no close frame)"),
        ("POST", "/__admin/pusher/connections/send", "{appKey,text}: sends the text as is on the key's open connections"),
        ("POST", "/__admin/pusher/auth/KEY/USER[?shared_secret=wrong][&channel_data=none]", "a channel auth endpoint (form socket_id, channel_name); user \"refused\" gets 403"),
        ("POST", "/__admin/pusher/user-auth/KEY/USER[?watchlist=A,B][&signature=bad]", "a user authentication endpoint (form socket_id); user \"refused\" gets 403"),
        ("GET, DELETE", "/__admin/pusher/record?app_key=KEY[&since=N]", "journal, auth requests and the server clock in one read"),
        ("GET", "/__admin/pusher/webhooks?app_key=KEY", "the webhook events the key's app emitted (the last 1,000)"),
    ]

    /// The answer of a harness route; nil when the path is none of them.
    func harnessResponse(for request: HTTPRequest, query: [QueryItem]) -> HTTPResponse? {
        func parameter(_ name: String) -> String? { query.first { $0.name == name }?.value }
        if request.rawPath.hasPrefix("/__admin/pusher/auth/") {
            guard request.method == "POST" else { return Self.methodNotAllowed(request.method, allowed: "POST") }
            return authorize(request)
        }
        if request.rawPath.hasPrefix("/__admin/pusher/user-auth/") {
            guard request.method == "POST" else { return Self.methodNotAllowed(request.method, allowed: "POST") }
            return authenticateUser(request, query: query)
        }
        switch request.rawPath {
        case "/__admin/pusher/apps":
            switch request.method {
            case "GET":
                return Self.ok(.object([("apps", .array(service.core.allApps.map { .object([("id", .string($0.id)), ("key", .string($0.key))]) }))]))
            case "POST": return registerApp(request.body)
            default: return Self.methodNotAllowed(request.method, allowed: "GET, POST")
            }
        case "/__admin/pusher/peers/subscribe", "/__admin/pusher/peers/event", "/__admin/pusher/peers/signin", "/__admin/pusher/connections/close",
             "/__admin/pusher/connections/send":
            guard request.method == "POST" else { return Self.methodNotAllowed(request.method, allowed: "POST") }
            do throws(AdminBodyError) {
                return try harnessAction(request.rawPath, AdminBody(request.body))
            } catch {
                return Self.error(error.status, error.message)
            }
        case "/__admin/pusher/peers/messages":
            guard request.method == "GET" else { return Self.methodNotAllowed(request.method, allowed: "GET") }
            guard let appKey = parameter("app_key"), let name = parameter("name") else { return Self.error(400, "app_key and name: required") }
            do throws(PusherHarnessError) {
                let messages = try service.peerMessages(name, appKey: appKey)
                return Self.ok(.object([("appKey", .string(appKey)), ("name", .string(name)), ("messages", .array(messages.map(JSONValue.string)))]))
            } catch {
                return Self.error(404, error.description)
            }
        case "/__admin/pusher/peers":
            guard request.method == "DELETE" else { return Self.methodNotAllowed(request.method, allowed: "DELETE") }
            guard let appKey = parameter("app_key"), !appKey.isEmpty else { return Self.error(400, "app_key: required") }
            let removed = parameter("name").map { service.peerLeave($0, appKey: appKey) ? 1 : 0 } ?? service.removePeers(appKey: appKey)
            return Self.ok(.object([("appKey", .string(appKey)), ("removed", .int(removed))]))
        case "/__admin/pusher/webhooks":
            guard request.method == "GET" else { return Self.methodNotAllowed(request.method, allowed: "GET") }
            guard let appKey = parameter("app_key"), !appKey.isEmpty else { return Self.error(400, "app_key: required") }
            do throws(PusherHarnessError) {
                let events = try service.webhookEvents(appKey: appKey)
                return Self.ok(.object([("appKey", .string(appKey)), ("events", .array(events.map(\.json)))]))
            } catch {
                return Self.error(404, error.description)
            }
        case "/__admin/pusher/record":
            guard let appKey = parameter("app_key"), !appKey.isEmpty else { return Self.error(400, "app_key: required") }
            switch request.method {
            case "GET":
                var since: UInt64 = 0
                if let text = parameter("since") {
                    guard let value = UInt64(text) else { return Self.error(400, "since: expected a sequence number (an integer >= 0)") }
                    since = value
                }
                return Self.ok(record(appKey, since: since))
            case "DELETE":
                service.clearRecords(appKey: appKey)
                return Self.ok(.object([("appKey", .string(appKey)), ("cleared", .bool(true))]))
            default:
                return Self.methodNotAllowed(request.method, allowed: "GET, DELETE")
            }
        default:
            return nil
        }
    }

    /// `{"appKey","nowMs","lastSequence","entries","authorizations","refused"}`: `nowMs` is the
    /// service clock the entries' `atMs` are on, read after them.
    func record(_ appKey: String, since: UInt64) -> JSONValue {
        let entries = service.journal.entries(for: appKey, since: since)
        let page = service.authorizationPage(appKey: appKey)
        let auth = page.json(appKey: appKey)
        return .object([
            ("appKey", .string(appKey)), ("nowMs", .int(service.now.milliseconds)),
            ("lastSequence", .int(entries.last?.sequence ?? since)), ("entries", .array(entries.map(\.json))),
            ("authorizations", auth["authorizations"] ?? .array([])), ("refused", .int(page.refused)),
        ])
    }

    private func registerApp(_ body: [UInt8]) -> HTTPResponse {
        do throws(AdminBodyError) {
            let fields = try AdminBody(body)
            var options = PusherAppOptions()
            if let ms = try fields.optionalInt("activityTimeoutMs", in: 1...3_600_000) { options.activityTimeout = .milliseconds(ms) }
            if let ms = try fields.optionalInt("pongTimeoutMs", in: 1...3_600_000) { options.pongTimeout = .milliseconds(ms) }
            switch try fields.optionalString("serverPing") {
            case nil, "websocket"?: break
            case "pusher"?: options.serverPing = .pusherEvent
            case let other?: throw AdminBodyError(400, "serverPing: expected \"websocket\" or \"pusher\", got \"\(other)\"")
            }
            PusherAppSettings.apply(
                subscriptionCount: try fields.optionalBool("subscriptionCount"), cacheChannels: try fields.optionalBool("cacheChannels"),
                cacheTTLMilliseconds: try fields.optionalInt("cacheTtlMs", in: 1...PusherAppSettings.maximumCacheTTLMilliseconds), to: &options)
            if let limit = try fields.optionalInt("watchlistLimit", in: 0...100_000) { options.watchlistLimit = limit }
            switch try fields.optionalString("watchlistInitial") {
            case nil, "online-and-offline"?: break
            case "online"?: options.watchlistInitialStatus = .onlineOnly
            case let other?: throw AdminBodyError(400, "watchlistInitial: expected \"online-and-offline\" or \"online\", got \"\(other)\"")
            }
            if let key = try fields.optionalString("encryptionMasterKey") {
                do throws(PusherAppSettings.Refusal) {
                    options.encryptionMasterKey = try PusherAppSettings.masterKey(base64: key, name: "encryptionMasterKey")
                } catch {
                    throw AdminBodyError(400, error.reason)
                }
            }
            let app = PusherApp(id: try fields.string("id"), key: try fields.string("key"), secret: try fields.string("secret"), options: options)
            do throws(PusherAppRegistrationError) {
                let added = try service.register(app)
                return Self.ok(.object([("id", .string(app.id)), ("key", .string(app.key)), ("registered", .bool(added))]))
            } catch {
                return Self.error(409, error.description)
            }
        } catch {
            return Self.error(error.status, error.message)
        }
    }

    private func harnessAction(_ path: String, _ fields: AdminBody) throws(AdminBodyError) -> HTTPResponse {
        let appKey = try fields.string("appKey")
        switch path {
        case "/__admin/pusher/peers/subscribe":
            let name = try fields.string("name")
            let userID = try fields.optionalString("userId") ?? name
            let channel = try fields.string("channel")
            do throws(PusherHarnessError) {
                let socketID = try service.peerSubscribe(name, userID: userID, appKey: appKey, channel: channel)
                return Self.ok(.object([("appKey", .string(appKey)), ("name", .string(name)), ("socketId", .string(socketID))]))
            } catch {
                throw AdminBodyError(404, error.description)
            }
        case "/__admin/pusher/peers/signin":
            let name = try fields.string("name")
            let userID = try fields.optionalString("userId") ?? name
            var list: [JSONValue] = []
            if let value = fields.object["watchlist"], value != .null {
                guard let array = value.arrayValue, array.allSatisfy({ $0.stringValue != nil }) else {
                    throw AdminBodyError(400, "watchlist: expected an array of strings")
                }
                list = array
            }
            do throws(PusherHarnessError) {
                try service.peerSignin(name, userID: userID, appKey: appKey, watchlist: list.compactMap(\.stringValue))
                return Self.ok(.object([("appKey", .string(appKey)), ("name", .string(name)), ("userId", .string(userID))]))
            } catch {
                throw AdminBodyError(404, error.description)
            }
        case "/__admin/pusher/peers/event":
            let name = try fields.string("name")
            let (channel, event, data) = (try fields.string("channel"), try fields.string("event"), try fields.optionalString("data") ?? "")
            do throws(PusherHarnessError) {
                try service.peerClientEvent(name, appKey: appKey, channel: channel, event: event, data: data)
                return Self.ok(.object([("appKey", .string(appKey)), ("name", .string(name)), ("sent", .bool(true))]))
            } catch {
                throw AdminBodyError(404, error.description)
            }
        case "/__admin/pusher/connections/close":
            guard let code = try fields.optionalInt("code", in: 1000...4999) else { throw AdminBodyError(400, "code: required (1000-4999)") }
            let closed = service.closeConnections(appKey: appKey, code: UInt16(code), reason: try fields.optionalString("reason") ?? "")
            return Self.ok(.object([("appKey", .string(appKey)), ("closed", .int(closed))]))
        default:
            let sent = service.send(text: try fields.string("text"), appKey: appKey)
            return Self.ok(.object([("appKey", .string(appKey)), ("sent", .int(sent))]))
        }
    }
}

/// A JSON object request body of an admin route; a missing or mistyped field is a 400.
struct AdminBody {
    let object: JSONValue

    init(_ bytes: [UInt8]) throws(AdminBodyError) {
        guard let value = try? JSONValue.parse(bytes), value.objectValue != nil else { throw AdminBodyError(400, "body: expected a JSON object") }
        object = value
    }

    func string(_ name: String) throws(AdminBodyError) -> String {
        guard let text = try optionalString(name), !text.isEmpty else { throw AdminBodyError(400, "\(name): required (a non-empty string)") }
        return text
    }

    func optionalString(_ name: String) throws(AdminBodyError) -> String? {
        guard let value = object[name], value != .null else { return nil }
        guard let text = value.stringValue else { throw AdminBodyError(400, "\(name): expected a string") }
        return text
    }

    func optionalBool(_ name: String) throws(AdminBodyError) -> Bool? {
        guard let value = object[name], value != .null else { return nil }
        guard case .bool(let flag) = value else { throw AdminBodyError(400, "\(name): expected true or false") }
        return flag
    }

    func optionalInt(_ name: String, in range: ClosedRange<Int>) throws(AdminBodyError) -> Int? {
        guard let value = object[name], value != .null else { return nil }
        guard let number = value.intValue, range.contains(Int(number)) else {
            throw AdminBodyError(400, "\(name): expected an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(number)
    }
}

/// A bad admin request: the status and the message of the admin error body.
struct AdminBodyError: Error {
    let status: Int
    let message: String
    init(_ status: Int, _ message: String) {
        self.status = status
        self.message = message
    }
}
