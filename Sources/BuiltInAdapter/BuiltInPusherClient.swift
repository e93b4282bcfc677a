// SPDX-License-Identifier: MIT
import ConformanceKit
import HarnessJSON
import PusherClientUnderTest
import Synchronization

/// The built-in Pusher client (`PusherClientUnderTest.PusherClient`, modelled on libPusher) as a
/// ``PusherConformanceClient``: authorization through the harness's endpoint (a form POST, as
/// libPusher does), `reconnectDelay`, activity and pong timeouts from the case, `wss` trusting the
/// harness's CA when the case asks for TLS, events mapped to ``PusherObservation``s.
public struct BuiltInPusherClient: PusherConformanceClient {
    public let name = "built-in-pusher"
    /// Every capability: the built-in client is the reference for every Pusher case.
    public let capabilities: Set<PusherCapability> = Set(PusherCapability.allCases)

    public init() {}

    public func makeSession(configuration: PusherSessionConfiguration) async throws -> any PusherClientSession {
        var options = PusherClientOptions(host: configuration.host, port: configuration.port, useTLS: configuration.useTLS)
        if let pem = configuration.caPEM { options.trustedCA = .pem(pem) }
        if let activity = configuration.settings.activityTimeoutSeconds { options.connection.activityTimeout = activity }
        if let pong = configuration.settings.pongTimeoutSeconds { options.connection.pongTimeout = pong }
        options.connectAutomatically = false
        options.protocolVersion = configuration.settings.protocolVersion
        options.authorizationURL = configuration.authEndpoint
        if !configuration.userAuthEndpoint.isEmpty { options.userAuthenticationURL = configuration.userAuthEndpoint }
        options.reconnectDelay = configuration.settings.reconnectDelaySeconds
        options.connectTimeout = 5
        options.authorizationTimeout = 5
        let client: PusherClient
        do {
            client = try PusherClient(key: configuration.appKey, options: options)
        } catch {
            throw ClientAdapterError.startFailed("\(error)")
        }
        return BuiltInPusherSession(client: client)
    }
}

/// One `PusherClient` for one case.
final class BuiltInPusherSession: PusherClientSession {
    private let client = Mutex<PusherClient?>(nil)
    let events: AsyncStream<PusherObservation>
    private let pump: Task<Void, Never>

    init(client: PusherClient) {
        let (stream, sink) = AsyncStream.makeStream(of: PusherObservation.self, bufferingPolicy: .unbounded)
        events = stream
        let source = client.events()
        pump = Task { [weak client] in
            for await event in source {
                for observation in Self.observations(event, members: { client?.members(of: $0).map(\.userID) ?? [] }) {
                    sink.yield(observation)
                }
            }
            sink.finish()
        }
        self.client.withLock { $0 = client }
    }

    /// What one client event means to the runner (pure but for the member list it reads).
    static func observations(_ event: PusherClientEvent, members: (String) -> [String]) -> [PusherObservation] {
        switch event {
        case .connected(let socketID):
            return [.connected(socketID: socketID)]
        case .disconnected(let error, _):
            if case .closed(let code, _, _)? = error { return [.disconnected(code: code)] }
            return [.disconnected(code: nil)]
        case .failed(let error):
            if case .closed(let code, _, _) = error { return [.disconnected(code: code)] }
            return [.disconnected(code: nil)]
        case .subscribed(let channel):
            let subscribed = PusherObservation.subscribed(channel: channel)
            return channel.hasPrefix("presence-") ? [subscribed, .members(channel: channel, userIDs: members(channel))] : [subscribed]
        case .subscriptionFailed(let channel, let error):
            return [.subscriptionError(channel: channel, message: error.description)]
        case .errorEvent(let code, let message):
            return [.errorEvent(code: code, message: message)]
        case .memberAdded(let channel, let member):
            return [.memberAdded(channel: channel, userID: member.userID), .members(channel: channel, userIDs: members(channel))]
        case .memberRemoved(let channel, let member):
            return [.memberRemoved(channel: channel, userID: member.userID), .members(channel: channel, userIDs: members(channel))]
        case .event(let message):
            // Events on the user's channel are reported as user events (below).
            guard let channel = message.channel, !channel.hasPrefix("#server-to-user-"), !message.name.hasPrefix("pusher:"), !message.name.hasPrefix("pusher_internal:") else { return [] }
            return [.event(channel: channel, name: message.name, data: message.data, userID: message.userID)]
        case .cacheMiss(let channel):
            return [.event(channel: channel, name: "pusher:cache_miss", data: nil, userID: nil)]
        case .subscriptionCount(let channel, let count):
            return [.event(channel: channel, name: "pusher:subscription_count", data: ["subscription_count": .int(count)], userID: nil)]
        case .willAutomaticallyReconnect, .malformedMessage, .decryptionFailed:
            return []
        case .signedIn(let userID):
            return [.signedIn(userID: userID)]
        case .signinFailed(let error):
            // A refused user authentication, as pusher-js's `pusher:signin_error` (no code).
            return [.errorEvent(code: nil, message: "signin failed: \(error)")]
        case .userEvent(let message):
            return [.userEvent(name: message.name, data: message.data)]
        case .watchlist(let name, let userIDs):
            return [.watchlist(name: name, userIDs: userIDs)]
        }
    }

    func perform(_ operation: PusherOperation) async throws {
        guard let client = client.withLock({ $0 }) else { throw ClientAdapterError.protocolViolation("session closed") }
        switch operation {
        case .connect: client.connect()
        case .signin: client.signin()
        case .disconnect: client.disconnect()
        case .subscribe(let channel): client.subscribe(to: channel)
        case .unsubscribe(let channel): client.unsubscribe(from: channel)
        case .trigger(let channel, let event, let data):
            do {
                try client.trigger(event: event, data: data, on: channel)
            } catch {
                throw ClientAdapterError.protocolViolation("trigger refused: \(error)")
            }
        }
    }

    func close() async {
        guard let client = client.withLock({ state in defer { state = nil }; return state }) else { return }
        client.disconnect()
        pump.cancel()
    }
}
