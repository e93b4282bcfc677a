// SPDX-License-Identifier: MIT
import HarnessJSON

/// Where one channel's subscription is.
public enum PusherSubscriptionStatus: Sendable, Hashable {
    /// Wanted, not sent (no connection yet, or the connection was lost).
    case pending
    /// Waiting for the authorizer.
    case authorizing
    /// `pusher:subscribe` sent, waiting for `subscription_succeeded`.
    case subscribing
    case subscribed
    /// The authorization failed; retried after the next (re)connect.
    case failed
}

/// A client event waiting for its channel's subscription.
struct QueuedClientEvent: Sendable, Hashable {
    var name: String
    var data: JSONValue
}

/// One channel the app subscribed to.
struct PusherChannelRecord: Sendable, Hashable {
    let name: String
    let kind: PusherChannelType
    var status: PusherSubscriptionStatus = .pending
    var queued: [QueuedClientEvent] = []
    /// Presence members in arrival order.
    var members: [PusherMember] = []
    /// This connection's own presence user id, from the `channel_data` it subscribed with.
    var myUserID: String?
    /// The last `pusher_internal:subscription_count` of this connection (nil before one arrives).
    var subscriptionCount: Int?
    /// An encrypted channel's key, from its last authorization.
    var sharedSecret: [UInt8]?
    /// Encrypted events that did not open with `sharedSecret`, waiting for the key asked for again.
    var awaitingKey: [PusherEventMessage] = []

    init(name: String) {
        self.name = name
        kind = PusherChannelType(channelName: name)
    }

    /// Forgets what belonged to the lost connection; queued client events stay.
    mutating func connectionLost() {
        status = .pending
        members = []
        subscriptionCount = nil
        awaitingKey = []
    }

    /// Replaces the members from `subscription_succeeded` data `{"presence":{"hash":{id: info}}}`
    /// (libPusher reads only `hash`).
    mutating func setMembers(fromSubscriptionData data: JSONValue?) {
        guard let hash = data?["presence"]?["hash"]?.objectValue else {
            members = []
            return
        }
        members = hash.map { PusherMember(userID: $0.key, userInfo: $0.value) }
    }

    /// Adds a member (replacing one with the same id); returns it.
    mutating func addMember(fromData data: JSONValue?) -> PusherMember? {
        guard let id = data?["user_id"].flatMap(PusherWire.identifier) else { return nil }
        let member = PusherMember(userID: id, userInfo: data?["user_info"])
        if let index = members.firstIndex(where: { $0.userID == id }) {
            members[index] = member
        } else {
            members.append(member)
        }
        return member
    }

    /// Removes a member; returns it (with its info) when it was known.
    mutating func removeMember(fromData data: JSONValue?) -> PusherMember? {
        guard let id = data?["user_id"].flatMap(PusherWire.identifier) else { return nil }
        guard let index = members.firstIndex(where: { $0.userID == id }) else { return PusherMember(userID: id) }
        return members.remove(at: index)
    }
}
