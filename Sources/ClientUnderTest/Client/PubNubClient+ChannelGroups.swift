// SPDX-License-Identifier: MIT

extension PubNubClient {
    private func registry(_ group: String?) -> String {
        let base = "/v1/channel-registration/sub-key/\(PercentEncoding.encode(configuration.subscribeKey))/channel-group"
        return group.map { base + "/" + PercentEncoding.encode($0) } ?? base
    }

    private func groupRequest(_ group: String, _ channels: [String], _ operation: PNOperationType, suffix: String = "",
                              query: [(String, String)] = []) -> Result<PubNubRequest, PNStatus>
    {
        do throws(PNStatus) {
            try NameValidation.check([group], kind: "channel group", operation: operation)
            try NameValidation.check(channels, kind: "channel", operation: operation)
        } catch { return .failure(error) }
        return .success(PubNubRequest(operation: operation, path: registry(group) + suffix, query: query, channels: channels, groups: [group]))
    }

    private func acknowledge(_ built: Result<PubNubRequest, PNStatus>) async -> PNStatus {
        switch built {
        case .success(let request): await acknowledge(request)
        case .failure(let status): status
        }
    }

    private func acknowledge(_ built: Result<PubNubRequest, PNStatus>, completion: @escaping @Sendable (PNStatus) -> Void) {
        switch built {
        case .success(let request): acknowledge(request, completion: completion)
        case .failure(let status): completion(status)
        }
    }

    private func addRequest(_ channels: [String], _ group: String) -> Result<PubNubRequest, PNStatus> {
        groupRequest(group, channels, .addChannelsToGroup, query: [("add", channels.joined(separator: ","))])
    }

    private func removeRequest(_ channels: [String], _ group: String) -> Result<PubNubRequest, PNStatus> {
        groupRequest(group, channels, .removeChannelsFromGroup, query: [("remove", channels.joined(separator: ","))])
    }

    /// Adds channels to a group.
    public func addChannels(_ channels: [String], toGroup group: String) async -> PNStatus {
        await acknowledge(addRequest(channels, group))
    }

    public func addChannels(_ channels: [String], toGroup group: String, completion: @escaping @Sendable (PNStatus) -> Void) {
        acknowledge(addRequest(channels, group), completion: completion)
    }

    /// Removes channels from a group.
    public func removeChannels(_ channels: [String], fromGroup group: String) async -> PNStatus {
        await acknowledge(removeRequest(channels, group))
    }

    public func removeChannels(_ channels: [String], fromGroup group: String, completion: @escaping @Sendable (PNStatus) -> Void) {
        acknowledge(removeRequest(channels, group), completion: completion)
    }

    /// Deletes a group.
    public func removeGroup(_ group: String) async -> PNStatus {
        await acknowledge(groupRequest(group, [], .removeGroup, suffix: "/remove"))
    }

    public func removeGroup(_ group: String, completion: @escaping @Sendable (PNStatus) -> Void) {
        acknowledge(groupRequest(group, [], .removeGroup, suffix: "/remove"), completion: completion)
    }

    /// Channels of a group.
    public func channels(inGroup group: String) async throws(PNStatus) -> PNChannelGroupChannelsResult {
        let request = try groupRequest(group, [], .channelsForGroup).get()
        return try await perform(request, parse: Self.shaped(request, Self.parseGroupChannels)).get()
    }

    public func channels(inGroup group: String, completion: @escaping @Sendable (Result<PNChannelGroupChannelsResult, PNStatus>) -> Void) {
        switch groupRequest(group, [], .channelsForGroup) {
        case .success(let request): run(request, parse: Self.shaped(request, Self.parseGroupChannels), deliver: completion)
        case .failure(let status): completion(.failure(status))
        }
    }

    /// All groups of the subscribe key.
    public func channelGroups() async throws(PNStatus) -> PNChannelGroupsResult {
        let request = PubNubRequest(operation: .channelGroups, path: registry(nil))
        return try await perform(request, parse: Self.shaped(request, Self.parseGroups)).get()
    }

    public func channelGroups(completion: @escaping @Sendable (Result<PNChannelGroupsResult, PNStatus>) -> Void) {
        let request = PubNubRequest(operation: .channelGroups, path: registry(nil))
        run(request, parse: Self.shaped(request, Self.parseGroups), deliver: completion)
    }

    static func parseGroupChannels(_ body: JSONValue) -> PNChannelGroupChannelsResult? {
        body["payload"]?["channels"]?.arrayValue.map { PNChannelGroupChannelsResult(channels: $0.compactMap(\.stringValue)) }
    }

    static func parseGroups(_ body: JSONValue) -> PNChannelGroupsResult? {
        body["payload"]?["groups"]?.arrayValue.map { PNChannelGroupsResult(groups: $0.compactMap(\.stringValue)) }
    }
}
