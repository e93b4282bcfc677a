// SPDX-License-Identifier: MIT
import HarnessJSON

/// Decoding of the lines a driver writes (docs/driver-protocol.md), pure.
enum DriverLines {
    /// What one driver line means.
    enum Line: Sendable, Equatable {
        case reply(id: Int, ReplyBody)
        case event(ClientEvent)
        case log(String)
    }

    enum ReplyBody: Sendable, Equatable {
        case result(OperationResult)
        case unsupported(String)
        case error(String)
    }

    static func decode(_ text: String) throws(ClientAdapterError) -> Line {
        guard let value = try? JSONValue.parse(text), value.objectValue != nil else {
            throw .protocolViolation("not a JSON object: \(text.prefix(200))")
        }
        guard let type = value["type"]?.stringValue else {
            throw .protocolViolation("line without \"type\": \(text.prefix(200))")
        }
        if let id = value["id"]?.intValue, ["result", "unsupported", "error"].contains(type) {
            switch type {
            case "unsupported":
                return .reply(id: id, .unsupported(value["detail"]?.stringValue ?? "operation"))
            case "error":
                return .reply(id: id, .error(value["detail"]?.stringValue ?? "driver error"))
            default:
                var resultCategory: StatusCategory?
                if let raw = value["category"] { resultCategory = try category(raw) }
                return .reply(id: id, .result(OperationResult(
                    category: resultCategory,
                    isError: value["error"]?.boolValue ?? false,
                    statusCode: value["statusCode"]?.intValue,
                    data: value["data"])))
            }
        }
        switch type {
        case "status":
            guard let raw = value["category"], let category = try category(raw) else {
                throw .protocolViolation("status without category: \(text.prefix(200))")
            }
            return .event(.status(StatusEvent(category: category, operation: value["operation"]?.stringValue,
                                              timetoken: timetoken(value["timetoken"]))))
        case "message", "signal":
            guard let channel = value["channel"]?.stringValue, let message = value["message"] else {
                throw .protocolViolation("message without channel or message: \(text.prefix(200))")
            }
            return .event(.message(MessageEvent(
                channel: channel, subscription: value["subscription"]?.stringValue, message: message,
                publisher: value["publisher"]?.stringValue, timetoken: timetoken(value["timetoken"]),
                isSignal: type == "signal" || value["signal"]?.boolValue == true,
                decryptionFailed: value["decryptionFailed"]?.boolValue ?? false,
                customMessageType: value["customMessageType"]?.stringValue)))
        case "file":
            // A file event: `message` is `{"message"?: …, "file": {"id", "name"}}` (docs/driver-protocol.md).
            guard let channel = value["channel"]?.stringValue, let message = value["message"] else {
                throw .protocolViolation("file event without channel or message: \(text.prefix(200))")
            }
            return .event(.message(MessageEvent(
                channel: channel, subscription: value["subscription"]?.stringValue, message: message,
                publisher: value["publisher"]?.stringValue, timetoken: timetoken(value["timetoken"]),
                decryptionFailed: value["decryptionFailed"]?.boolValue ?? false, isFile: true,
                customMessageType: value["customMessageType"]?.stringValue)))
        case "presence":
            guard let channel = value["channel"]?.stringValue, let action = value["action"]?.stringValue else {
                throw .protocolViolation("presence without channel or action: \(text.prefix(200))")
            }
            return .event(.presence(PresenceEvent(channel: channel, action: action, uuid: value["uuid"]?.stringValue,
                                                  occupancy: value["occupancy"]?.intValue, state: value["state"])))
        case "appContext":
            guard let channel = value["channel"]?.stringValue, let event = value["event"]?.stringValue,
                  let entity = value["entity"]?.stringValue else {
                throw .protocolViolation("appContext without channel, event or entity: \(text.prefix(200))")
            }
            return .event(.appContext(AppContextEvent(channel: channel, event: event, type: entity, data: value["data"] ?? .null)))
        case "messageAction":
            // A message action added or removed (e = 3): `action` is `{type, value, uuid, messageTimetoken, actionTimetoken}`.
            guard let channel = value["channel"]?.stringValue, let action = value["action"], action.objectValue != nil else {
                throw .protocolViolation("messageAction without channel or action object: \(text.prefix(200))")
            }
            return .event(.messageAction(MessageActionEvent(channel: channel, event: value["event"]?.stringValue, action: action)))
        case "log":
            return .log(value["text"]?.stringValue ?? "")
        default:
            throw .protocolViolation("unknown line type \"\(type)\"")
        }
    }

    /// A timetoken as the driver wrote it, exactly: a string, or a JSON number's digits.
    private static func timetoken(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text)?, .number(let text)?: text
        default: nil
        }
    }

    /// A category name; names outside the 4.x set (another SDK's own) count as `PNUnknownCategory`.
    private static func category(_ value: JSONValue) throws(ClientAdapterError) -> StatusCategory? {
        if value == .null { return nil }
        guard let name = value.stringValue else { throw .protocolViolation("category is not a string") }
        return StatusCategory(rawValue: name) ?? .unknown
    }
}
