// SPDX-License-Identifier: MIT
import HarnessJSON

/// The presence observer's protocol logic (pure): the subscribe request it sends next and what
/// one subscribe answer means for it (the cursor to go on from, the presence events it carried).
enum ObserverFeed {
    /// Where the loop stands: the cursor of the next long-poll (`tt` 0 before the handshake).
    struct Cursor: Sendable, Hashable {
        var timetoken: String = "0"
        var region: Int?
    }

    /// One answer understood: the next cursor and the presence events in arrival order.
    struct Page: Sendable, Hashable {
        var cursor: Cursor
        var events: [PresenceEvent]
    }

    /// The presence channels the observer reads for `channels` (`ch` → `ch-pnpres`; a name
    /// already ending in `-pnpres` is kept).
    static func presenceChannels(_ channels: [String]) -> [String] {
        channels.map { $0.hasSuffix(suffix) ? $0 : $0 + suffix }
    }

    static let suffix = "-pnpres"

    /// The request target of the subscribe at `cursor` (spec §5.1: `/v2/subscribe/{sub}/{channels}/0`).
    static func target(subscribeKey: String, channels: [String], uuid: String, cursor: Cursor) -> String {
        let names = presenceChannels(channels).map(segment).joined(separator: ",")
        var query = [("uuid", uuid), ("tt", cursor.timetoken)]
        if let region = cursor.region { query.append(("tr", String(region))) }
        let text = query.map { "\($0.0)=\(segment($0.1))" }.joined(separator: "&")
        return "/v2/subscribe/\(segment(subscribeKey))/\(names)/0?\(text)"
    }

    /// Reads a subscribe answer (`{"t":{"t","r"},"m":[…]}`); `nil` when it is not one (an error
    /// body, a fault's garbage): the loop then retries from the same cursor.
    static func parse(_ body: [UInt8]) -> Page? {
        guard let value = try? JSONValue.parse(body), let cursorObject = value["t"],
              let timetoken = timetokenText(cursorObject["t"]) else { return nil }
        let cursor = Cursor(timetoken: timetoken, region: cursorObject["r"]?.intValue)
        let events = (value["m"]?.arrayValue ?? []).compactMap(event)
        return Page(cursor: cursor, events: events)
    }

    /// One envelope as a presence event, when it is one (`c` ends in `-pnpres`, `d` has an action).
    static func event(_ envelope: JSONValue) -> PresenceEvent? {
        guard let channel = envelope["c"]?.stringValue, channel.hasSuffix(suffix),
              let payload = envelope["d"], let action = payload["action"]?.stringValue else { return nil }
        return PresenceEvent(channel: String(channel.dropLast(suffix.count)), action: action,
                             uuid: payload["uuid"]?.stringValue, occupancy: payload["occupancy"]?.intValue,
                             state: payload["data"])
    }

    private static func timetokenText(_ value: JSONValue?) -> String? {
        switch value {
        case .string(let text): text
        case .number(let text): text
        default: nil
        }
    }

    private static func segment(_ text: String) -> String {
        StepRunner.segment(text)
    }
}
