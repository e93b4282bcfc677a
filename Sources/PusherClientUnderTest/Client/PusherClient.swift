// SPDX-License-Identifier: MIT
import Foundation
import HarnessHTTPClient
import HarnessJSON
import Synchronization

/// A Pusher Channels client modelled on libPusher (`PTPusher`): one WebSocket carrying many
/// channels, automatic reconnection, private and presence channels authorized at an auth endpoint.
///
/// The behaviour lives in ``PusherConnectionMachine``; this class runs it on its own thread over a
/// WebSocket (``HarnessWebSocket`` codec on ``HarnessHTTPClient`` streams). Events arrive through
/// ``events()``, each channel's ``PusherChannel/events()``, and the delegate.
public final class PusherClient: Sendable {
    public let key: String
    public let options: PusherClientOptions
    private let runtime: PusherRuntime
    private let hub: PusherEventHub
    private let delegateBox: Mutex<WeakDelegate>
    /// Channel names the app subscribed to (the machine's copy may lag by one input).
    private let subscribed = Mutex<Set<String>>([])

    private struct WeakDelegate: @unchecked Sendable {
        // @unchecked Sendable: the referenced delegate is itself Sendable; only the weak box is not.
        weak var value: (any PusherClientDelegate)?
    }

    /// Validates the options and starts the client's thread; connects at once when
    /// `connectAutomatically` is set (libPusher `pusherWithKey:delegate:`).
    public init(key: String, options: PusherClientOptions, delegate: (any PusherClientDelegate)? = nil) throws(PusherConfigurationError) {
        try options.validate()
        self.key = key
        self.options = options
        let hub = PusherEventHub()
        self.hub = hub
        delegateBox = Mutex(WeakDelegate(value: delegate))
        let authorize = try Self.makeAuthorize(options)
        let webSocket = PusherWebSocketOpener(host: options.host, port: options.effectivePort,
                                              trust: options.useTLS ? options.trustedCA.httpTrust : nil,
                                              target: options.connectionTarget(key: key), timeout: options.connectTimeout)
        let opener: any PusherSocketOpener = options.httpFallback
            ? PusherFallbackOpener(webSocket: webSocket, key: key, query: options.connectionQuery)
            : webSocket
        let delivery = PusherDelivery()
        var environment = PusherEnvironment(opener: opener, authorize: authorize) { event in delivery.deliver(event) }
        if let authenticate = try Self.makeAuthenticateUser(options) { environment.authenticateUser = authenticate }
        runtime = PusherRuntime(machine: PusherConnectionMachine(settings: options.connection), environment: environment)
        delivery.attach(self)
        if options.connectAutomatically { connect() }
    }

    deinit {
        runtime.stop()
        hub.finish()
    }

    /// The delegate, held weakly as libPusher does.
    public var delegate: (any PusherClientDelegate)? {
        get { delegateBox.withLock { $0.value } }
        set { delegateBox.withLock { $0.value = newValue } }
    }

    // MARK: Connection

    public func connect() { runtime.post(.connect) }
    /// Signs in at ``PusherClientOptions/userAuthenticationURL`` now or once connected, and again
    /// after every reconnect (pusher-js `signin()`).
    public func signin() { runtime.post(.signin) }
    /// Closes the connection (close code 1000) and stops reconnecting; subscriptions are kept for the next `connect()`.
    public func disconnect() { runtime.post(.disconnect) }

    /// Changes the reconnection and ping settings of the running client (e.g. a longer
    /// `reconnectDelay` after failures, or `reconnectAutomatically = false` while offline, as
    /// libPusher's README suggests).
    public func updateConnectionSettings(_ change: (inout PusherConnectionSettings) -> Void) {
        var settings = connectionSettings
        change(&settings)
        runtime.post(.updateSettings(settings))
    }

    /// The connection settings in force (as of the last processed input).
    public var connectionSettings: PusherConnectionSettings { runtime.snapshot.settings }

    public var connectionState: PusherConnectionState { runtime.snapshot.state }
    public var socketID: String? { runtime.snapshot.socketID }

    // MARK: Channels

    /// Subscribes (now, or once connected) and returns the channel. Private and presence names are
    /// authorized first.
    @discardableResult
    public func subscribe(to channelName: String) -> PusherChannel {
        subscribed.withLock { _ = $0.insert(channelName) }
        runtime.post(.subscribe(channel: channelName))
        return PusherChannel(name: channelName, client: self)
    }

    /// `subscribeToPrivateChannelNamed:` — adds `private-` when missing.
    @discardableResult
    public func subscribeToPrivateChannelNamed(_ name: String) -> PusherChannel { subscribe(to: PusherChannelType.privateName(name)) }

    /// `subscribeToPresenceChannelNamed:` — adds `presence-` when missing.
    @discardableResult
    public func subscribeToPresenceChannelNamed(_ name: String) -> PusherChannel { subscribe(to: PusherChannelType.presenceName(name)) }

    public func unsubscribe(from channelName: String) {
        subscribed.withLock { _ = $0.remove(channelName) }
        runtime.post(.unsubscribe(channel: channelName))
    }

    public func subscriptionStatus(of channelName: String) -> PusherSubscriptionStatus? { runtime.snapshot.status(of: channelName) }
    public func members(of channelName: String) -> [PusherMember] { runtime.snapshot.members(of: channelName) }
    /// pusher-js's `channel.subscriptionCount`: the last count the server sent (nil before one).
    public func subscriptionCount(of channelName: String) -> Int? { runtime.snapshot.subscriptionCount(of: channelName) }

