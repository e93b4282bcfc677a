// SPDX-License-Identifier: MIT

extension PubNubService {
    /// Publish (GET/POST), fire and signal (spec §4). A POST body may be gzip- or zlib-compressed
    /// (`Content-Encoding: gzip`, as ObjC and Python send it). `known` is the key's entry if it
    /// already had one (`knownEntry`); otherwise it is created here. `parameters` are the
    /// route's query parameters (`PublishParameters(route.queryList)`).
    func publish(
        _ route: PubNubRoute, request: HTTPRequest, known: consuming KeyEntry?, parameters: PublishParameters
    ) -> HTTPResponse {
        let subscribeKey = route.subscribeKey ?? ""
        let channel = route.firstChannel ?? ""
        let isSignal = route.endpoint == .signal
        guard ChannelNames.isValid(channel) else { return PubNubErrors.reservedCharacter() }
        guard case .success(let override) = Self.timetoken(parameters.ptto, parameter: "ptto") else { return PubNubErrors.couldNotParse() }
        let entry = (consume known) ?? entry(subscribeKey)
        if let keyset = entry.keyset, keyset.publishKey != route.publishKey {
            return PubNubErrors.publishRefusal("Invalid Key", timetoken: timetokens.next())
        }
        let limit = isSignal ? configuration.maxSignalBytes : configuration.maxMessageBytes
        var text = route.message ?? ""
        var oversized = false
        if route.message == nil {
            switch ContentDecoding.body(of: request, limit: limit) {
            case .success(let body): text = String(validating: body, as: UTF8.self) ?? ""
            case .failure(.tooLarge): oversized = true
            // UNVERIFIED: the live answer to a corrupt compressed body; the balancer's parse error.
            case .failure(.corrupt): return PubNubErrors.couldNotParse()
            }
        }
        if oversized || text.utf8.count > limit {
            return PubNubErrors.publishRefusal(isSignal ? "Signal size too large" : "Message Too Large",
                                               timetoken: timetokens.next())
        }
        guard PubNubJSON.isValid(text) else { return PubNubErrors.publishRefusal("Invalid JSON", timetoken: timetokens.next()) }
        var meta: String?
        if let metaText = parameters.meta, !metaText.isEmpty {
            guard PubNubJSON.isValid(metaText) else {
                return PubNubErrors.publishRefusal("Invalid JSON", timetoken: timetokens.next())
            }
            meta = metaText
        }
        guard case .success(let customMessageType) = CustomMessageType.parameter(parameters.customMessageType) else {
            return PubNubErrors.publishRefusal(CustomMessageType.refusalText, timetoken: timetokens.next())
        }
        let notStored = parameters.store == "0"
        let fired = notStored && Self.flag(parameters.norep)
        // Clamped so no client value can overflow the expiry arithmetic (ten years at most).
        let ttlHours = min(max(parameters.ttl.flatMap { Int($0) } ?? 0, 0), 24 * 365 * 10)
        var notices: [PushNotice] = []
        // Rendered before the lock: the envelope's parts do not hold the timetoken, so the lock
        // covers the timetoken, the append and the wake-up only.
        var message = StoredMessage(
            timetoken: 0, channel: channel, kind: isSignal ? .signal : .message, payload: text,
            meta: meta, publisher: route.uuid, sequence: parameters.seqn.flatMap { Int($0) },
            customMessageType: customMessageType, originTimetoken: parameters.ptto,
            inHistory: !isSignal && !notStored, live: !fired || configuration.deliverFiredMessages,
            expiresAt: nil)
        message.renderEnvelope(subscribeKey: subscribeKey, region: configuration.region, shard: configuration.shard)
        // Taken out under the lock, so the message moves into the channel's log without a copy.
        var pending: StoredMessage? = consume message
        enum Outcome { case denied(HTTPResponse), stored(UInt64) }
        let outcome = withState(entry, subscribeKey: subscribeKey) { state, outbox, env -> Outcome in
            if env.keyset != nil,
                let denied = denial(.write, channels: [channel], groups: [], route: route, state: state, env: env, layout: .spaced) {
                return .denied(denied)
            }
            let timetoken = env.timetokens.next()
            var message = pending.take()!
            message.timetoken = timetoken
            if ttlHours > 0 { message.expiresAt = env.clock.unixSeconds + Int64(ttlHours) * 3600 }
            state.append(consume message, env: env, outbox: &outbox)
            if !isSignal {
                notices = pushNotices(message: text, channel: channel, timetoken: timetoken, publisher: route.uuid,
                                      state: state, env: env)
            }
            return .stored(timetoken)
        }
        let response: HTTPResponse
        switch outcome {
        case .denied(let denied):
            response = denied
        case .stored(let timetoken):
            // A `ptto` is the publish timetoken the service answers with (recorded); the message
            // keeps the service's own timetoken for ordering and carries `ptto` as its `o.t`.
            // A publish admitted by a v3 token is acknowledged with the quoted charset (the one
            // recording of it, May 2025); other publishes unquoted (September 2025).
            let byToken = route.accessDecided && parameters.signature == nil
            response = .pubNub(200, bytes: PubNubBodies.publishedBytes(override ?? timetoken), byToken ? .quoted : .unquoted)
        }
        if !notices.isEmpty, let observer = pushObserver.withLock({ $0 }) { observer(notices) }
        return response
    }

