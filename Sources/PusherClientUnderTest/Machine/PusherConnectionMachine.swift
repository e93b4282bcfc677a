// SPDX-License-Identifier: MIT
import HarnessJSON

/// The Pusher client's behaviour as a pure state machine: an input in, actions out. No clock, no
/// socket, no thread: a driver executes the actions and feeds back what happens.
///
/// It follows libPusher 1.6.4 (spec §5 and §8): subscriptions made before the connection are sent
/// once it is established; after every (re)connect every private and presence channel is authorized
/// again with the new socket id; close codes choose the reconnect mode (``PusherClosePolicy``);
/// at most `maximumReconnectAttempts` automatic attempts, reset by each established connection;
/// a failed first connect is reported and not retried; a socket failure while open reconnects at once.
public struct PusherConnectionMachine: Sendable {
    public private(set) var state: PusherConnectionState = .disconnected
    public var settings: PusherConnectionSettings
    /// Automatic reconnect attempts since the last established connection.
    public private(set) var reconnectAttempts = 0
    /// The activity timeout in use on the current connection.
    public private(set) var activityTimeout: Double
    /// The app's channels in subscription order (`+Channels.swift`).
    var channels: [PusherChannelRecord] = []
    /// True from `connect` until a socket opens: an open failure then is the initial connect's and is
    /// not retried (libPusher's `wasConnected` is false).
    private var firstConnectPending = false
    /// The signed-in user's state (`+Signin.swift`).
    var user = PusherUserState()

    public init(settings: PusherConnectionSettings = PusherConnectionSettings()) {
        self.settings = settings
        activityTimeout = settings.activityTimeout ?? PusherConnectionSettings.defaultActivityTimeout
    }

    // MARK: Queries

    /// The channels the app subscribed to, in subscription order.
    public var channelNames: [String] { channels.map(\.name) }
    public func status(of channel: String) -> PusherSubscriptionStatus? { record(channel)?.status }
    /// The presence members of `channel` (empty until subscribed).
    public func members(of channel: String) -> [PusherMember] { record(channel)?.members ?? [] }
    /// The channel's last subscription count from the server (nil before one arrives).
    public func subscriptionCount(of channel: String) -> Int? { record(channel)?.subscriptionCount }
    /// This connection's presence user id on `channel`.
    public func myUserID(on channel: String) -> String? { record(channel)?.myUserID }
    public var socketID: String? { if case .connected(let id) = state { id } else { nil } }

    func record(_ name: String) -> PusherChannelRecord? { channels.first { $0.name == name } }
    func index(_ name: String) -> Int? { channels.firstIndex { $0.name == name } }

    // MARK: Transitions

    public mutating func handle(_ input: PusherClientInput) -> [PusherClientAction] {
        switch input {
        case .connect: return connect()
        case .disconnect: return disconnect()
        case .updateSettings(let settings):
            self.settings = settings
            return []
        case .subscribe(let channel): return subscribe(channel)
        case .unsubscribe(let channel): return unsubscribe(channel)
        case .trigger(let event, let data, let channel): return trigger(event, data, on: channel)
        case .socketOpened: return socketOpened()
        case .socketOpenFailed(let error): return openFailed(error)
        case .socketText(let text): return received(text)
        case .socketControlFrame: return isOpen ? activitySeen() : []
        case .socketClosed(let code, let reason): return lost(closeCode: code, reason: reason, failure: nil)
        case .socketFailed(let error): return lost(closeCode: nil, reason: "", failure: error)
        case .timerFired(let timer): return timerFired(timer)
        case .authorizationFinished(let request, let result): return authorized(request, result)
        case .signin: return signin()
        case .userAuthenticationFinished(let socketID, let result): return userAuthenticated(socketID: socketID, result)
        }
    }

    private var isOpen: Bool {
        switch state {
        case .awaitingHandshake, .connected: true
        default: false
        }
    }

    private mutating func connect() -> [PusherClientAction] {
        switch state {
        case .disconnected:
            state = .connecting
            reconnectAttempts = 0
            firstConnectPending = true
            return [.openSocket]
        case .waitingToReconnect:
            state = .connecting
            return [.cancel(.reconnect), .openSocket]
        default:
            return []
        }
    }

