// SPDX-License-Identifier: MIT
import HarnessJSON
import HarnessServerCore
import MockPusher

/// Why a harness request on the Pusher service could not be done.
public enum PusherHarnessError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No app is served with this key.
    case unknownAppKey(String)
    /// The app has no peer of this name.
    case unknownPeer(name: String, appKey: String)

    public var description: String {
        switch self {
        case .unknownAppKey(let key): "no Pusher app with key \"\(key)\""
        case let .unknownPeer(name, key): "no peer \"\(name)\" on app key \"\(key)\""
        }
    }
}

/// What a conformance harness needs of the service besides real clients: apps added per case,
/// socketless peers, server-side closes and raw messages, all through the same core, timer and
/// fan-out as every client (the `/__admin/pusher/` routes call these).
extension PusherService {
    /// Serves `app` from now on; false when this exact app is already served.
    @discardableResult
    public func register(_ app: PusherApp) throws(PusherAppRegistrationError) -> Bool { try core.register(app) }

    /// Connects the peer `name` of the app (on first use) and subscribes it to `channel`; private
    /// and presence channels are signed with the app's secret, presence ones as member `userID`
    /// (`{"user_id":ID,"user_info":{"name":ID}}`). The peer's socket id.
    @discardableResult
    public func peerSubscribe(_ name: String, userID: String, appKey: String, channel: String) throws(PusherHarnessError) -> String {
        guard let app = core.app(key: appKey) else { throw .unknownAppKey(appKey) }
        let (id, isNew) = peers.connection(appKey: appKey, name: name)
        if isNew {
            perform(core.handle(.connected(id, appKey: appKey, query: [PusherQueryItem("protocol", "7")], now: now)))
            peers.setSocketID(core.socketID(of: id), appKey: appKey, name: name)
        }
        guard let socketID = peers.peer(appKey: appKey, name: name)?.socketID else { throw .unknownPeer(name: name, appKey: appKey) }
        let channelData = channel.hasPrefix("presence-") ? Self.peerChannelData(userID: userID) : nil
        var data: [(String, JSONValue)] = [("channel", .string(channel))]
        if channel.hasPrefix("private-") || channel.hasPrefix("presence-") {
            data.append(("auth", .string(PusherSignatures.channelAuth(app: app, socketID: socketID, channel: channel, channelData: channelData))))
        }
        if let channelData { data.append(("channel_data", .string(channelData))) }
        let message = JSONValue.object([("event", "pusher:subscribe"), ("data", .object(JSONObject(data)))])
        perform(core.handle(.text(id, message.jsonText, now: now)))
        return socketID
    }

    /// Connects the peer `name` of the app (on first use) and signs it in as `userID` with this
    /// watchlist (user_data `{"id","user_info":{"name"}[,"watchlist"]}`, signed with the app's secret).
    public func peerSignin(_ name: String, userID: String, appKey: String, watchlist: [String]) throws(PusherHarnessError) {
        guard let app = core.app(key: appKey) else { throw .unknownAppKey(appKey) }
        let (id, isNew) = peers.connection(appKey: appKey, name: name)
        if isNew {
            perform(core.handle(.connected(id, appKey: appKey, query: [PusherQueryItem("protocol", "7")], now: now)))
            peers.setSocketID(core.socketID(of: id), appKey: appKey, name: name)
        }
        guard let socketID = peers.peer(appKey: appKey, name: name)?.socketID else { throw .unknownPeer(name: name, appKey: appKey) }
        let userData = PusherAdminExtension.userData(userID: userID, watchlist: watchlist.isEmpty ? nil : watchlist)
        let data: JSONValue = .object([("auth", .string(PusherSignatures.userAuth(app: app, socketID: socketID, userData: userData))),
                                       ("user_data", .string(userData))])
        perform(core.handle(.text(id, JSONValue.object([("event", "pusher:signin"), ("data", data)]).jsonText, now: now)))
    }

    /// The peer sends a client event on `channel`, as its socket would.
    public func peerClientEvent(_ name: String, appKey: String, channel: String, event: String, data: String) throws(PusherHarnessError) {
        guard let peer = peers.peer(appKey: appKey, name: name) else { throw .unknownPeer(name: name, appKey: appKey) }
        let message = JSONValue.object([("event", .string(event)), ("data", .string(data)), ("channel", .string(channel))])
        perform(core.handle(.text(peer.connection, message.jsonText, now: now)))
    }

    /// What the server sent the peer so far (texts, oldest first).
    public func peerMessages(_ name: String, appKey: String) throws(PusherHarnessError) -> [String] {
        guard let peer = peers.peer(appKey: appKey, name: name) else { throw .unknownPeer(name: name, appKey: appKey) }
        return peer.received
    }

    /// The peer's connection ends (members leave as for any close); false when there was none.
    @discardableResult
    public func peerLeave(_ name: String, appKey: String) -> Bool {
        guard let id = peers.remove(appKey: appKey, name: name) else { return false }
        perform(core.handle(.closed(id, now: now)))
        return true
    }

    /// Ends every peer of the app; how many.
    @discardableResult
    public func removePeers(appKey: String) -> Int {
        let ids = peers.removeAll(appKey: appKey)
        for id in ids { perform(core.handle(.closed(id, now: now))) }
        return ids.count
    }

    /// Closes every open connection of the app key with `code` (1006: the TCP connection ends
    /// without a close frame). The core forgets each connection first (members leave as for any
    /// close), then the frame goes out. How many.
    @discardableResult
    public func closeConnections(appKey: String, code: UInt16, reason: String) -> Int {
        let handles = connections.handles(appKey: appKey)
        for handle in handles {
            perform(core.handle(.closed(PusherConnectionID(handle.id), now: now)))
            connections.noteClosing(PusherConnectionID(handle.id), at: now)
            if code == 1006 { handle.abort() } else { handle.close(code: WebSocketCloseCode(code), reason: reason) }
        }
        return handles.count + closeHTTPSessions(appKey: appKey, code: code, reason: reason)
    }

    /// Sends `text` as is on every open connection of the app key, bypassing the core. How many.
    @discardableResult
    public func send(text: String, appKey: String) -> Int {
        let handles = connections.handles(appKey: appKey)
        for handle in handles { handle.send(text: text) }
        let sessions = httpSessions.openConnections(appKey: appKey)
        for id in sessions { _ = httpSessions.deliver(.send(id, text), now: now) }
        return handles.count + sessions.count
    }

    /// The auth endpoint's record for the app key.
    public func authorizationPage(appKey: String) -> PusherAuthorizationJournal.Page { authorizations.page(for: appKey) }

    /// Forgets the app key's journal and auth record (sequence numbers continue).
    public func clearRecords(appKey: String) {
        journal.clear(appKey)
        authorizations.clear(appKey)
        if let app = core.app(key: appKey) { webhookRecord.clear(appID: app.id) }
    }

    /// The webhook events the core emitted for the key's app (the last 1,000), oldest first.
    public func webhookEvents(appKey: String) throws(PusherHarnessError) -> [PusherWebhookEvent] {
        guard let app = core.app(key: appKey) else { throw .unknownAppKey(appKey) }
        return webhookRecord.events(appID: app.id)
    }

    static func peerChannelData(userID: String) -> String {
        JSONValue.object([("user_id", .string(userID)), ("user_info", .object([("name", .string(userID))]))]).jsonText
    }
}
