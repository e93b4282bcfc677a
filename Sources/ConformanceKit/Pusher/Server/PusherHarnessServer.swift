// SPDX-License-Identifier: MIT
import MockPusher
import PusherServer

/// The Pusher server as the runner controls it: the `PusherService` that `serve --pusher-app` runs,
/// in process (``InProcessPusherServer``) or in another process over its `/__admin/pusher/` routes
/// (``AdminHTTPPusherServer``). Server-side triggers go through the signed HTTP API either way.
public protocol PusherHarnessServer: Sendable {
    /// The host clients connect to (`ws://HOST:PORT/app/KEY`).
    var host: String { get }
    /// The plain listener's port (WebSocket, HTTP API, admin routes and the auth endpoint).
    var port: Int { get }
    /// The TLS listener's port (`wss`), if the server has one.
    var tlsPort: Int? { get }
    /// The PEM of the test CA the TLS listener's leaf is signed by, if there is TLS.
    func caPEM() async throws -> String?
    /// Serves `app` (idempotent for the same app).
    func register(_ app: PusherApp) async throws
    func installPlan(_ plan: PusherFaultPlan, appKey: String) async throws
    func clearPlan(appKey: String) async throws
    /// What the key's clients did so far: connections, texts, auth requests.
    func journal(appKey: String) async throws -> PusherAppJournal
    /// Forgets the key's journal and auth record (a case starts clean on a long-lived server).
    func clearJournal(appKey: String) async throws
    /// `POST /apps/ID/events`, signed with the app's secret as an app server does.
    func trigger(app: PusherApp, channels: [String], event: String, data: String, excludeSocketID: String?) async throws
    /// Sends `text` as is on every open connection of the key; how many.
    func send(text: String, appKey: String) async throws -> Int
    /// Closes every open connection of the key (1006: no close frame); how many.
    func closeConnections(appKey: String, code: Int, reason: String) async throws -> Int
    /// A harness peer subscribes (connecting on first use).
    func peerSubscribe(_ peer: PusherPeer, appKey: String, channel: String) async throws
    func peerClientEvent(_ peer: PusherPeer, appKey: String, channel: String, event: String, data: String) async throws
    func peerLeave(_ peer: PusherPeer, appKey: String) async throws
    /// What the server sent the peer so far.
    func peerMessages(_ peer: PusherPeer, appKey: String) async throws -> [PusherPeerMessage]
    /// The webhook events the key's app emitted (`{"name":…,"channel":…}` as in a webhook body), oldest first.
    func webhookEvents(appKey: String) async throws -> [JSONValue]
    /// Ends every peer of the key (case cleanup).
    func removePeers(appKey: String) async throws
    /// A harness peer signs in as `peer.userID` with this watchlist (connecting on first use).
    func peerSignin(_ peer: PusherPeer, appKey: String, watchlist: [String]) async throws
    /// `POST /apps/ID/users/USER/terminate_connections`, signed as an app server does.
    func terminateUser(app: PusherApp, userID: String) async throws
}

extension PusherHarnessServer {
    /// The harness's auth endpoint for the key, signing as `user` (`refused` gets 403).
    public func authEndpoint(appKey: String, user: String) -> String {
        "http://\(host.contains(":") ? "[\(host)]" : host):\(port)/__admin/pusher/auth/\(PusherAPISigner.encode(appKey))/\(PusherAPISigner.encode(user))"
    }
}

extension PusherHarnessServer {
    /// The harness's user authentication endpoint for the key, as `user` (`refused` gets 403),
    /// with the case's watchlist and a bad signature when asked.
    public func userAuthEndpoint(appKey: String, user: String, watchlist: [String]?, badSignature: Bool) -> String {
        var query: [String] = []
        if let watchlist { query.append("watchlist=" + watchlist.map(PusherAPISigner.encode).joined(separator: ",")) }
        if badSignature { query.append("signature=bad") }
        let base = "http://\(host.contains(":") ? "[\(host)]" : host):\(port)/__admin/pusher/user-auth/\(PusherAPISigner.encode(appKey))/\(PusherAPISigner.encode(user))"
        return query.isEmpty ? base : base + "?" + query.joined(separator: "&")
    }
}

/// A message the server sent a harness peer.
public struct PusherPeerMessage: Sendable, Hashable {
    public var text: String
    public init(text: String) { self.text = text }
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

/// A harness-side failure of the Pusher server.
public struct PusherSuiteError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
