// SPDX-License-Identifier: MIT
import HarnessJSON

/// The cursor of a subscribe response (`t.t`, `t.r`).
struct SubscribeCursor: Sendable, Equatable {
    var timetoken: UInt64
    var region: Int?
}

/// One envelope of a subscribe response (an element of `m`).
struct SubscribeEnvelope: Sendable, Equatable {
    var channel: String
    var subscription: String?
    var timetoken: UInt64
    var type: Int
    var publisher: String?
    var payload: JSONValue
    var userMetadata: JSONValue?
    /// `cmt`: the publisher's custom message type.
    var customMessageType: String? = nil
}

/// Parses `{"t":{"t":"…","r":N},"m":[…]}`; nil when the shape is wrong.
enum SubscribeResponseParser {
    static func parse(_ body: JSONValue) -> (cursor: SubscribeCursor, envelopes: [SubscribeEnvelope])? {
        guard let t = body["t"], let tt = t["t"]?.timetokenValue else { return nil }
        let region = t["r"]?.int64Value.map { Int($0) }
        guard let items = body["m"]?.arrayValue else { return nil }
        var envelopes: [SubscribeEnvelope] = []
        for item in items {
            guard let channel = item["c"]?.stringValue, let payload = item["d"],
                let publishTT = item["p"]?["t"]?.timetokenValue
            else { return nil }
            let subscription = item["b"]?.stringValue
            let type: Int = if let e = item["e"]?.int64Value { Int(e) } else { channel.hasSuffix("-pnpres") ? 99 : 0 }
            envelopes.append(SubscribeEnvelope(channel: channel, subscription: subscription == channel ? nil : subscription,
                                               timetoken: publishTT, type: type, publisher: item["i"]?.stringValue,
                                               payload: payload, userMetadata: item["u"], customMessageType: item["cmt"]?.stringValue))
        }
        return (SubscribeCursor(timetoken: tt, region: region), envelopes)
    }

    static func presenceEvent(from envelope: SubscribeEnvelope) -> PNPresenceEvent? {
        let d = envelope.payload
        guard let action = d["action"]?.stringValue else { return nil }
        let channel = envelope.channel.hasSuffix("-pnpres") ? String(envelope.channel.dropLast(7)) : envelope.channel
        var subscription = envelope.subscription
        if let s = subscription, s.hasSuffix("-pnpres") { subscription = String(s.dropLast(7)) }
        if subscription == channel { subscription = nil }
        func names(_ key: String) -> [String] { d[key]?.arrayValue?.compactMap(\.stringValue) ?? [] }
        return PNPresenceEvent(channel: channel, subscription: subscription, timetoken: envelope.timetoken, event: action,
                               uuid: d["uuid"]?.stringValue, occupancy: d["occupancy"]?.int64Value.map { Int($0) },
                               timestamp: d["timestamp"]?.int64Value, state: d["data"],
                               join: names("join"), leave: names("leave"), timeout: names("timeout"))
    }
}

/// Remembers recently delivered (timetoken, channel) pairs so a catch-up does not deliver them twice.
struct DeliveredMessageCache {
    private var order: [String] = []
    private var seen: Set<String> = []
    let capacity: Int

    init(capacity: Int = 1000) { self.capacity = capacity }

    /// True when the pair is new (and records it).
    mutating func insert(timetoken: UInt64, channel: String) -> Bool {
        let key = "\(timetoken)/\(channel)"
        guard seen.insert(key).inserted else { return false }
        order.append(key)
        if order.count > capacity { seen.remove(order.removeFirst()) }
        return true
    }
}
