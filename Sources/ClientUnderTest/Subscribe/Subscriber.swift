// SPDX-License-Identifier: MIT
import HarnessHTTPClient
import Synchronization

/// The subscribe loop state machine (ObjC 4.x behaviour):
/// handshake (`tt=0`) → long-polls with the returned cursor; a long-poll timeout restarts silently
/// (a handshake timeout is an unexpected disconnect);
/// 403 / 414 / 481 stop the loop and are reported once with their own category; any other failure
/// reports `PNUnexpectedDisconnectCategory` and starts the reconnection pings (`Reconnection.swift`).
/// In event-engine mode (`PubNubConfiguration.enableEventEngine`) failures are retried by the
/// retry policy instead, and the loop gives up after its last attempt (`Subscriber+EventEngine.swift`).
actor Subscriber {
    /// `failed`: the event-engine mode gave up (the cursor is kept for `reconnect`); `paused`:
    /// `disconnect()` stopped the loop, keeping the channels and the cursor.
    enum Phase: Equatable { case idle, handshaking, receiving, disconnectedUnexpectedly, stopped, failed, paused }

    private struct WeakClient: Sendable { weak var client: PubNubClient? }
    private nonisolated let clientRef = Mutex(WeakClient())

    var set = SubscriptionSet()
    var phase = Phase.idle
    var cursor: SubscribeCursor?
    /// The cursor kept for catch-up (after a disconnect or a list change).
    var lastCursor: SubscribeCursor?
    /// True between a successful reconnection ping and the next handshake answer.
    var restoring = false
    /// A timetoken the user asked to subscribe from.
    var userTimetoken: UInt64?
    var generation = 0
    var currentCancel: CancellationSignal?
    var loopTask: Task<Void, Never>?
    var pingTask: Task<Void, Never>?
    var heartbeatTask: Task<Void, Never>?
    var delivered = DeliveredMessageCache()
    /// Event-engine mode: the failed attempts in a row of the request being retried.
    var failedAttempts = 0

    nonisolated func attach(_ client: PubNubClient) { clientRef.withLock { $0.client = client } }
    nonisolated var client: PubNubClient? { clientRef.withLock { $0.client } }

    func snapshot() -> SubscriptionSet { set }
    func currentPhase() -> Phase { phase }
    func currentCursor() -> SubscribeCursor? { cursor }

    // MARK: List changes

    func subscribe(channels: [String], groups: [String], withPresence: Bool, timetoken: UInt64?) {
        set.add(channels: channels, groups: groups, withPresence: withPresence)
        userTimetoken = timetoken
        restart()
    }

    func subscribePresence(channels: [String], groups: [String]) {
        set.addPresence(channels: channels, groups: groups)
        restart()
    }

    func setState(_ state: JSONValue, for names: [String]) {
        for name in names { set.state[name] = state }
    }

    /// Removes names; returns true when nothing is left (the loop is stopped).
    func unsubscribe(channels: [String], groups: [String], presenceOnly: Bool) -> Bool {
        set.remove(channels: channels, groups: groups, presenceOnly: presenceOnly)
        if set.isEmpty {
            stop(resetCursor: true)
            return true
        }
        restart()
        return false
    }

    func unsubscribeAll() -> SubscriptionSet {
        let old = set
        set.removeAll()
        stop(resetCursor: true)
        return old
    }

    /// Restarts the loop with a handshake (list change, uuid change).
    func restart() {
        guard !set.isEmpty else { return }
        if changeWhileReceiving() { return }
        if let cursor, cursor.timetoken != 0, client?.configuration.keepTimeTokenOnListChange == true {
            lastCursor = cursor
        } else if phase != .disconnectedUnexpectedly {
            lastCursor = nil
        }
        stopTasks()
        generation += 1
        phase = .handshaking
        let gen = generation
        loopTask = Task { await self.runLoop(generation: gen) }
        startHeartbeat()
    }

    func stop(resetCursor: Bool) {
        stopTasks()
        generation += 1
        phase = .idle
        restoring = false
        if resetCursor {
            cursor = nil
            lastCursor = nil
        }
    }

    func stopTasks() {
        currentCancel?.cancel()
        currentCancel = nil
        loopTask?.cancel()
        pingTask?.cancel()
        heartbeatTask?.cancel()
        loopTask = nil
        pingTask = nil
        heartbeatTask = nil
    }

    // MARK: The loop

    func runLoop(generation gen: Int) async {
        while gen == generation, !Task.isCancelled, let client {
            let config = client.configuration
            let isHandshake = phase == .handshaking
            let request = SubscribeEndpoints.subscribe(subscribeKey: config.subscribeKey, set: set,
                                                       cursor: isHandshake ? nil : cursor,
                                                       heartbeat: config.presenceHeartbeatValue,
                                                       filter: config.filterExpression, eventEngine: config.enableEventEngine)
            let cancel = CancellationSignal()
            currentCancel = cancel
            let outcome = await client.send(request, timeout: config.subscribeMaximumIdleTime, cancel: cancel)
            guard gen == generation else { return }
            switch outcome {
            case .success(let body):
                failedAttempts = 0
                guard let parsed = SubscribeResponseParser.parse(body) else {
                    let status = ResponseClassifier.malformed(request, request.path, 200, "unexpected subscribe response shape", body)
                    handleFailure(status, generation: gen)
                    return
                }
                if isHandshake {
                    handshakeSucceeded(parsed.cursor, config: config)
                } else {
                    cursor = parsed.cursor
                    deliver(parsed.envelopes, config: config, client: client)
                }
            case .failure(let status):
                if status.category == .cancelled { return }
                // A long-poll timeout restarts it silently (an idle cursor); a handshake that is
                // not answered is a failure like any other (ObjC4: Timeout → UnexpectedDisconnect).
                if status.category == .timeout && !isHandshake { continue }
                if config.enableEventEngine {
                    guard await retryAfterFailure(status, handshake: isHandshake, policy: config.retryPolicy, generation: gen) else { return }
                    continue
                }
                handleFailure(status, generation: gen)
                return
            }
        }
    }

    private func handshakeSucceeded(_ fresh: SubscribeCursor, config: PubNubConfiguration) {
        let wasRestoring = restoring
        restoring = false
        var next = fresh
        if let userTimetoken, userTimetoken != 0 {
            next.timetoken = userTimetoken
            self.userTimetoken = nil
        } else if let last = lastCursor, last.timetoken != 0 {
            let reuse = wasRestoring ? config.catchUpOnSubscriptionRestore : config.keepTimeTokenOnListChange
            if reuse { next.timetoken = last.timetoken }
        }
        lastCursor = nil
        cursor = next
        phase = .receiving
        report(wasRestoring ? .reconnected : .connected, statusCode: 200)
    }

    func report(_ category: PNStatusCategory, statusCode: Int = 0, errorData: PNErrorData? = nil,
                operation: PNOperationType = .subscribe, willRetry: Bool = false)
    {
        let status = PNStatus(category: category, operation: operation, statusCode: statusCode,
                              willAutomaticallyRetry: willRetry, errorData: errorData,
                              subscribedChannels: set.pathChannels, subscribedChannelGroups: set.queryGroups,
                              currentTimetoken: cursor?.timetoken ?? 0, lastTimetoken: lastCursor?.timetoken ?? 0)
        client?.emit(.status(status))
    }

    private func handleFailure(_ status: PNStatus, generation gen: Int) {
        switch status.category {
        case .accessDenied, .requestURITooLong, .malformedFilterExpression:
            handleStop(status)
        default:
            disconnectedUnexpectedly(status, generation: gen)
        }
    }

    /// A refusal no retry cures: the loop stops and the status is reported once.
    func handleStop(_ status: PNStatus) {
        phase = .stopped
        heartbeatTask?.cancel()
        client?.emit(.status(status))
    }
}
