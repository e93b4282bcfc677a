// SPDX-License-Identifier: MIT
import Synchronization

/// The PubNub REST service: every endpoint of spec §3-§9 over in-memory state per subscribe key.
///
/// `handle` never blocks: it answers at once, or parks a subscribe long-poll that a later
/// publish, presence event or the idle timer answers from whichever thread causes it.
public final class PubNubService: RequestHandler {
    let configuration: PubNubServiceConfiguration
    /// `configuration` behind one reference, for the environments made per request.
    private let sharedConfiguration: SharedConfiguration
    let scheduler: any Scheduler
    let clock: ServiceClock
    let timetokens: TimetokenClock
    /// Every subscribe key in use: its state and, for Access Manager keys, its keyset. One lock
    /// and one lookup per request find both.
    private let registry: Mutex<KeyRegistry>
    /// Told of the push notices each publish raises (the fault layer journals them).
    let pushObserver = Mutex<(@Sendable ([PushNotice]) -> Void)?>(nil)

    /// Creates the service; `scheduler` runs idle long-poll and presence timers, `clock` is the wall clock.
    package init(configuration: PubNubServiceConfiguration = PubNubServiceConfiguration(),
                scheduler: any Scheduler, clock: ServiceClock = .system) {
        self.configuration = configuration
        sharedConfiguration = SharedConfiguration(configuration)
        self.scheduler = scheduler
        self.clock = clock
        self.timetokens = TimetokenClock(clock: clock)
        var table = KeyRegistry()
        for keyset in configuration.keysets { table[keyset.subscribeKey] = KeyEntry(keyspace: Keyspace(), keyset: keyset) }
        self.registry = Mutex(table)
    }

    /// Turns Access Manager on for `keyset` (replacing a keyset with the same subscribe key).
    public func register(_ keyset: Keyset) {
        registry.withLock { table in
            table[keyset.subscribeKey] = KeyEntry(keyspace: table[keyset.subscribeKey]?.keyspace ?? Keyspace(), keyset: keyset)
        }
    }

    /// The Access Manager keyset of `subscribeKey`, if one is registered.
    public func keyset(for subscribeKey: String) -> Keyset? {
        registry.withLock { $0[subscribeKey]?.keyset }
    }

    /// Classifies `request` and answers it (400 for bad escapes, 404 for unknown paths); a subscribe
    /// long-poll may be parked and answered later from another thread.
    public func handle(_ request: HTTPRequest, context: RequestContext, responder: Responder) {
        handle(request, classified: PubNubRoute.classify(request), context: context, responder: responder)
    }

    /// Handles a request whose route a layer in front (the fault layer) already computed with
    /// `PubNubRoute.classify(request)`, so the target is parsed once per request.
    func handle(
        _ request: HTTPRequest, classified: Result<PubNubRoute, RouteError>, context: RequestContext, responder: Responder
    ) {
        switch classified {
        case .failure(.invalidPercentEncoding):
            responder.send(.respond(PubNubErrors.couldNotParse()))
        case .failure(.notFound):
            responder.send(.respond(PubNubErrors.notFound(path: request.rawPath)))
        case .success(var route):
            if route.endpoint == .publish || route.endpoint == .signal {
                handlePublish(&route, request: request, responder: responder)
                return
            }
            if let problem = ParameterValidation.problem(in: route) {
                responder.send(.respond(ParameterValidation.response(problem, endpoint: route.endpoint) { timetokens.next() }))
                return
            }
            // Looked up once: the gate reads the key's keyset.
            let known = Self.passesGate(route.endpoint) ? nil : route.subscribeKey.flatMap { knownEntry($0) }
            if let refusal = accessGate(&route, request: request, known: known) {
                responder.send(.respond(refusal))
            } else if route.endpoint == .subscribe {
                subscribe(route, responder: responder)
            } else {
                responder.send(.respond(respond(to: route, request: request, context: context, known: known)))
            }
        }
    }

