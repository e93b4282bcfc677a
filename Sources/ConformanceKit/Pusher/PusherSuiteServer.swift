// SPDX-License-Identifier: MIT
import Foundation
import HarnessJSON
import HarnessWebSocket
import MockPubNubServer
import MockPusher
import PusherServer
import Synchronization

/// The Pusher side of a conformance run, in process: a `MockServer` whose extension serves
/// `GET /app/KEY` upgrades through a `PusherCore` (one app per case), the harness's auth endpoint
/// (`POST /__pusher-auth/KEY/USER`, signed with the app's secret), harness peers that live inside
/// the core without a socket, server-side triggers and closes, and a journal per app of what the
/// client did (connections, texts sent, auth requests).
///
/// Fault plans (`faults`) transform the core's actions per connection exactly as on `serve`
/// (`PusherConnectionFaults`, from PusherServer). The core's activity timer is not driven (cases
/// last seconds; the 120 s activity timeout never comes due), and webhooks are dropped.
public final class PusherSuiteServer: Sendable {
    public let server: MockServer
    public let core: PusherCore
    /// `127.0.0.1`.
    public let host: String
    /// Pusher fault plans by app key (docs/fault-plans.md), applied per connection as `PusherService` does.
    public let faults = PusherFaultBook()
    private let state: Mutex<State>

    struct State {
        var handles: [UInt64: WebSocketHandle] = [:]
        var connectionFaults: [UInt64: PusherConnectionFaults] = [:]
        var appOfConnection: [UInt64: String] = [:]
        var journals: [String: PusherAppJournal] = [:]
        var peers: [String: PeerState] = [:]
        var nextPeerID: UInt64 = 1 << 60
    }

    struct PeerState {
        var connection: PusherConnectionID
        var socketID: String
        var received: [PusherPeerMessage] = []
    }

    /// Starts a loopback server (plain listener, port 0) serving `apps`.
    public static func start(apps: [PusherApp]) throws -> PusherSuiteServer {
        let core = PusherCore(apps: apps, socketIDSeed: UInt64.random(in: 1...UInt64.max >> 1))
        let box = ExtensionBox()
        var configuration = MockServerConfiguration.loopback(tls: false)
        configuration.extensions = [box]
        let server = try MockServer(configuration: configuration)
        let suite = PusherSuiteServer(server: server, core: core)
        box.owner.withLock { $0 = WeakOwner(value: suite) }
        try server.start()
        return suite
    }

    private init(server: MockServer, core: PusherCore) {
        self.server = server
        self.core = core
        host = "127.0.0.1"
        state = Mutex(State())
    }

    /// The plain listener's port.
    public var port: Int { server.address?.port ?? 0 }

    public func shutdown() async { await server.shutdown() }

    static func now() -> PusherInstant { PusherInstant(milliseconds: Int64(ProcessInfo.processInfo.systemUptime * 1_000)) }

    // MARK: Actions

    func perform(_ actions: [PusherAction]) {
        for action in actions {
            switch action {
            case .send(let id, _), .close(let id, _, _), .webSocketPing(let id):
                let target = state.withLock { state -> (WebSocketHandle, [PusherWireStep])? in
                    if case .send(_, let text) = action, let peer = state.peers.first(where: { $0.value.connection == id })?.key {
                        state.peers[peer]?.received.append(PusherPeerMessage(text: text))
                        return nil
                    }
                    guard let handle = state.handles[id.rawValue], var faults = state.connectionFaults[id.rawValue] else { return nil }
                    let steps = faults.steps(for: action)
                    state.connectionFaults[id.rawValue] = faults
                    return (handle, steps)
                }
                if let (handle, steps) = target {
                    for step in steps { Self.perform(step, on: handle) }
                }
            case .webhook:
                break
            }
        }
    }

    /// One wire step on a socket (a delayed one on the connection's loop timer).
    static func perform(_ step: PusherWireStep, on handle: WebSocketHandle) {
        switch step {
        case .text(let text): handle.send(text: text)
        case .raw(let bytes): handle.sendRaw(bytes)
        case let .close(code, reason): handle.close(code: WebSocketCloseCode(code), reason: reason)
        case .ping: handle.ping()
        case let .later(milliseconds, step): handle.schedule(after: .milliseconds(milliseconds)) { perform(step, on: handle) }
        }
    }

    // MARK: WebSocket side (called by the extension)

