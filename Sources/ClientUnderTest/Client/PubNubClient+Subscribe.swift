// SPDX-License-Identifier: MIT

extension PubNubClient {
    /// Adds channels and groups to the subscribe loop (with their `-pnpres` channels when
    /// `withPresence`), optionally from a timetoken and with presence state for them. The loop
    /// restarts with a handshake; `PNConnectedCategory` is reported to the listeners when it answers.
    /// Throws a `PNBadRequestCategory` status when a name is empty or contains `,` or `/`.
    public func subscribe(channels: [String], channelGroups: [String] = [], withPresence: Bool = false,
                          timetoken: UInt64? = nil, state: JSONValue? = nil) async throws(PNStatus)
    {
        try NameValidation.check(channels, kind: "channel", operation: .subscribe)
        try NameValidation.check(channelGroups, kind: "channel group", operation: .subscribe)
        if let state { await subscriber.setState(state, for: channels + channelGroups) }
        await subscriber.subscribe(channels: channels, groups: channelGroups, withPresence: withPresence, timetoken: timetoken)
    }

    /// Subscribes to the presence channels only.
    public func subscribeToPresence(channels: [String], channelGroups: [String] = []) async throws(PNStatus) {
        try NameValidation.check(channels, kind: "channel", operation: .subscribe)
        try NameValidation.check(channelGroups, kind: "channel group", operation: .subscribe)
        await subscriber.subscribePresence(channels: channels, groups: channelGroups)
    }

    /// Removes channels and groups: sends a leave for them, then restarts the loop for what is left,
    /// or stops it and reports `PNDisconnectedCategory` when nothing is left. Returns the leave's status
    /// (`PNAcknowledgmentCategory` on success).
    @discardableResult
    public func unsubscribe(channels: [String], channelGroups: [String] = []) async -> PNStatus {
        do throws(PNStatus) {
            try NameValidation.check(channels, kind: "channel", operation: .unsubscribe)
            try NameValidation.check(channelGroups, kind: "channel group", operation: .unsubscribe)
        } catch {
            return error
        }
        let nothingLeft = await subscriber.unsubscribe(channels: channels, groups: channelGroups, presenceOnly: false)
        let leaveStatus = await leave(channels: channels, groups: channelGroups)
        if nothingLeft { await subscriber.report(.disconnected, operation: .unsubscribe) }
        return leaveStatus
    }

    /// Removes only the presence channels (no leave is sent).
    public func unsubscribeFromPresence(channels: [String], channelGroups: [String] = []) async {
        if await subscriber.unsubscribe(channels: channels, groups: channelGroups, presenceOnly: true) {
            await subscriber.report(.disconnected, operation: .unsubscribe)
        }
    }

    /// Leaves every channel and group and stops the loop (`PNDisconnectedCategory`).
    @discardableResult
    public func unsubscribeAll() async -> PNStatus {
        let old = await subscriber.unsubscribeAll()
        let status = await leave(channels: old.channels, groups: old.groups)
        if !old.isEmpty { await subscriber.report(.disconnected, operation: .unsubscribe) }
        return status
    }

    /// Channels and groups of the subscribe loop (presence channels with their `-pnpres` suffix).
    public func subscribedChannels() async -> (channels: [String], channelGroups: [String]) {
        let set = await subscriber.snapshot()
        return (set.pathChannels, set.queryGroups)
    }

    /// The timetoken the next long-poll will use (0 before the first handshake answer).
    public func currentTimetoken() async -> UInt64 {
        await subscriber.currentCursor()?.timetoken ?? 0
    }

    /// Changes the uuid. While subscribed: a leave on every channel and group with the old uuid,
    /// then a resubscribe (handshake) with the new one.
    public func setUUID(_ uuid: String) async throws(ConfigurationError) {
        var candidate = configuration
        candidate.uuid = uuid
        try candidate.validate()
        let set = await subscriber.snapshot()
        if !set.isEmpty {
            await subscriber.stop(resetCursor: false)
            _ = await leave(channels: set.channels, groups: set.groups)
        }
        settings.withLock { $0.uuid = uuid }
        if !set.isEmpty { await subscriber.restart() }
    }

    /// Sends a presence heartbeat for these channels and groups now.
    public func heartbeat(channels: [String], channelGroups: [String] = []) async -> PNStatus {
        let config = configuration
        let request = SubscribeEndpoints.heartbeat(subscribeKey: config.subscribeKey, channels: channels, groups: channelGroups,
                                                   heartbeat: config.presenceHeartbeatValue, state: nil)
        return await acknowledge(request)
    }

    public func heartbeat(channels: [String], channelGroups: [String] = [], completion: @escaping @Sendable (PNStatus) -> Void) {
        let config = configuration
        let request = SubscribeEndpoints.heartbeat(subscribeKey: config.subscribeKey, channels: channels, groups: channelGroups,
                                                   heartbeat: config.presenceHeartbeatValue, state: nil)
        acknowledge(request, completion: completion)
    }

    /// Completion form of `unsubscribe(channels:channelGroups:)`.
    public func unsubscribe(channels: [String], channelGroups: [String] = [], completion: @escaping @Sendable (PNStatus) -> Void) {
        Task { completion(await self.unsubscribe(channels: channels, channelGroups: channelGroups)) }
    }

    /// Completion form of `subscribe(...)`: `nil` when the change was taken, or the refusal status.
    /// Connection statuses arrive through the listeners.
    public func subscribe(channels: [String], channelGroups: [String] = [], withPresence: Bool = false, timetoken: UInt64? = nil,
                          state: JSONValue? = nil, completion: @escaping @Sendable (PNStatus?) -> Void)
    {
        Task {
            do throws(PNStatus) {
                try await self.subscribe(channels: channels, channelGroups: channelGroups, withPresence: withPresence,
                                         timetoken: timetoken, state: state)
                completion(nil)
            } catch {
                completion(error)
            }
        }
    }

    /// Stops the subscribe loop, keeping its channels and cursor (`PNDisconnectedCategory`);
    /// `reconnect` resumes it. No leave is sent.
    public func disconnect() async {
        await subscriber.disconnect()
    }

    /// Resumes a subscribe loop that was disconnected or that gave up (event-engine mode), from
    /// its last cursor or from `timetoken`: a handshake, then `PNReconnectedCategory`.
    public func reconnect(timetoken: UInt64? = nil) async {
        await subscriber.reconnect(timetoken: timetoken)
    }

    func leave(channels: [String], groups: [String]) async -> PNStatus {
        guard !channels.isEmpty || !groups.isEmpty, !configuration.suppressLeaveEvents else {
            return PNStatus(category: .acknowledgment, operation: .unsubscribe)
        }
        let request = SubscribeEndpoints.leave(subscribeKey: configuration.subscribeKey, channels: channels, groups: groups)
        return await acknowledge(request)
    }

    /// Runs an acknowledgment-only request; success and failure both end as a status.
    func acknowledge(_ request: PubNubRequest) async -> PNStatus {
        switch await perform(request, parse: Self.acknowledgment(request)) {
        case .success(let status), .failure(let status): status
        }
    }

    func acknowledge(_ request: PubNubRequest, completion: @escaping @Sendable (PNStatus) -> Void) {
        run(request, parse: Self.acknowledgment(request)) { outcome in
            switch outcome {
            case .success(let status), .failure(let status): completion(status)
            }
        }
    }
}