    /// `handle` for a publish or signal, in the same order: the parameter check, the access gate,
    /// the publish. The query parameters are read once, for the check and the publish (and not
    /// copied between them); the key's entry is looked up once, for the gate and the publish.
    private func handlePublish(_ route: inout PubNubRoute, request: HTTPRequest, responder: Responder) {
        let parameters = PublishParameters(route.queryList)
        if let problem = ParameterValidation.problem(in: route, publish: parameters) {
            responder.send(.respond(ParameterValidation.response(problem, endpoint: route.endpoint) { timetokens.next() }))
            return
        }
        let known = Self.passesGate(route.endpoint) ? nil : route.subscribeKey.flatMap { knownEntry($0) }
        if let refusal = accessGate(&route, request: request, known: known) {
            responder.send(.respond(refusal))
        } else {
            responder.send(.respond(publish(route, request: request, known: consume known, parameters: parameters)))
        }
    }

    /// The answer of every endpoint except subscribe.
    ///
    /// `known` is the entry of the route's key if it existed when the request was let through.
    /// (`handle` answers publishes and signals through `handlePublish`.)
    private func respond(
        to route: PubNubRoute, request: HTTPRequest, context: RequestContext, known: KeyEntry?
    ) -> HTTPResponse {
        switch route.endpoint {
        case .time: return .pubNub(200, PubNubBodies.time(timetokens.next()))
        case .admin: return PubNubErrors.notFound(path: request.rawPath)
        case .publish, .signal:
            return publish(route, request: request, known: known, parameters: PublishParameters(route.queryList))
        case .subscribe: return PubNubErrors.couldNotParse()
        case .heartbeat: return heartbeat(route)
        case .leave: return leave(route)
        case .hereNow: return hereNow(route)
        case .globalHereNow: return globalHereNow(route)
        case .whereNow: return whereNow(route)
        case .getState: return getState(route)
        case .setState: return setState(route)
        case .history: return history(route)
        case .fetchMessages, .fetchMessagesWithActions: return fetchMessages(route)
        case .deleteMessages: return deleteMessages(route)
        case .messageCounts: return messageCounts(route)
        case .channelGroupAdd, .channelGroupRemoveChannels, .channelGroupDelete, .channelGroupList,
            .channelGroupListGroups:
            return channelGroup(route)
        case .grant: return grant(route, request: request)
        case .audit: return audit(route, request: request)
        case .grantToken: return grantToken(route, request: request)
        case .revokeToken: return revokeToken(route, request: request)
        case .grantV1: return grantV1(route, request: request)
        case .auditV1: return auditV1(route, request: request)
        case .addMessageAction: return addMessageAction(route, request: request)
        case .removeMessageAction: return removeMessageAction(route)
        case .getMessageActions: return getMessageActions(route)
        case .objects: return objects(route, request: request)
        case .generateUploadURL, .storageUpload, .publishFile, .listFiles, .getFile, .storageDownload, .deleteFile:
            return files(route, request: request, context: context)
        case .push: return push(route)
        }
    }

    /// Forgets every subscribe key's state (keysets stay registered); parked long-polls answer with an empty `m`.
    public func reset() {
        let old = registry.withLock { table in
            defer { table.replaceAll { $0.keyset.map { KeyEntry(keyspace: Keyspace(), keyset: $0) } } }
            return table.keyspaces
        }
        for keyspace in old { drain(keyspace) }
    }

    /// Forgets the state of one subscribe key (its keyset stays); its parked long-polls answer with an empty `m`.
    public func reset(subscribeKey: String) {
        let old = registry.withLock { table -> Keyspace? in
            guard let entry = table[subscribeKey] else { return nil }
            table[subscribeKey] = entry.keyset.map { KeyEntry(keyspace: Keyspace(), keyset: $0) }
            return entry.keyspace
        }
        if let old { drain(old) }
    }