    func opened(_ handle: WebSocketHandle, appKey: String, query: [PusherQueryItem]) {
        let connectionFaults = faults.faults(forConnectionOn: appKey, query: query)
        state.withLock { state in
            state.handles[handle.id] = handle
            state.connectionFaults[handle.id] = connectionFaults
            state.appOfConnection[handle.id] = appKey
            state.journals[appKey, default: PusherAppJournal()].connections.append(
                PusherJournalConnection(handleID: handle.id, openedAt: ContinuousClock.now))
        }
        let id = PusherConnectionID(handle.id)
        perform(core.handle(.connected(id, appKey: appKey, query: query, now: Self.now())))
        let socketID = core.socketID(of: id)
        state.withLock { state in
            if let index = state.journals[appKey]?.connections.lastIndex(where: { $0.handleID == handle.id }) {
                state.journals[appKey]?.connections[index].socketID = socketID
            }
        }
    }

    func received(_ handle: WebSocketHandle, text: String) {
        state.withLock { state in
            guard let key = state.appOfConnection[handle.id],
                  let index = state.journals[key]?.connections.lastIndex(where: { $0.handleID == handle.id }) else { return }
            state.journals[key]?.connections[index].texts.append(text)
        }
        perform(core.handle(.text(PusherConnectionID(handle.id), text, now: Self.now())))
    }

    func receivedBinary(_ handle: WebSocketHandle) {
        perform(core.handle(.binary(PusherConnectionID(handle.id), now: Self.now())))
    }

    func activity(_ handle: WebSocketHandle, ping: Bool) {
        let id = PusherConnectionID(handle.id)
        perform(core.handle(ping ? .ping(id, now: Self.now()) : .pong(id, now: Self.now())))
    }

    func closed(_ handle: WebSocketHandle, code: UInt16) {
        state.withLock { state in
            state.handles[handle.id] = nil
            state.connectionFaults[handle.id] = nil
            guard let key = state.appOfConnection.removeValue(forKey: handle.id),
                  let index = state.journals[key]?.connections.lastIndex(where: { $0.handleID == handle.id }) else { return }
            state.journals[key]?.connections[index].closedAt = ContinuousClock.now
            if state.journals[key]?.connections[index].closeCode == nil { state.journals[key]?.connections[index].closeCode = Int(code) }
        }
        perform(core.handle(.closed(PusherConnectionID(handle.id), now: Self.now())))
    }

    // MARK: The harness's side

    /// The journal of one app (by key).
    public func journal(appKey: String) -> PusherAppJournal { state.withLock { $0.journals[appKey] ?? PusherAppJournal() } }

    /// Triggers from the server side (the HTTP API's events endpoint, in process).
    public func trigger(appID: String, channels: [String], event: String, data: String, excludeSocketID: String? = nil) throws {
        perform(try core.trigger(appID: appID, event: event, data: data, channels: channels, excludeSocketID: excludeSocketID, now: Self.now()))
    }

    /// Sends `text` as is on every open connection of the app (bypassing the core); returns how many.
    @discardableResult
    public func send(_ text: String, appKey: String) -> Int {
        let handles = state.withLock { state in state.appOfConnection.filter { $0.value == appKey }.compactMap { state.handles[$0.key] } }
        for handle in handles { handle.send(text: text) }
        return handles.count
    }

    /// Closes every open connection of the app with `code`; returns how many.
    @discardableResult
    public func closeConnections(appKey: String, code: Int, reason: String) -> Int {
        let handles = state.withLock { state -> [WebSocketHandle] in
            let ids = state.appOfConnection.filter { $0.value == appKey }.map(\.key)
            for id in ids {
                if let index = state.journals[appKey]?.connections.lastIndex(where: { $0.handleID == id }) {
                    state.journals[appKey]?.connections[index].closeCode = code
                }
            }
            return ids.compactMap { state.handles[$0] }
        }
        for handle in handles {
            // The core forgets the connection first (members leave as for any close), then the frame goes out.
            perform(core.handle(.closed(PusherConnectionID(handle.id), now: Self.now())))
            if code == 1006 { handle.abort() } else { handle.close(code: WebSocketCloseCode(UInt16(clamping: code)), reason: reason) }
        }
        return handles.count
    }

