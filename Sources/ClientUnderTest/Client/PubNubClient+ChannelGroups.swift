// SPDX-License-Identifier: MIT

extension PubNubClient {
    private func registry(_ group: String?) -> String {
        let base = "/v1/channel-registration/sub-key/\(PercentEncoding.encode(configuration.subscribeKey))/channel-group"
        return group.map { base + "/" + PercentEncoding.encode($0) } ?? base
    }

    private func checked(_ group: String, _ channels: [String], _ operation: PNOperationType) -> PNStatus? {
        do throws(PNStatus) {
            try NameValidation.check([group], kind: "channel group", operation: operation)
            try NameValidation.check(channels, kind: "channel", operation: operation)
            return nil
        } catch { return error }
    }

    /// Adds channels to a group.
    public func addChannels(_ channels: [String], toGroup group: String) async -> PNStatus {
        if let refused = checked(group, channels, .addChannelsToGroup) { return refused }
        return await acknowledge(PubNubRequest(operation: .addChannelsToGroup, path: registry(group),
                                               query: [("add", channels.joined(separator: ","))], channels: channels, groups: [group]))
    }

    /// Removes channels from a group.
    public func removeChannels(_ channels: [String], fromGroup group: String) async -> PNStatus {
        if let refused = checked(group, channels, .removeChannelsFromGroup) { return refused }
        return await acknowledge(PubNubRequest(operation: .removeChannelsFromGroup, path: registry(group),
                                               query: [("remove", channels.joined(separator: ","))], channels: channels, groups: [group]))
    }

    /// Deletes a group.
    public func removeGroup(_ group: String) async -> PNStatus {
        if let refused = checked(group, [], .removeGroup) { return refused }
        return await acknowledge(PubNubRequest(operation: .removeGroup, path: registry(group) + "/remove", groups: [group]))
    }

    /// Channels of a group.
    public func channels(inGroup group: String) async throws(PNStatus) -> PNChannelGroupChannelsResult {
        if let refused = checked(group, [], .channelsForGroup) { throw refused }
        let request = PubNubRequest(operation: .channelsForGroup, path: registry(group), groups: [group])
        return try await perform(request, parse: Self.shaped(request) { body in
            body["payload"]?["channels"]?.arrayValue.map { PNChannelGroupChannelsResult(channels: $0.compactMap(\.stringValue)) }
        }).get()
    }

    /// All groups of the subscribe key.
    public func channelGroups() async throws(PNStatus) -> PNChannelGroupsResult {
        let request = PubNubRequest(operation: .channelGroups, path: registry(nil))
        return try await perform(request, parse: Self.shaped(request) { body in
            body["payload"]?["groups"]?.arrayValue.map { PNChannelGroupsResult(groups: $0.compactMap(\.stringValue)) }
        }).get()
    }
}