    /// Triggers a client event (`client-` added when missing); it is sent once the channel's
    /// subscription has succeeded. Refused at once on public and unsubscribed channels.
    public func trigger(event: String, data: JSONValue, on channelName: String) throws(PusherTriggerError) {
        guard PusherChannelType(channelName: channelName).acceptsClientEvents else { throw .publicChannel(channelName) }
        guard !PusherChannelType.isEncrypted(channelName) else { throw .encryptedChannel(channelName) }
        guard subscribed.withLock({ $0.contains(channelName) }) else { throw .unknownChannel(channelName) }
        runtime.post(.trigger(event: PusherChannelType.clientEventName(event), data: data, channel: channelName))
    }

    // MARK: Events

    /// Every event from now on, in order. Ends when the iterating task is cancelled or the client goes away.
    public func events() -> AsyncStream<PusherClientEvent> { hub.clientStream() }

    func channelEvents(_ channelName: String) -> AsyncStream<PusherEventMessage> { hub.channelStream(channelName) }

    fileprivate func dispatch(_ event: PusherClientEvent) {
        hub.publish(event)
        guard let delegate else { return }
        switch event {
        case .connected(let socketID): delegate.pusherDidConnect(self, socketID: socketID)
        case .disconnected(let error, let will): delegate.pusher(self, didDisconnectWithError: error, willAttemptReconnect: will)
        case .failed(let error): delegate.pusher(self, failedWithError: error)
        case .willAutomaticallyReconnect(let delay): delegate.pusher(self, willAutomaticallyReconnectAfterDelay: delay)
        case .subscribed(let channel): delegate.pusher(self, didSubscribeTo: channel)
        case .subscriptionFailed(let channel, let error): delegate.pusher(self, didFailToSubscribeTo: channel, error: error)
        case .errorEvent(let code, let message): delegate.pusher(self, didReceiveErrorEvent: code, message: message)
        case .event(let message): delegate.pusher(self, didReceive: message)
        case .memberAdded, .memberRemoved, .malformedMessage, .cacheMiss, .subscriptionCount, .signedIn, .signinFailed, .userEvent, .watchlist, .decryptionFailed: break
        }
    }

    // MARK: Authorization

    private static func makeAuthenticateUser(_ options: PusherClientOptions) throws(PusherConfigurationError)
        -> (@Sendable (String, @escaping @Sendable (Result<PusherUserAuthentication, PusherAuthorizationError>) -> Void) -> Void)?
    {
        guard let text = options.userAuthenticationURL else { return nil }
        guard let endpoint = PusherEndpointURL(text) else {
            throw PusherConfigurationError(field: "userAuthenticationURL", reason: "not an http(s) URL: \(text)")
        }
        let http: PusherHTTPAuthorizer
        do {
            http = try PusherHTTPAuthorizer(endpoint: endpoint, trust: options.trustedCA, headers: { _ in [] },
                                            timeout: options.authorizationTimeout, userAgent: "\(options.clientName)/\(options.clientVersion)")
        } catch {
            throw PusherConfigurationError(field: "userAuthenticationURL", reason: error.description)
        }
        return { socketID, finish in
            // Blocking HTTP on its own thread, never on the concurrency pool.
            let thread = Thread { finish(http.authenticateUserBlocking(socketID: socketID)) }
            thread.name = "pusher-user-auth"
            thread.start()
        }
    }

    private static func makeAuthorize(_ options: PusherClientOptions) throws(PusherConfigurationError)
        -> @Sendable (PusherAuthorizationRequest, @escaping @Sendable (Result<PusherChannelAuthorization, PusherAuthorizationError>) -> Void) -> Void
    {
        if let authorizer = options.authorizer {
            return { request, finish in Task { finish(await authorizer(request)) } }
        }
        guard let text = options.authorizationURL, let endpoint = PusherEndpointURL(text) else {
            return { _, finish in finish(.failure(.noAuthorizer)) }
        }
        let http: PusherHTTPAuthorizer
        do {
            http = try PusherHTTPAuthorizer(endpoint: endpoint, trust: options.trustedCA, headers: options.authorizationHeaders,
                                            timeout: options.authorizationTimeout, userAgent: "\(options.clientName)/\(options.clientVersion)")
        } catch {
            throw PusherConfigurationError(field: "authorizationURL", reason: error.description)
        }
        return { request, finish in
            // Blocking HTTP on its own thread, never on the concurrency pool.
            let thread = Thread { finish(http.authorizeBlocking(request)) }
            thread.name = "pusher-auth"
            thread.start()
        }
    }
}

/// Delivers the runtime's events to the client, which it holds weakly (the runtime outlives no client).
private final class PusherDelivery: Sendable {
    private let client = Mutex<WeakClient>(WeakClient())

    private struct WeakClient: @unchecked Sendable {
        // @unchecked Sendable: PusherClient is Sendable; only the weak box is not.
        weak var value: PusherClient?
    }

    func attach(_ client: PusherClient) { self.client.withLock { $0.value = client } }
    func deliver(_ event: PusherClientEvent) { client.withLock { $0.value }?.dispatch(event) }
}
