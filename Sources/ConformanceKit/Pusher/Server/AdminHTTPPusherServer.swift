// SPDX-License-Identifier: MIT
import Foundation
import HarnessHTTPClient
import HarnessPrimitives
import MockPusher
import PusherServer
import Synchronization

/// A `serve` in another process, controlled through its `/__admin/pusher/` routes and triggered
/// through its signed HTTP API (`POST /apps/ID/events`), over kept-alive connections.
public final class AdminHTTPPusherServer: PusherHarnessServer {
    public let host: String
    public let port: Int
    public let tlsPort: Int?
    private let client: HTTPClient
    /// The earliest estimate so far of this process's instant of the server clock's zero (each
    /// read's estimate is late by its answer's transit; the least is kept, so instants stay put).
    private let origin = Mutex<ContinuousClock.Instant?>(nil)
    /// Seconds each control request may take.
    public let requestTimeout: Double

    /// - Parameters:
    ///   - address: `host:port` of the server's plain listener.
    ///   - tlsAddress: `host:port` of its TLS listener, if any (its host must be `address`'s).
    ///   - requestTimeout: seconds each control request may take (a run passes the default
    ///     stretched by its time scale).
    public init(address: String, tlsAddress: String? = nil, requestTimeout: Double = AdminHTTPServer.defaultRequestTimeout) throws {
        self.requestTimeout = requestTimeout
        guard let (host, port) = AdminHTTPServer.hostAndPort(address) else {
            throw HarnessServerError.requestFailed(operation: "connect", detail: "\(address) is not HOST:PORT")
        }
        self.host = host
        self.port = port
        tlsPort = tlsAddress.flatMap(AdminHTTPServer.hostAndPort).map(\.1)
        do {
            client = try HTTPClient(host: host, port: port, trust: nil, userAgent: "pubnub-harness-admin", keepAlive: true)
        } catch {
            throw HarnessServerError.requestFailed(operation: "connect", detail: "\(error)")
        }
    }

    public func caPEM() async throws -> String? {
        let (status, body) = try await send("GET", "/__admin/tls/ca", operation: "fetch CA")
        guard status == 200 else { return nil }
        return try object(body, "fetch CA")["caPEM"]?.stringValue
    }

    public func register(_ app: PusherApp) async throws {
        var members: [(String, JSONValue)] = [
            ("id", .string(app.id)), ("key", .string(app.key)), ("secret", .string(app.secret)),
            ("activityTimeoutMs", .int(Self.milliseconds(app.options.activityTimeout))), ("pongTimeoutMs", .int(Self.milliseconds(app.options.pongTimeout))),
            ("serverPing", app.options.serverPing == .pusherEvent ? "pusher" : "websocket"),
            ("subscriptionCount", .bool(app.options.subscriptionCountEvents)), ("cacheChannels", .bool(app.options.cacheChannelsEnabled)),
            ("cacheTtlMs", .int(Self.milliseconds(app.options.cacheTTL))),
            ("watchlistLimit", .int(app.options.watchlistLimit)),
            ("watchlistInitial", app.options.watchlistInitialStatus == .onlineOnly ? "online" : "online-and-offline"),
        ]
        if let key = app.options.encryptionMasterKey { members.append(("encryptionMasterKey", .string(ByteEncoding.base64(key)))) }
        try await expectOK(send("POST", "/__admin/pusher/apps", json: .object(JSONObject(members)), operation: "register app"), "register app")
    }

    public func installPlan(_ plan: PusherFaultPlan, appKey: String) async throws {
        let body = Data(plan.json.jsonText.utf8)
        try await expectOK(send("PUT", "/__admin/pusher/plan?app_key=\(PusherAPISigner.encode(appKey))", body: body, operation: "install plan"), "install plan")
    }

    public func clearPlan(appKey: String) async throws {
        try await expectOK(send("DELETE", "/__admin/pusher/plan?app_key=\(PusherAPISigner.encode(appKey))", operation: "clear plan"), "clear plan")
    }

    public func journal(appKey: String) async throws -> PusherAppJournal {
        let answer = try await send("GET", "/__admin/pusher/record?app_key=\(PusherAPISigner.encode(appKey))", operation: "journal")
        let readAt = ContinuousClock.now
        try expectOK(answer, "journal")
        let value = try object(answer.body, "journal")
        guard let now = value["nowMs"]?.intValue, let entries = value["entries"]?.arrayValue else {
            throw HarnessServerError.invalidAnswer(operation: "journal", detail: String(decoding: answer.body.prefix(200), as: UTF8.self))
        }
        let authorizations = (value["authorizations"]?.arrayValue ?? []).compactMap { item -> PusherJournalAuthorization? in
            guard let socketID = item["socketId"]?.stringValue, let channel = item["channel"]?.stringValue else { return nil }
            return PusherJournalAuthorization(socketID: socketID, channel: channel)
        }
        let estimate = readAt - .milliseconds(now)
        let origin = self.origin.withLock { origin in
            if origin.map({ estimate < $0 }) ?? true { origin = estimate }
            return origin ?? estimate
        }
        return PusherAppJournal(records: entries.compactMap(PusherJournalRecord.init(json:)), authorizations: authorizations,
                                refused: value["refused"]?.intValue ?? 0, origin: origin)
    }

    public func clearJournal(appKey: String) async throws {
        try await expectOK(send("DELETE", "/__admin/pusher/record?app_key=\(PusherAPISigner.encode(appKey))", operation: "clear journal"), "clear journal")
    }