    /// Subscribe v2 (spec §5): handshake, catch-up from any older `tt`, or a parked long-poll.
    func subscribe(_ route: PubNubRoute, responder: Responder) {
        let subscribeKey = route.subscribeKey ?? ""
        var subscription = SubscriptionSet(channels: route.channels, groups: route.channelGroups)
        guard !subscription.channels.isEmpty || !subscription.groups.isEmpty else {
            responder.send(.respond(PubNubErrors.couldNotParse()))
            return
        }
        guard case .success(let wildcards) = subscribeNames(route) else {
            responder.send(.respond(PubNubErrors.reservedCharacter()))
            return
        }
        switch subscribeFilter(route) {
        case .success(let filter): subscription.filter = filter
        case .failure(let refusal):
            responder.send(.respond(SubscriptionFilter.refusal(refusal.error)))
            return
        }
        subscription.wildcards = wildcards
        if let legacy = route.subscribeV1, let callback = legacy.callback, !SubscribeV1Request.isValidCallback(callback) {
            responder.send(.respond(PubNubErrors.couldNotParse()))
            return
        }
        let format = Self.subscribeFormat(route, subscription: subscription)
        guard case .success(let requested) = Self.subscribeCursor(route) else {
            responder.send(.respond(PubNubErrors.couldNotParse()))
            return
        }
        let cursor = requested ?? 0
        let timeout = presenceTimeout(route)
        enum Outcome { case answer(HTTPResponse), parked(Int) }
        let entry = entry(subscribeKey)
        let keyspace = entry.keyspace
        let idleTimeout = configuration.longPollIdleTimeout.clampedNanoseconds
        let outcome: Outcome = withState(entry, subscribeKey: subscribeKey) { state, outbox, env in
            if let denied = denial(.read, channels: subscription.channels, groups: subscription.groups,
                                   route: route, state: state, env: env) {
                return .answer(denied)
            }
            let handshake = cursor == 0 ? env.timetokens.next() : nil
            if let uuid = route.uuid, Self.subscribeKeepsPresence(route, features: env.configuration.features(for: subscribeKey)) {
                let channels = presenceChannels(route, state: state)
                let given = applyStateParameter(route, uuid: uuid, channels: channels, state: &state, env: env, outbox: &outbox)
                state.heartbeat(uuid: uuid, channels: channels, timeout: timeout, stateGiven: given, env: env, outbox: &outbox)
            }
            if let handshake {
                return .answer(.pubNub(200, format.emptyBody(cursor: handshake, region: env.configuration.region)))
            }
            if let body = state.pendingBody(for: subscription, after: cursor, env: env, format: format) {
                return .answer(.pubNub(200, body))
            }
            // The clock is read under the lock, so that park order stays deadline order.
            let id = state.waiters.park(
                WaiterTable.Parked(responder: responder, cursor: cursor, format: format),
                subscription: subscription, idleDeadline: scheduler.uptimeNanoseconds &+ idleTimeout)
            armIdleSweep(&state.waiters, keyspace: keyspace)
            return .parked(id)
        }
        switch outcome {
        case .answer(let response):
            responder.send(.respond(response))
        case .parked(let id):
            responder.onCancel { [weak keyspace] in
                keyspace?.state.withLock { state in
                    _ = state.waiters.unpark(id)
                    return state.waiters.sweepToCancel()
                }?.cancel()
            }
        }
    }

    /// The real channels a subscribe / heartbeat / leave makes the uuid present on: its
    /// non-presence channels and the members of its non-presence groups, in order, once each.
    func presenceChannels(_ route: PubNubRoute, state: KeyspaceState) -> [String] {
        var seen = Set<String>()
        var result: [String] = []
        for channel in route.channels where !ChannelNames.isPresence(channel) && seen.insert(channel).inserted {
            result.append(channel)
        }
        for group in route.channelGroups where !ChannelNames.isPresence(group) {
            for member in state.groups[group] ?? [] where seen.insert(member).inserted { result.append(member) }
        }
        return result
    }

    /// Applies a subscribe / heartbeat `state` parameter (`{"<channel or group>": {…}}`); returns
    /// the channels it set state on.
    @discardableResult
    func applyStateParameter(
        _ route: PubNubRoute, uuid: String, channels: [String], state: inout KeyspaceState,
        env: ServiceEnvironment, outbox: inout Outbox
    ) -> Set<String> {
        guard let text = route.query["state"], let members = PubNubJSON.objectMembers(text) else { return [] }
        var given = Set<String>()
        for (name, value) in members where PubNubJSON.objectMembers(value) != nil {
            let targets = state.groups[name].map { $0.filter(channels.contains) } ?? (channels.contains(name) ? [name] : [])
            state.setState(uuid: uuid, channels: targets, state: value, env: env, outbox: &outbox)
            given.formUnion(targets)
        }
        return given
    }
}

extension PubNubService {
    /// Whether this subscribe announces and refreshes the client's presence: always, unless it
    /// carries the event-engine flag `ee` on a key whose `eventEngineSubscribePresence` is off.
    static func subscribeKeepsPresence(_ route: PubNubRoute, features: KeyFeatures) -> Bool {
        features.eventEngineSubscribePresence || route.query["ee"] == nil
    }
}