    private mutating func disconnect() -> [PusherClientAction] {
        switch state {
        case .connecting, .awaitingHandshake, .connected:
            state = .disconnecting
            markChannelsLost()
            return [.cancel(.activity), .cancel(.pong), .closeSocket(code: 1000)]
        case .waitingToReconnect:
            state = .disconnected
            return [.cancel(.reconnect)]
        case .disconnected, .disconnecting:
            return []
        }
    }

    private mutating func socketOpened() -> [PusherClientAction] {
        guard state == .connecting else { return [] }
        state = .awaitingHandshake
        firstConnectPending = false
        activityTimeout = settings.activityTimeout ?? PusherConnectionSettings.defaultActivityTimeout
        return [.schedule(.activity, after: activityTimeout)]
    }

    private mutating func openFailed(_ error: PusherTransportError) -> [PusherClientAction] {
        switch state {
        case .disconnecting:
            state = .disconnected
            return [.emit(.disconnected(error: nil, willAttemptReconnect: false))]
        case .connecting:
            var actions: [PusherClientAction] = [.emit(.failed(.transport(error)))]
            if firstConnectPending {
                state = .disconnected
                return actions
            }
            // Design choice (the spec does not say): an open failing during a reconnect cycle backs
            // off while attempts remain, as libPusher does for lost connections.
            actions += scheduleReconnect(.backoff)
            return actions
        default:
            return []
        }
    }

    /// Any message or control frame: the connection is alive.
    private mutating func activitySeen() -> [PusherClientAction] {
        [.cancel(.pong), .schedule(.activity, after: activityTimeout)]
    }

    private mutating func received(_ text: String) -> [PusherClientAction] {
        guard isOpen else { return [] }
        var actions = activitySeen()
        guard let message = PusherWire.parse(text) else {
            actions.append(.emit(.malformedMessage(text)))
            return actions
        }
        switch message.name {
        case "pusher:connection_established":
            actions += established(message)
        case "pusher:ping":
            actions.append(.send(PusherWire.pong))
        case "pusher:error":
            let data = message.data
            actions.append(.emit(.errorEvent(code: data?["code"]?.intValue, message: data?["message"]?.stringValue ?? message.rawData ?? "")))
        case "pusher_internal:subscription_succeeded":
            actions += subscriptionSucceeded(message)
        case "pusher_internal:member_added":
            if let name = message.channel, let position = index(name), let member = channels[position].addMember(fromData: message.data) {
                actions.append(.emit(.memberAdded(channel: name, member: member)))
            }
        case "pusher_internal:member_removed":
            if let name = message.channel, let position = index(name), let member = channels[position].removeMember(fromData: message.data) {
                actions.append(.emit(.memberRemoved(channel: name, member: member)))
            }
        case "pusher:cache_miss":
            if let name = message.channel, index(name) != nil { actions.append(.emit(.cacheMiss(channel: name))) }
        case "pusher:signin_success":
            actions += signinSucceeded(message)
        case "pusher_internal:watchlist_events":
            actions += watchlistEvents(message)
        case "pusher_internal:subscription_count":
            if let name = message.channel, let position = index(name), let count = message.data?["subscription_count"]?.intValue {
                channels[position].subscriptionCount = Int(count)
                actions.append(.emit(.subscriptionCount(channel: name, count: Int(count))))
            }
        default:
            break
        }
        actions += userChannelEvent(message)
        // Not after a `connection_established` that ended the connection.
        if isOpen { actions += isEncryptedChannelEvent(message) ? encryptedEvent(message) : [.emit(.event(message))] }
        return actions
    }

    private mutating func established(_ message: PusherEventMessage) -> [PusherClientAction] {
        guard state == .awaitingHandshake else { return [] }
        guard let data = message.data?.objectValue, let socketID = data["socket_id"]?.stringValue, !socketID.isEmpty else {
            return lost(closeCode: nil, reason: "", failure: nil, handshakeProblem: "no socket_id in \(message.rawData ?? "data")")
        }
        state = .connected(socketID: socketID)
        reconnectAttempts = 0
        firstConnectPending = false
        if let server = data["activity_timeout"]?.doubleValue, server > 0 {
            activityTimeout = min(server, settings.activityTimeout ?? server)
        }
        var actions: [PusherClientAction] = [.schedule(.activity, after: activityTimeout), .emit(.connected(socketID: socketID))]
        for position in channels.indices {
            actions += startSubscription(position, socketID: socketID)
        }
        return actions + signinOnConnect(socketID: socketID)
    }