    /// Connects a harness peer for `app` (once) and subscribes it; presence peers sign
    /// `{"user_id":ID,"user_info":{"name":ID}}`.
    public func peerSubscribe(_ name: String, userID: String, app: PusherApp, channel: String) throws {
        let key = "\(app.key)/\(name)"
        var peer = state.withLock { $0.peers[key] }
        if peer == nil {
            let id = state.withLock { state -> PusherConnectionID in
                state.nextPeerID += 1
                let id = PusherConnectionID(state.nextPeerID)
                state.peers[key] = PeerState(connection: id, socketID: "")
                return id
            }
            perform(core.handle(.connected(id, appKey: app.key, query: [PusherQueryItem("protocol", "7")], now: Self.now())))
            guard let socketID = core.socketID(of: id) else { throw PusherSuiteError("peer \(name) was not accepted by the core") }
            state.withLock { $0.peers[key]?.socketID = socketID }
            peer = state.withLock { $0.peers[key] }
        }
        guard let peer else { return }
        let channelData = channel.hasPrefix("presence-") ? Self.channelData(userID: userID) : nil
        var data: [String: JSONValue] = ["channel": .string(channel)]
        if channel.hasPrefix("private-") || channel.hasPrefix("presence-") {
            data["auth"] = .string(PusherSignatures.channelAuth(app: app, socketID: peer.socketID, channel: channel, channelData: channelData))
        }
        if let channelData { data["channel_data"] = .string(channelData) }
        let message: JSONValue = ["event": "pusher:subscribe", "data": .object(JSONObject(data))]
        perform(core.handle(.text(peer.connection, message.jsonText, now: Self.now())))
    }

    /// A peer's client event, as its socket would send it.
    public func peerClientEvent(_ name: String, appKey: String, channel: String, event: String, data: String) throws {
        guard let peer = state.withLock({ $0.peers["\(appKey)/\(name)"] }) else { throw PusherSuiteError("peer \(name) is not connected") }
        let message: JSONValue = ["event": .string(event), "data": .string(data), "channel": .string(channel)]
        perform(core.handle(.text(peer.connection, message.jsonText, now: Self.now())))
    }

    /// A peer's connection ends.
    public func peerLeave(_ name: String, appKey: String) {
        guard let peer = state.withLock({ $0.peers.removeValue(forKey: "\(appKey)/\(name)") }) else { return }
        perform(core.handle(.closed(peer.connection, now: Self.now())))
    }

    /// What the server sent a peer so far.
    public func peerMessages(_ name: String, appKey: String) -> [PusherPeerMessage] {
        state.withLock { $0.peers["\(appKey)/\(name)"]?.received ?? [] }
    }

    /// Ends every peer of the app (case cleanup).
    public func removePeers(appKey: String) {
        let ids = state.withLock { state -> [PusherConnectionID] in
            let keys = state.peers.keys.filter { $0.hasPrefix(appKey + "/") }
            return keys.compactMap { state.peers.removeValue(forKey: $0)?.connection }
        }
        for id in ids { perform(core.handle(.closed(id, now: Self.now()))) }
    }

    static func channelData(userID: String) -> String {
        JSONValue.object(["user_id": .string(userID), "user_info": ["name": .string(userID)]]).jsonText
    }

    /// The endpoint's `channel_data`, spaced as pusher-http-python's `json.dumps` writes it (the
    /// exact bytes are signed; a client must forward them unchanged).
    static func endpointChannelData(userID: String) -> String {
        let id = JSONValue.string(userID).jsonText
        return #"{"user_id": \#(id), "user_info": {"name": \#(id)}}"#
    }

    // MARK: Auth endpoint

    /// The user the endpoint refuses with 403.
    public static let refusedUser = "refused"

    /// `POST /__pusher-auth/KEY/USER` with `socket_id=…&channel_name=…`.
    func authorize(_ request: HTTPRequest) -> HTTPResponse {
        let parts = request.rawPath.split(separator: "/").map(String.init)
        guard request.method == "POST", parts.count == 3, let app = core.app(key: parts[1]) else {
            return Self.json(404, ["error": .string("unknown auth path \(request.rawPath)")])
        }
        let user = PercentDecoding.decode(parts[2], plusAsSpace: false) ?? parts[2]
        if user == Self.refusedUser {
            state.withLock { $0.journals[app.key, default: PusherAppJournal()].refusedAuthorizations += 1 }
            return Self.json(403, ["error": "forbidden"])
        }
        var form: [String: String] = [:]
        for pair in String(decoding: request.body, as: UTF8.self).split(separator: "&") {
            let pieces = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard let name = PercentDecoding.decode(pieces[0], plusAsSpace: true) else { continue }
            form[name] = pieces.count > 1 ? (PercentDecoding.decode(pieces[1], plusAsSpace: true) ?? "") : ""
        }
        guard let socketID = form["socket_id"], let channel = form["channel_name"], !socketID.isEmpty, !channel.isEmpty else {
            return Self.json(400, ["error": "socket_id and channel_name are required (form-encoded)"])
        }
        state.withLock { $0.journals[app.key, default: PusherAppJournal()].authorizations.append(PusherJournalAuthorization(socketID: socketID, channel: channel)) }
        let channelData = channel.hasPrefix("presence-") ? Self.endpointChannelData(userID: user) : nil
        var body: [String: JSONValue] = ["auth": .string(PusherSignatures.channelAuth(app: app, socketID: socketID, channel: channel, channelData: channelData))]
        if let channelData { body["channel_data"] = .string(channelData) }
        return Self.json(200, body)
    }

