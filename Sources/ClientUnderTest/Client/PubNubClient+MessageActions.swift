// SPDX-License-Identifier: MIT

extension PubNubClient {
    /// The longest action type the service takes (the SDKs refuse longer ones before sending).
    public static let maximumMessageActionTypeLength = 15

    /// Adds the action `type`/`value` to the message published at `messageTimetoken` on `channel`;
    /// returns the action as the service stored it (with its action timetoken). Refused before
    /// sending (`PNBadRequestCategory`): an empty type or value, a type over 15 characters, a zero timetoken.
    public func addMessageAction(channel: String, messageTimetoken: UInt64, type: String, value: String)
        async throws(PNStatus) -> PNMessageAction
    {
        func refuse(_ text: String) -> PNStatus {
            PNStatus(category: .badRequest, operation: .addMessageAction, errorData: PNErrorData(information: text, channels: [channel]))
        }
        try NameValidation.check([channel], kind: "channel", operation: .addMessageAction)
        if messageTimetoken == 0 { throw refuse("message timetoken missing") }
        if type.isEmpty { throw refuse("action type missing") }
        if value.isEmpty { throw refuse("action value missing") }
        if type.count > Self.maximumMessageActionTypeLength {
            throw refuse("action type \"\(type)\" is longer than \(Self.maximumMessageActionTypeLength) characters")
        }
        let request = MessageActionEndpoints.add(subscribeKey: configuration.subscribeKey, channel: channel,
                                                 messageTimetoken: messageTimetoken, type: type, value: value)
        return try await perform(request, parse: Self.shaped(request, MessageActionEndpoints.parseAdded)).get()
    }

    /// The actions on `channel` with `end <= actionTimetoken < start` (either bound optional), the
    /// newest `limit` of them (service default 100) oldest first, and the next older page if any.
    public func messageActions(channel: String, start: UInt64? = nil, end: UInt64? = nil, limit: Int? = nil)
        async throws(PNStatus) -> PNMessageActionsResult
    {
        try NameValidation.check([channel], kind: "channel", operation: .fetchMessageActions)
        let request = MessageActionEndpoints.get(subscribeKey: configuration.subscribeKey, channel: channel, start: start, end: end,
                                                 limit: limit)
        return try await perform(request, parse: Self.shaped(request, MessageActionEndpoints.parseList)).get()
    }

    /// Removes the action added at `actionTimetoken` to the message at `messageTimetoken`.
    public func removeMessageAction(channel: String, messageTimetoken: UInt64, actionTimetoken: UInt64) async -> PNStatus {
        do throws(PNStatus) {
            try NameValidation.check([channel], kind: "channel", operation: .removeMessageAction)
        } catch { return error }
        if messageTimetoken == 0 || actionTimetoken == 0 {
            return PNStatus(category: .badRequest, operation: .removeMessageAction,
                            errorData: PNErrorData(information: "message or action timetoken missing", channels: [channel]))
        }
        return await acknowledge(MessageActionEndpoints.remove(subscribeKey: configuration.subscribeKey, channel: channel,
                                                              messageTimetoken: messageTimetoken, actionTimetoken: actionTimetoken))
    }
}