    /// Every subscribe key with state, in name order.
    func subscribeKeys() -> [String] {
        registry.withLock { Array($0.keys) }.sorted()
    }

    /// The keyset registered for `subscribeKey` (it outlives resets).
    func registeredKeyset(_ subscribeKey: String) -> Keyset? {
        registry.withLock { $0[subscribeKey]?.keyset }
    }

    /// The number of presence deadlines `subscribeKey` holds, live and stale (for tests).
    func presenceDeadlineCount(subscribeKey: String) -> Int {
        guard let keyspace = registry.withLock({ $0[subscribeKey]?.keyspace }) else { return 0 }
        return keyspace.state.withLock { $0.presenceDeadlines.count }
    }

    /// The number of parked long-polls of `subscribeKey` (for tests and diagnostics).
    public func parkedLongPolls(subscribeKey: String) -> Int {
        guard let keyspace = registry.withLock({ $0[subscribeKey]?.keyspace }) else { return 0 }
        return keyspace.state.withLock { $0.waiters.count }
    }

    private func drain(_ keyspace: Keyspace) {
        let (waiters, timers) = keyspace.state.withLock { state in
            let (waiters, sweep) = state.waiters.removeAll()
            let timers = [sweep, state.presenceDeadlines.removeAll()].compactMap { $0 }
            state = KeyspaceState()
            return (waiters, timers)
        }
        for timer in timers { timer.cancel() }
        for waiter in waiters {
            waiter.responder.send(.respond(.pubNub(200, waiter.format.emptyBody(
                cursor: waiter.cursor, region: configuration.region))))
        }
    }

    /// The state and keyset of `subscribeKey` if it has any (no state is created).
    func knownEntry(_ subscribeKey: String) -> KeyEntry? {
        registry.withLock { $0.find(subscribeKey) }
    }

    /// The state and keyset of `subscribeKey`, creating its state on first use.
    func entry(_ subscribeKey: String) -> KeyEntry {
        registry.withLock { $0.findOrCreate(subscribeKey) }
    }

    func environment(_ subscribeKey: String, keyset: Keyset?) -> ServiceEnvironment {
        ServiceEnvironment(
            subscribeKey: subscribeKey, keyset: keyset, sharedConfiguration: sharedConfiguration, timetokens: timetokens,
            clock: clock)
    }

    /// Runs `body` under the keyspace lock, wakes waiters of touched channels, then (unlocked)
    /// cancels, schedules and sends what the outbox gathered.
    func withState<R>(
        _ subscribeKey: String,
        _ body: (inout KeyspaceState, inout Outbox, ServiceEnvironment) -> R
    ) -> R {
        withState(entry(subscribeKey), subscribeKey: subscribeKey, body)
    }

    /// `withState` on an entry already looked up (so a caller keeps using the same keyspace across a reset).
    func withState<R>(
        _ entry: KeyEntry, subscribeKey: String,
        _ body: (inout KeyspaceState, inout Outbox, ServiceEnvironment) -> R
    ) -> R {
        let env = environment(subscribeKey, keyset: entry.keyset)
        let keyspace = entry.keyspace
        var outbox = Outbox()
        let result = keyspace.state.withLock { state in
            let result = body(&state, &outbox, env)
            state.wakeTouched(env: env, outbox: &outbox)
            return result
        }
        flush(outbox, keyspace: keyspace, env: env)
        return result
    }