    static func json(_ status: Int, _ body: [String: JSONValue]) -> HTTPResponse {
        HTTPResponse(status: status, headers: ["Content-Type": "application/json"], body: Array(JSONValue.object(JSONObject(body)).jsonText.utf8))
    }
}

/// A message the server sent a harness peer.
public struct PusherPeerMessage: Sendable, Hashable {
    public var text: String
    public var event: String? { (try? JSONValue.parse(text))?["event"]?.stringValue }
    public var channel: String? { (try? JSONValue.parse(text))?["channel"]?.stringValue }
    public var data: String? {
        switch (try? JSONValue.parse(text))?["data"] {
        case .string(let text)?: text
        case let other?: other.jsonText
        case nil: nil
        }
    }
}

/// What the server saw of one app during a case.
public struct PusherAppJournal: Sendable, Hashable {
    public var connections: [PusherJournalConnection] = []
    public var authorizations: [PusherJournalAuthorization] = []
    /// Auth requests the endpoint refused (403).
    public var refusedAuthorizations = 0

    /// One line per connection and auth request, for a result's wire log.
    public var lines: [String] {
        var lines: [String] = []
        for (index, connection) in connections.enumerated() {
            lines.append("connection \(index + 1) socket_id \(connection.socketID ?? "-")\(connection.closeCode.map { " closed \($0)" } ?? "")")
            lines += connection.texts.map { "  → \($0.prefix(200))" }
        }
        lines += authorizations.map { "auth \($0.channel) socket_id \($0.socketID)" }
        return lines
    }
}

public struct PusherJournalConnection: Sendable, Hashable {
    public var handleID: UInt64
    public var socketID: String?
    public var openedAt: ContinuousClock.Instant
    public var closedAt: ContinuousClock.Instant?
    public var closeCode: Int?
    /// Text messages the client sent, in order.
    public var texts: [String] = []

    init(handleID: UInt64, openedAt: ContinuousClock.Instant) {
        self.handleID = handleID
        self.openedAt = openedAt
    }
}

public struct PusherJournalAuthorization: Sendable, Hashable {
    public var socketID: String
    public var channel: String
}

/// A harness-side failure of the Pusher server.
public struct PusherSuiteError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// The extension handed to the `MockServer` before the suite server exists; forwards to it.
private final class ExtensionBox: ServerExtension {
    let owner = Mutex<WeakOwner>(WeakOwner())

    var httpPathPrefixes: [String] { ["/__pusher-auth/"] }

    func webSocketUpgrade(for request: HTTPRequest, context: RequestContext) -> WebSocketUpgradeDecision {
        guard let key = PusherPath.appKey(fromPath: request.rawPath), let suite = owner.withLock({ $0.value }) else { return .notMine }
        let query = (request.queryItems ?? []).map { PusherQueryItem($0.name, $0.value) }
        return .accept(PusherSuiteHandler(suite: suite, appKey: key, query: query))
    }

    func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        guard let suite = owner.withLock({ $0.value }) else {
            responder.send(.respond(HTTPResponse(status: 503)))
            return
        }
        responder.send(.respond(suite.authorize(request)))
    }
}

private struct WeakOwner: @unchecked Sendable {
    // @unchecked Sendable: the referenced server is Sendable; only the weak box is not.
    weak var value: PusherSuiteServer?
}

private struct PusherSuiteHandler: WebSocketHandler {
    let suite: PusherSuiteServer
    let appKey: String
    let query: [PusherQueryItem]

    var acceptsBinaryMessages: Bool { true }
    func webSocketDidOpen(_ connection: WebSocketHandle) { suite.opened(connection, appKey: appKey, query: query) }
    func webSocket(_ connection: WebSocketHandle, didReceiveText text: String) { suite.received(connection, text: text) }
    func webSocket(_ connection: WebSocketHandle, didReceiveBinary bytes: [UInt8]) { suite.receivedBinary(connection) }
    func webSocket(_ connection: WebSocketHandle, didReceivePing payload: [UInt8]) { suite.activity(connection, ping: true) }
    func webSocket(_ connection: WebSocketHandle, didReceivePong payload: [UInt8]) { suite.activity(connection, ping: false) }
    func webSocketDidClose(_ connection: WebSocketHandle, code: WebSocketCloseCode, reason: String, clean: Bool) {
        suite.closed(connection, code: code.rawValue)
    }
}