    private mutating func timerFired(_ timer: PusherClientTimer) -> [PusherClientAction] {
        switch (timer, state) {
        case (.reconnect, .waitingToReconnect):
            state = .connecting
            return [.openSocket]
        case (.activity, .awaitingHandshake), (.activity, .connected):
            return [.send(PusherWire.ping), .schedule(.pong, after: settings.pongTimeout)]
        case (.pong, .awaitingHandshake), (.pong, .connected):
            // Design choice: libPusher leaves dead connections to SocketRocket; like pusher-js, a
            // ping without any traffic in answer ends the connection, read as a socket failure.
            return [.abortSocket]
                + lost(closeCode: nil, reason: "", failure: PusherTransportError(.pongTimeout, "no answer to pusher:ping within \(settings.pongTimeout) s"))
        default:
            return []
        }
    }

    // MARK: Losing the connection

    /// The open socket ended: a close frame (`closeCode`), a failure, or a bad handshake message.
    private mutating func lost(closeCode: Int?, reason: String, failure: PusherTransportError?,
                               handshakeProblem: String? = nil) -> [PusherClientAction]
    {
        switch state {
        case .disconnecting:
            state = .disconnected
            return [.emit(.disconnected(error: nil, willAttemptReconnect: false))]
        case .connecting:
            // Closed before the upgrade finished: an open failure.
            return openFailed(failure ?? PusherTransportError(.handshake, "closed with \(closeCode.map(String.init) ?? "no code") before the upgrade"))
        case .awaitingHandshake, .connected:
            break
        case .disconnected, .waitingToReconnect:
            return []
        }
        let error: PusherConnectionError
        let mode: PusherReconnectMode
        var actions: [PusherClientAction] = [.cancel(.activity), .cancel(.pong)]
        if let handshakeProblem {
            error = .malformedHandshake(handshakeProblem)
            mode = .backoff
            actions.append(.abortSocket)
        } else if let failure {
            error = .transport(failure)
            mode = .immediately
        } else if let closeCode {
            error = .closed(code: closeCode, reason: reason, isFatalDomain: settings.closePolicy.isFatalDomain(closeCode))
            mode = settings.closePolicy.mode(forCloseCode: closeCode)
        } else {
            // A close frame without a code reads as 1005 (no status received).
            error = .closed(code: 1005, reason: reason, isFatalDomain: settings.closePolicy.isFatalDomain(1005))
            mode = settings.closePolicy.mode(forCloseCode: 1005)
        }
        markChannelsLost()
        let willReconnect = settings.reconnectAutomatically && mode != .none && reconnectAttempts < settings.maximumReconnectAttempts
        actions.append(.emit(.disconnected(error: error, willAttemptReconnect: willReconnect)))
        if willReconnect {
            actions += scheduleReconnect(mode)
        } else {
            state = .disconnected
        }
        return actions
    }

    /// Counts an attempt and reconnects at once or after the mode's delay; gives up past the cap.
    private mutating func scheduleReconnect(_ mode: PusherReconnectMode) -> [PusherClientAction] {
        guard settings.reconnectAutomatically, mode != .none, reconnectAttempts < settings.maximumReconnectAttempts else {
            state = .disconnected
            return []
        }
        reconnectAttempts += 1
        let delay = settings.delay(for: mode, attempt: reconnectAttempts)
        if delay <= 0 {
            state = .connecting
            return [.emit(.willAutomaticallyReconnect(afterDelay: 0)), .openSocket]
        }
        state = .waitingToReconnect
        return [.emit(.willAutomaticallyReconnect(afterDelay: delay)), .schedule(.reconnect, after: delay)]
    }

    private mutating func markChannelsLost() {
        user.userChannel = nil
        for position in channels.indices { channels[position].connectionLost() }
    }
}
