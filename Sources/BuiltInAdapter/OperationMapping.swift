// SPDX-License-Identifier: MIT
import ClientUnderTest
import ConformanceKit
import HarnessJSON

/// Maps each ``ClientOperation`` to a `PubNubClient` call and its outcome to an ``OperationResult``
/// (data shapes of docs/driver-protocol.md).
enum OperationMapping {
    static func perform(_ operation: ClientOperation, on client: PubNubClient) async throws -> OperationResult {
        do {
            switch operation {
            case .time:
                let result = try await client.time()
                return success(["timetoken": .string(String(result.timetoken))])
            case .publish(let channel, let message, let meta, let store, let usePOST, let customMessageType):
                let result = try await client.publish(message, channel: channel, meta: meta,
                                                      store: store, usePOST: usePOST, customMessageType: customMessageType)
                return .acknowledgment(data: ["timetoken": .string(String(result.timetoken))])
            case .signal(let channel, let message, let customMessageType):
                let result = try await client.signal(message, channel: channel, customMessageType: customMessageType)
                return .acknowledgment(data: ["timetoken": .string(String(result.timetoken))])
            case .fire(let channel, let message):
                let result = try await client.fire(message, channel: channel)
                return .acknowledgment(data: ["timetoken": .string(String(result.timetoken))])
            case .grant(let grant):
                return result(of: await client.grant(channels: grant.channels, channelGroups: grant.groups,
                                                     authKeys: grant.authKey.map { [$0] } ?? [], read: grant.read,
                                                     write: grant.write, manage: grant.manage, ttl: grant.ttlMinutes))
            case .grantToken, .revokeToken, .setToken, .parseToken:
                return await TokenOperationMapping.perform(operation, on: client)
            case .subscribe(let channels, let groups, let withPresence, let timetoken):
                try await client.subscribe(channels: channels, channelGroups: groups, withPresence: withPresence,
                                           timetoken: try timetokenValue(timetoken))
                // Taken; what happens next arrives as listener statuses (no category of its own).
                return OperationResult(category: nil, isError: false, statusCode: nil, data: [:])
            case .unsubscribe(let channels, let groups):
                return result(of: await client.unsubscribe(channels: channels, channelGroups: groups))
            case .unsubscribeAll:
                return result(of: await client.unsubscribeAll())
            case .disconnect:
                await client.disconnect()
                return OperationResult(category: nil, isError: false, statusCode: nil, data: [:])
            case .reconnect(let timetoken):
                await client.reconnect(timetoken: try timetokenValue(timetoken))
                return OperationResult(category: nil, isError: false, statusCode: nil, data: [:])
            case .hereNow(let channels, let groups, let includeUUIDs, let includeState):
                let result = try await client.hereNow(channels: channels, channelGroups: groups, includeUUIDs: includeUUIDs,
                                                      includeState: includeState)
                return success(hereNowData(result, includeUUIDs: includeUUIDs, includeState: includeState))
            case .whereNow(let uuid):
                let result = try await client.whereNow(uuid: uuid)
                return success(["channels": .array(result.channels.map { .string($0) })])
            case .setState(let channels, let groups, let state):
                let result = try await client.setState(state, channels: channels, channelGroups: groups)
                return .acknowledgment(data: ["channels": .object(JSONObject(result.channels))])
            case .getState(let channels, let groups, let uuid):
                let result = try await client.getState(channels: channels, channelGroups: groups, uuid: uuid)
                return success(["channels": .object(JSONObject(result.channels))])
            case .history(let channel, let start, let end, let count, let reverse, let includeTimetoken):
                let result = try await client.history(
                    channel: channel, start: try timetokenValue(start), end: try timetokenValue(end), count: count ?? 100,
                    reverse: reverse, includeTimetoken: includeTimetoken)
                let data: JSONValue = [
                    "messages": .array(result.messages.map(historyEntry)),
                    "start": .string(String(result.start)), "end": .string(String(result.end)),
                ]
                return historyResult(data, failed: result.messages.contains(where: \.decryptionFailed))
            case .fetchMessages(let channels, let start, let end, let max, let includeCustomMessageType, let includeMessageActions):
                let result = try await client.fetchMessages(channels: channels, start: try timetokenValue(start),
                                                            end: try timetokenValue(end), maximumPerChannel: max,
                                                            includeCustomMessageType: includeCustomMessageType,
                                                            includeMessageActions: includeMessageActions)
                let data: JSONValue = ["channels": .object(JSONObject(result.channels.mapValues { JSONValue.array($0.map(historyEntry)) }))]
                return historyResult(data, failed: result.channels.values.contains { $0.contains(where: \.decryptionFailed) })
            case .messageCounts(let channels, let timetokens):
                let values = try timetokens.map { try timetokenValue($0) ?? 0 }
                let result = try await client.messageCounts(channels: channels, timetokens: values)
                return success(["channels": .object(JSONObject(result.channels.mapValues { JSONValue.int($0) }))])
            case .deleteMessages(let channel, let start, let end):
                return result(of: await client.deleteMessages(channel: channel, start: try timetokenValue(start), end: try timetokenValue(end)))
            case .addChannelsToGroup(let group, let channels):
                return result(of: await client.addChannels(channels, toGroup: group))
            case .removeChannelsFromGroup(let group, let channels):
                return result(of: await client.removeChannels(channels, fromGroup: group))
            case .listChannelsInGroup(let group):
                let result = try await client.channels(inGroup: group)
                return success(["channels": .array(result.channels.map { .string($0) })])
            case .deleteGroup(let group):
                return result(of: await client.removeGroup(group))
            case .appContext(let operation):
                return try await AppContextMapping.perform(operation, on: client)
            case .files(let operation):
                return try await FileOperationMapping.perform(operation, on: client)
            case .push(let operation):
                return try await PushMapping.perform(operation, on: client)
            case .messageActions(let operation):
                return try await MessageActionMapping.perform(operation, on: client)
            }
        } catch let status as PNStatus {
            return result(of: status)
        }
    }

