// SPDX-License-Identifier: MIT
import MockPusher

/// One event to trigger, decoded from an `events` body or one `batch` entry, with the limits checked.
public struct PusherEventsRequest: Sendable, Hashable {
    public var name: String
    public var data: String
    public var channels: [String]
    public var socketID: String?
    /// Attributes asked for in `info` (`user_count`, `subscription_count`).
    public var info: [String]

    /// Most channels one `events` request may name [doc] §6.1.
    public static let maxChannels = 100
    /// Most events in one `batch_events` request [doc] §6.1 (multi-tenant clusters).
    public static let maxBatchEvents = 10
    /// Largest `data`, in bytes [doc] §6.1 (10 KB).
    public static let maxDataBytes = 10_240
    /// Longest event name [doc] (REST ref: 200 characters).
    public static let maxNameLength = 200

    /// Decodes an `events` body (`channels` array or `channel`).
    public static func events(body: [UInt8]) throws(PusherAPIError) -> PusherEventsRequest {
        try decode(object(body), batch: false)
    }

    /// Decodes a `batch_events` body; every entry is checked before any is triggered.
    public static func batch(body: [UInt8]) throws(PusherAPIError) -> [PusherEventsRequest] {
        guard let entries = try object(body)["batch"]?.arrayValue else {
            throw .badRequest("Expected batch parameter to be an array of events\n")  // UNVERIFIED text
        }
        guard entries.count <= maxBatchEvents else {
            throw .badRequest("Batch too large: \(entries.count) events, at most \(maxBatchEvents) are allowed\n")  // UNVERIFIED text
        }
        var events: [PusherEventsRequest] = []
        for entry in entries {
            guard let members = entry.objectValue else { throw .badRequest("Expected each batch entry to be an object\n") }  // UNVERIFIED
            events.append(try decode(members, batch: true))
        }
        return events
    }

    private static func object(_ body: [UInt8]) throws(PusherAPIError) -> JSONObject {
        guard let value = try? JSONValue.parse(body), let members = value.objectValue else {
            throw .badRequest("Request body is not a JSON object\n")  // UNVERIFIED text
        }
        return members
    }

    private static func decode(_ members: JSONObject, batch: Bool) throws(PusherAPIError) -> PusherEventsRequest {
        guard let name = members["name"]?.stringValue else { throw .badRequest("Expected name parameter to be a string\n") }  // [obs]
        guard name.count <= maxNameLength else { throw .badRequest("Event name too long: at most \(maxNameLength) characters\n") }  // UNVERIFIED
        guard let data = members["data"]?.stringValue else { throw .badRequest("Expected data parameter to be a string\n") }  // UNVERIFIED
        guard data.utf8.count <= maxDataBytes else { throw .payloadTooLarge(data.utf8.count) }
        let channels: [String]
        if !batch, let list = members["channels"]?.arrayValue {
            let names = list.compactMap(\.stringValue)
            guard names.count == list.count, !names.isEmpty else {
                throw .badRequest("Expected channels parameter to be an array of strings\n")  // UNVERIFIED
            }
            guard names.count <= maxChannels else {
                throw .badRequest("Too many channels: \(names.count), at most \(maxChannels) are allowed\n")  // UNVERIFIED
            }
            // UNVERIFIED (spec §4.3): the HTTP libraries refuse to trigger on several channels when one is
            // `private-encrypted-`; the service never decrypts, so such a request is relayed like any other.
            channels = names
        } else if let channel = members["channel"]?.stringValue {
            channels = [channel]
        } else {
            throw .badRequest(batch ? "Expected channel parameter to be a string\n" : "Expected channels parameter to be an array of strings\n")  // UNVERIFIED
        }
        let socketID: String?
        switch members["socket_id"] {
        case nil, .null?: socketID = nil
        case .string(let value)? where isSocketID(value): socketID = value
        default: throw .badRequest("Invalid socket_id: expected digits.digits\n")  // UNVERIFIED text; the format is [code] §3.2
        }
        let info = members["info"]?.stringValue.map { $0.split(separator: ",").map { String($0) } } ?? []
        return PusherEventsRequest(name: name, data: data, channels: channels, socketID: socketID, info: info)
    }

    /// `\d+\.\d+`, the socket id format.
    static func isSocketID(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 2 && parts.allSatisfy { !$0.isEmpty && $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }
    }
}