    public func trigger(app: PusherApp, channels: [String], event: String, data: String, excludeSocketID: String?) async throws {
        let sent = try PusherTriggerEncryption.data(data, app: app, channels: channels)
        let (target, body) = PusherAPISigner.events(app: app, channels: channels, event: event, data: sent, excludeSocketID: excludeSocketID,
                                                    timestamp: Int64(Date().timeIntervalSince1970))
        try await expectOK(send("POST", target, body: Data(body), operation: "trigger \(event)"), "trigger \(event)")
    }

    public func send(text: String, appKey: String) async throws -> Int {
        let body: JSONValue = ["appKey": .string(appKey), "text": .string(text)]
        let answer = try await send("POST", "/__admin/pusher/connections/send", json: body, operation: "send")
        try expectOK(answer, "send")
        return try object(answer.body, "send")["sent"]?.intValue ?? 0
    }

    public func closeConnections(appKey: String, code: Int, reason: String) async throws -> Int {
        let body: JSONValue = ["appKey": .string(appKey), "code": .int(code), "reason": .string(reason)]
        let answer = try await send("POST", "/__admin/pusher/connections/close", json: body, operation: "close connections")
        try expectOK(answer, "close connections")
        return try object(answer.body, "close connections")["closed"]?.intValue ?? 0
    }

    public func peerSubscribe(_ peer: PusherPeer, appKey: String, channel: String) async throws {
        let body: JSONValue = ["appKey": .string(appKey), "name": .string(peer.name), "userId": .string(peer.userID), "channel": .string(channel)]
        try await expectOK(send("POST", "/__admin/pusher/peers/subscribe", json: body, operation: "peer subscribe"), "peer subscribe")
    }

    public func peerClientEvent(_ peer: PusherPeer, appKey: String, channel: String, event: String, data: String) async throws {
        let body: JSONValue = ["appKey": .string(appKey), "name": .string(peer.name), "channel": .string(channel), "event": .string(event), "data": .string(data)]
        try await expectOK(send("POST", "/__admin/pusher/peers/event", json: body, operation: "peer event"), "peer event")
    }

    public func peerLeave(_ peer: PusherPeer, appKey: String) async throws {
        let path = "/__admin/pusher/peers?app_key=\(PusherAPISigner.encode(appKey))&name=\(PusherAPISigner.encode(peer.name))"
        try await expectOK(send("DELETE", path, operation: "peer leave"), "peer leave")
    }

    public func peerMessages(_ peer: PusherPeer, appKey: String) async throws -> [PusherPeerMessage] {
        let path = "/__admin/pusher/peers/messages?app_key=\(PusherAPISigner.encode(appKey))&name=\(PusherAPISigner.encode(peer.name))"
        let answer = try await send("GET", path, operation: "peer messages")
        if answer.status == 404 { return [] }
        try expectOK(answer, "peer messages")
        return (try object(answer.body, "peer messages")["messages"]?.arrayValue ?? []).compactMap(\.stringValue).map(PusherPeerMessage.init(text:))
    }

    public func removePeers(appKey: String) async throws {
        try await expectOK(send("DELETE", "/__admin/pusher/peers?app_key=\(PusherAPISigner.encode(appKey))", operation: "remove peers"), "remove peers")
    }

    public func peerSignin(_ peer: PusherPeer, appKey: String, watchlist: [String]) async throws {
        let body: JSONValue = ["appKey": .string(appKey), "name": .string(peer.name), "userId": .string(peer.userID),
                               "watchlist": .array(watchlist.map(JSONValue.string))]
        try await expectOK(send("POST", "/__admin/pusher/peers/signin", json: body, operation: "peer signin"), "peer signin")
    }

    public func terminateUser(app: PusherApp, userID: String) async throws {
        let (target, body) = PusherAPISigner.terminate(app: app, userID: userID, timestamp: Int64(Date().timeIntervalSince1970))
        try await expectOK(send("POST", target, body: Data(body), operation: "terminate \(userID)"), "terminate \(userID)")
    }

    public func webhookEvents(appKey: String) async throws -> [JSONValue] {
        let answer = try await send("GET", "/__admin/pusher/webhooks?app_key=\(PusherAPISigner.encode(appKey))", operation: "webhooks")
        try expectOK(answer, "webhooks")
        return try object(answer.body, "webhooks")["events"]?.arrayValue ?? []
    }

    static func milliseconds(_ duration: Duration) -> Int {
        Int(duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }

    // MARK: - Transport

    private func send(_ method: String, _ target: String, json: JSONValue, operation: String) async throws -> (status: Int, body: Data) {
        try await send(method, target, body: Data(json.jsonText.utf8), operation: operation)
    }

    private func send(_ method: String, _ target: String, body: Data? = nil, operation: String) async throws -> (status: Int, body: Data) {
        let request = HTTPClientRequest(method: method, target: target, body: body.map { [UInt8]($0) })
        switch await client.perform(request, timeout: requestTimeout) {
        case .success(let response): return (response.statusCode, Data(response.body))
        case .failure(let error): throw HarnessServerError.requestFailed(operation: operation, detail: "\(error)")
        }
    }

    private func expectOK(_ answer: (status: Int, body: Data), _ operation: String) throws {
        guard (200..<300).contains(answer.status) else {
            throw HarnessServerError.requestFailed(
                operation: operation, detail: "HTTP \(answer.status) \(String(decoding: answer.body.prefix(200), as: UTF8.self))")
        }
    }

    private func object(_ body: Data, _ operation: String) throws -> JSONValue {
        guard let value = try? JSONValue.parse(Array(body)), value.objectValue != nil else {
            throw HarnessServerError.invalidAnswer(operation: operation, detail: String(decoding: body.prefix(200), as: UTF8.self))
        }
        return value
    }
}
