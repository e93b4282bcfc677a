// SPDX-License-Identifier: MIT
import ClientUnderTest
import ConformanceKit
import HarnessJSON

/// Maps the message-action operations to `PubNubClient` calls (data shapes of docs/driver-protocol.md).
enum MessageActionMapping {
    static func perform(_ operation: MessageActionOperation, on client: PubNubClient) async throws -> OperationResult {
        switch operation {
        case .add(let channel, let messageTimetoken, let type, let value):
            let action = try await client.addMessageAction(channel: channel, messageTimetoken: try timetoken(messageTimetoken),
                                                           type: type, value: value)
            return .acknowledgment(data: data(action))
        case .get(let channel, let start, let end, let limit):
            let result = try await client.messageActions(channel: channel, start: try start.map(timetoken), end: try end.map(timetoken),
                                                         limit: limit)
            var members: [String: JSONValue] = ["actions": .array(result.actions.map(data))]
            if let more = result.more {
                var page: [String: JSONValue] = ["start": .string(String(more.start))]
                if let end = more.end { page["end"] = .string(String(end)) }
                if let limit = more.limit { page["limit"] = .int(limit) }
                if let url = more.url { page["url"] = .string(url) }
                members["more"] = .object(JSONObject(page))
            }
            return OperationMapping.success(.object(JSONObject(members)))
        case .remove(let channel, let messageTimetoken, let actionTimetoken):
            return OperationMapping.result(of: await client.removeMessageAction(
                channel: channel, messageTimetoken: try timetoken(messageTimetoken), actionTimetoken: try timetoken(actionTimetoken)))
        }
    }

    /// An action as the driver protocol shows it (timetokens as strings).
    static func data(_ action: PNMessageAction) -> JSONValue {
        ["type": .string(action.type), "value": .string(action.value), "uuid": .string(action.uuid),
         "messageTimetoken": .string(String(action.messageTimetoken)), "actionTimetoken": .string(String(action.actionTimetoken))]
    }

    /// A fetched message's actions in the service's shape: type → value → `[{uuid, actionTimetoken}]`.
    static func historyActions(_ actions: [PNMessageAction]) -> JSONValue {
        var types: [(String, [(String, [JSONValue])])] = []
        for action in actions {
            let entry: JSONValue = ["uuid": .string(action.uuid), "actionTimetoken": .string(String(action.actionTimetoken))]
            let typeIndex = types.firstIndex { $0.0 == action.type } ?? {
                types.append((action.type, []))
                return types.count - 1
            }()
            if let valueIndex = types[typeIndex].1.firstIndex(where: { $0.0 == action.value }) {
                types[typeIndex].1[valueIndex].1.append(entry)
            } else {
                types[typeIndex].1.append((action.value, [entry]))
            }
        }
        return .object(JSONObject(types.map { type, values in (type, JSONValue.object(JSONObject(values.map { ($0.0, JSONValue.array($0.1)) }))) }))
    }

    /// A timetoken placeholder that was never filled, or other text, is a broken case step.
    private static func timetoken(_ text: String) throws -> UInt64 {
        guard let value = try OperationMapping.timetokenValue(text) else { throw ClientAdapterError.protocolViolation("no timetoken") }
        return value
    }
}
