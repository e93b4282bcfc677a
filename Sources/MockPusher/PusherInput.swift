// SPDX-License-Identifier: MIT
import HarnessJSON

/// A `name=value` pair of the connection URL's query, decoded by the transport.
public struct PusherQueryItem: Sendable, Hashable {
    public var name: String
    public var value: String
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }
}

/// What the transport tells the core. Every input carries the instant it happened at.
public enum PusherInput: Sendable, Hashable {
    /// A WebSocket upgrade on `/app/KEY?query` completed.
    case connected(PusherConnectionID, appKey: String, query: [PusherQueryItem], now: PusherInstant)
    /// One complete text message (already UTF-8 checked by the transport).
    case text(PusherConnectionID, String, now: PusherInstant)
    /// One complete binary message.
    case binary(PusherConnectionID, now: PusherInstant)
    /// A WebSocket pong frame (the answer to `PusherAction.webSocketPing`).
    case pong(PusherConnectionID, now: PusherInstant)
    /// A WebSocket ping frame from the client (the transport answers it; the core counts it as activity).
    case ping(PusherConnectionID, now: PusherInstant)
    /// The connection is gone (close handshake done, TCP closed or reset).
    case closed(PusherConnectionID, now: PusherInstant)
    /// The clock reached a deadline the core asked for (`PusherCore.nextDeadline`), or later.
    case tick(now: PusherInstant)
}

/// What the core asks the transport to do, in order.
public enum PusherAction: Sendable, Hashable {
    /// Send one text message.
    case send(PusherConnectionID, String)
    /// Send a close frame with this code and reason, then close. The core has already forgotten the
    /// connection (presence left, channels vacated); a later `closed` input for it is a no-op.
    case close(PusherConnectionID, code: UInt16, reason: String)
    /// Send a WebSocket ping frame.
    case webSocketPing(PusherConnectionID)
    /// Deliver a webhook event of this app (batching, delays and signing are the transport's).
    case webhook(appID: String, PusherWebhookEvent)
}

/// A webhook event (spec §7), as a value.
public enum PusherWebhookEvent: Sendable, Hashable {
    case channelOccupied(channel: String)
    case channelVacated(channel: String)
    case memberAdded(channel: String, userID: String)
    case memberRemoved(channel: String, userID: String)
    /// `data` is the text the client sent (a JSON object's text when it sent an object).
    case clientEvent(channel: String, event: String, data: String, socketID: String, userID: String?)
    case cacheMiss(channel: String)
    case subscriptionCount(channel: String, count: Int)

    /// The webhook's `name`.
    public var name: String {
        switch self {
        case .channelOccupied: "channel_occupied"
        case .channelVacated: "channel_vacated"
        case .memberAdded: "member_added"
        case .memberRemoved: "member_removed"
        case .clientEvent: "client_event"
        case .cacheMiss: "cache_miss"
        case .subscriptionCount: "subscription_count"
        }
    }
}

extension PusherWebhookEvent {
    /// The event as it appears in a webhook body's `events` array (spec §7): `name` first, then the
    /// event's fields in the documented order; `user_id` only when present.
    public var json: JSONValue {
        var members: JSONObject = ["name": .string(name)]
        switch self {
        case .channelOccupied(let channel), .channelVacated(let channel), .cacheMiss(let channel):
            members["channel"] = .string(channel)
        case let .memberAdded(channel, userID), let .memberRemoved(channel, userID):
            members["channel"] = .string(channel)
            members["user_id"] = .string(userID)
        case let .clientEvent(channel, event, data, socketID, userID):
            members["channel"] = .string(channel)
            members["event"] = .string(event)
            members["data"] = .string(data)
            members["socket_id"] = .string(socketID)
            if let userID { members["user_id"] = .string(userID) }
        case let .subscriptionCount(channel, count):
            members["channel"] = .string(channel)
            members["subscription_count"] = .int(count)
        }
        return .object(members)
    }
}

/// The WebSocket endpoint's path (spec §2.1): `/app/KEY`.
public enum PusherPath {
    /// The key of `/app/KEY` (query already split off), or nil for any other path.
    public static func appKey(fromPath path: String) -> String? {
        guard path.hasPrefix("/app/") else { return nil }
        let key = path.dropFirst("/app/".count)
        guard !key.isEmpty, !key.contains("/") else { return nil }
        return String(key)
    }
}