    func flush(_ outbox: Outbox, keyspace: Keyspace, env: ServiceEnvironment) {
        for work in outbox.cancels { work.cancel() }
        if !outbox.presenceTimers.isEmpty { addPresenceDeadlines(outbox.presenceTimers, keyspace: keyspace, env: env) }
        if let seconds = outbox.intervalTimer {
            _ = scheduler.schedule(after: .seconds(seconds)) { [weak self, weak keyspace] in
                guard let self, let keyspace else { return }
                self.intervalTimerFired(keyspace, env: env)
            }
        }
        guard !outbox.sends.isEmpty else { return }
        // One action per distinct body (the waiters of one publish mostly share theirs), and one
        // hand-over per event loop for all of them.
        var batch: [(Responder, ResponseAction)] = []
        batch.reserveCapacity(outbox.sends.count)
        var last: (response: HTTPResponse, action: ResponseAction)?
        for (responder, response) in outbox.sends {
            if let last, last.response.isSameValue(as: response) {
                batch.append((responder, last.action))
            } else {
                let action = ResponseAction.respond(response)
                last = (response, action)
                batch.append((responder, action))
            }
        }
        Responder.send(batch)
    }

    private func intervalTimerFired(_ keyspace: Keyspace, env: ServiceEnvironment) {
        var outbox = Outbox()
        keyspace.state.withLock { state in
            state.emitIntervals(env: env, outbox: &outbox)
            state.wakeTouched(env: env, outbox: &outbox)
        }
        flush(outbox, keyspace: keyspace, env: env)
    }


    /// The 403 for a request on an Access Manager keyset lacking `permission`, else `nil`.
    func denial(
        _ permission: Permission, channels: [String], groups: [String], route: PubNubRoute,
        state: KeyspaceState, env: ServiceEnvironment, layout: PubNubErrors.ForbiddenLayout = .compact
    ) -> HTTPResponse? {
        guard env.keyset != nil, !route.accessDecided else { return nil }
        let denied = state.denied(
            permission, channels: channels, groups: groups, auth: route.query["auth"], now: clock.unixSeconds)
        guard !denied.channels.isEmpty || !denied.groups.isEmpty else { return nil }
        return PubNubErrors.forbidden(channels: denied.channels, groups: denied.groups, layout: layout)
    }

    /// The 403 for a subkey-level operation without the subkey-level `permission`, else `nil`.
    func subkeyDenial(
        _ permission: Permission, route: PubNubRoute, state: KeyspaceState, env: ServiceEnvironment
    ) -> HTTPResponse? {
        guard env.keyset != nil, !route.accessDecided else { return nil }
        if state.isAllowed(permission, on: .subkey, auth: route.query["auth"], now: clock.unixSeconds) { return nil }
        return PubNubErrors.forbidden(channels: [], groups: [])
    }

    /// The presence timeout a request asks for: its `heartbeat` value (raised to the floor), or the default.
    func presenceTimeout(_ route: PubNubRoute) -> Int {
        guard let text = route.query["heartbeat"], let value = Int(text), value > 0 else {
            return configuration.defaultPresenceTimeout
        }
        // At most a day, so a hostile value cannot overflow a timer's arithmetic.
        return min(max(value, configuration.presenceTimeoutFloor ?? 0), 86_400)
    }

    /// Parses the timetoken parameter `name`: `nil` when absent or empty, a failure when not all digits.
    static func timetoken(_ route: PubNubRoute, _ name: String) -> Result<UInt64?, PubNubServiceError> {
        timetoken(route.query[name], parameter: name)
    }

    /// Parses one timetoken text: `nil` when absent or empty, a failure when not all digits.
    static func timetoken(_ text: String?, parameter: String) -> Result<UInt64?, PubNubServiceError> {
        guard let text, !text.isEmpty else { return .success(nil) }
        guard text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = UInt64(text) else {
            return .failure(.invalidTimetoken(parameter: parameter, value: text))
        }
        return .success(value)
    }

    /// Whether a query flag is on (`1` or `true`).
    static func flag(_ route: PubNubRoute, _ name: String) -> Bool {
        flag(route.query[name])
    }

    /// Whether a flag's value is on (`1` or `true`); `nil` (absent) is off.
    static func flag(_ value: String?) -> Bool {
        guard let value else { return false }
        return value == "1" || value.lowercased() == "true"
    }
}