    /// A success that carries a result object (no category).
    static func success(_ data: JSONValue) -> OperationResult {
        OperationResult(category: nil, isError: false, statusCode: 200, data: data)
    }

    /// A status as a result: its category, error flag, HTTP status and error details.
    static func result(of status: PNStatus) -> OperationResult {
        let category = StatusCategory(rawValue: status.category.rawValue) ?? .unknown
        var data: JSONValue?
        if let errorData = status.errorData {
            var members: [String: JSONValue] = ["information": .string(errorData.information)]
            if !errorData.channels.isEmpty { members["channels"] = .array(errorData.channels.map { .string($0) }) }
            if !errorData.channelGroups.isEmpty { members["channelGroups"] = .array(errorData.channelGroups.map { .string($0) }) }
            if let body = errorData.body { members["body"] = body }
            data = .object(JSONObject(members))
        }
        return OperationResult(category: category, isError: status.isError,
                               statusCode: status.statusCode == 0 ? nil : status.statusCode, data: data)
    }

    /// History answered, but an entry failed to decrypt: reported with `PNDecryptionErrorCategory`.
    static func historyResult(_ data: JSONValue, failed: Bool) -> OperationResult {
        failed ? OperationResult(category: .decryptionError, isError: true, statusCode: 200, data: data) : success(data)
    }

    static func historyEntry(_ entry: PNHistoryMessage) -> JSONValue {
        var members: [String: JSONValue] = ["message": entry.message]
        if let timetoken = entry.timetoken { members["timetoken"] = .string(String(timetoken)) }
        if let customMessageType = entry.customMessageType { members["customMessageType"] = .string(customMessageType) }
        if let actions = entry.messageActions, !actions.isEmpty { members["actions"] = MessageActionMapping.historyActions(actions) }
        return .object(JSONObject(members))
    }

    static func hereNowData(_ result: PNHereNowResult, includeUUIDs: Bool, includeState: Bool) -> JSONValue {
        let channels = result.channels.mapValues { occupancy -> JSONValue in
            var members: [String: JSONValue] = ["occupancy": .int(occupancy.occupancy)]
            if includeUUIDs {
                members["uuids"] = .array(occupancy.occupants.map { occupant in
                    var entry: [String: JSONValue] = ["uuid": .string(occupant.uuid)]
                    if includeState, let state = occupant.state { entry["state"] = state }
                    return .object(JSONObject(entry))
                })
            }
            return .object(JSONObject(members))
        }
        return ["totalOccupancy": .int(result.totalOccupancy), "channels": .object(JSONObject(channels))]
    }

    /// A timetoken given as text; text that is not one is a broken case step.
    static func timetokenValue(_ text: String?) throws -> UInt64? {
        guard let text else { return nil }
        guard let value = UInt64(text) else {
            throw ClientAdapterError.protocolViolation("not a timetoken: \(text)")
        }
        return value
    }
}
