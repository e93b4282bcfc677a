// SPDX-License-Identifier: MIT

extension PubNubClient {
    /// Occupancy of channels and groups; with both empty, global here now.
    public func hereNow(channels: [String] = [], channelGroups: [String] = [], includeUUIDs: Bool = true,
                        includeState: Bool = false) async throws(PNStatus) -> PNHereNowResult
    {
        let (request, parse) = try hereNowCall(channels, channelGroups, includeUUIDs, includeState)
        return try await perform(request, parse: parse).get()
    }

    public func hereNow(channels: [String] = [], channelGroups: [String] = [], includeUUIDs: Bool = true, includeState: Bool = false,
                        completion: @escaping @Sendable (Result<PNHereNowResult, PNStatus>) -> Void)
    {
        do {
            let (request, parse) = try hereNowCall(channels, channelGroups, includeUUIDs, includeState)
            run(request, parse: parse, deliver: completion)
        } catch { completion(.failure(error)) }
    }

    private func hereNowCall(_ channels: [String], _ groups: [String], _ uuids: Bool, _ state: Bool)
        throws(PNStatus) -> (PubNubRequest, @Sendable (JSONValue) -> Result<PNHereNowResult, PNStatus>)
    {
        try NameValidation.check(channels, kind: "channel", operation: .hereNow)
        try NameValidation.check(groups, kind: "channel group", operation: .hereNow)
        let request = PresenceEndpoints.hereNow(subscribeKey: configuration.subscribeKey, channels: channels, groups: groups,
                                                includeUUIDs: uuids, includeState: state)
        return (request, Self.shaped(request, PresenceEndpoints.parseHereNow(channels: channels, groups: groups)))
    }

    /// Channels a uuid (default: this client's) is present on.
    public func whereNow(uuid: String? = nil) async throws(PNStatus) -> PNWhereNowResult {
        let request = PresenceEndpoints.whereNow(subscribeKey: configuration.subscribeKey, uuid: uuid ?? configuration.uuid)
        return try await perform(request, parse: Self.shaped(request, PresenceEndpoints.parseWhereNow)).get()
    }

    public func whereNow(uuid: String? = nil, completion: @escaping @Sendable (Result<PNWhereNowResult, PNStatus>) -> Void) {
        let request = PresenceEndpoints.whereNow(subscribeKey: configuration.subscribeKey, uuid: uuid ?? configuration.uuid)
        run(request, parse: Self.shaped(request, PresenceEndpoints.parseWhereNow), deliver: completion)
    }

    /// Sets this client's presence state on channels and groups; subscribed ones keep it for
    /// later subscribe and heartbeat requests.
    public func setState(_ state: JSONValue, channels: [String], channelGroups: [String] = []) async throws(PNStatus) -> PNStateResult {
        let request = try setStateRequest(state, channels, channelGroups)
        let result = try await perform(request, parse: Self.shaped(request, PresenceEndpoints.parseSetState(names: channels + channelGroups))).get()
        await subscriber.setState(state, for: channels + channelGroups)
        return result
    }

    public func setState(_ state: JSONValue, channels: [String], channelGroups: [String] = [],
                         completion: @escaping @Sendable (Result<PNStateResult, PNStatus>) -> Void)
    {
        do {
            let request = try setStateRequest(state, channels, channelGroups)
            let subscriber = self.subscriber
            run(request, parse: Self.shaped(request, PresenceEndpoints.parseSetState(names: channels + channelGroups))) { outcome in
                Task {
                    if case .success = outcome { await subscriber.setState(state, for: channels + channelGroups) }
                    completion(outcome)
                }
            }
        } catch { completion(.failure(error)) }
    }

    private func setStateRequest(_ state: JSONValue, _ channels: [String], _ groups: [String]) throws(PNStatus) -> PubNubRequest {
        try NameValidation.check(channels, kind: "channel", operation: .setState)
        try NameValidation.check(groups, kind: "channel group", operation: .setState)
        guard state.objectValue != nil else {
            throw PNStatus(category: .badRequest, operation: .setState, errorData: PNErrorData(information: "state must be a JSON object"))
        }
        let config = configuration
        return PresenceEndpoints.setState(subscribeKey: config.subscribeKey, channels: channels, groups: groups,
                                          uuid: config.uuid, state: state)
    }

    /// Presence state of a uuid (default: this client's) on channels and groups.
    public func getState(channels: [String], channelGroups: [String] = [], uuid: String? = nil) async throws(PNStatus) -> PNStateResult {
        let request = try getStateRequest(channels, channelGroups, uuid)
        return try await perform(request, parse: Self.shaped(request, PresenceEndpoints.parseGetState)).get()
    }

    public func getState(channels: [String], channelGroups: [String] = [], uuid: String? = nil,
                         completion: @escaping @Sendable (Result<PNStateResult, PNStatus>) -> Void)
    {
        do {
            let request = try getStateRequest(channels, channelGroups, uuid)
            run(request, parse: Self.shaped(request, PresenceEndpoints.parseGetState), deliver: completion)
        } catch { completion(.failure(error)) }
    }

    private func getStateRequest(_ channels: [String], _ groups: [String], _ uuid: String?) throws(PNStatus) -> PubNubRequest {
        try NameValidation.check(channels, kind: "channel", operation: .getState)
        try NameValidation.check(groups, kind: "channel group", operation: .getState)
        let config = configuration
        return PresenceEndpoints.getState(subscribeKey: config.subscribeKey, channels: channels, groups: groups,
                                          uuid: uuid ?? config.uuid)
    }
}
