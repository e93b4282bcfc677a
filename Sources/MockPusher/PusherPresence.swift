// SPDX-License-Identifier: MIT
import HarnessJSON

/// The members of one presence channel: one entry per distinct user, however many of its
/// connections are subscribed (spec §3.4). Members keep their join order.
struct PusherPresenceRoster {
    private(set) var order: [String] = []
    private var members: [String: Member] = [:]

    struct Member {
        var info: JSONValue?
        var connections: Set<PusherConnectionID>
    }

    var count: Int { order.count }
    func contains(_ userID: String) -> Bool { members[userID] != nil }

    /// Adds a connection of `userID`; true when the user is new (member_added is due).
    /// The first connection's `user_info` stays the member's.
    mutating func add(_ userID: String, info: JSONValue?, connection: PusherConnectionID) -> Bool {
        if members[userID] != nil {
            members[userID]?.connections.insert(connection)
            return false
        }
        members[userID] = Member(info: info, connections: [connection])
        order.append(userID)
        return true
    }

    /// Removes a connection of `userID`; true when it was the user's last (member_removed is due).
    mutating func remove(_ userID: String, connection: PusherConnectionID) -> Bool {
        guard var member = members[userID] else { return false }
        member.connections.remove(connection)
        guard member.connections.isEmpty else {
            members[userID] = member
            return false
        }
        members[userID] = nil
        order.removeAll { $0 == userID }
        return true
    }

    /// `{"presence":{"ids":[…],"hash":{id:user_info},"count":N}}` (spec §3.3). A member without
    /// `user_info` maps to `null` (UNVERIFIED: the doc never shows a member without one).
    var subscriptionData: JSONValue {
        let hash = JSONObject(order.map { ($0, members[$0]?.info ?? .null) })
        return ["presence": ["ids": .array(order.map { .string($0) }), "hash": .object(hash), "count": .int(order.count)]]
    }
}

/// The member a presence subscription declares, read from `channel_data` (or the signin).
struct PusherPresenceMember {
    var userID: String
    var info: JSONValue?

    /// Reads `{"user_id": String|Number, "user_info"?: Object}`; ids compare as strings (spec §3.4).
    init?(channelData: String) {
        guard case .object(let members)? = try? JSONValue.parse(channelData, maxDepth: 64) else { return nil }
        switch members["user_id"] {
        case .string(let text)? where !text.isEmpty: userID = text
        case .number(let text)?: userID = text
        default: return nil
        }
        info = members["user_info"]
    }

    init(userID: String, info: JSONValue?) {
        self.userID = userID
        self.info = info
    }
}

extension PusherState {
    /// Checks the presence limits; the message of the `pusher:error` when one is exceeded.
    /// UNVERIFIED texts: the doc gives the limits (presence-channels.md), not the service's wording.
    func presenceLimitViolation(_ member: PusherPresenceMember, channel: String, appID: String) -> String? {
        guard let options = apps[appID]?.app.options else { return nil }
        if member.userID.count > options.presenceMaxUserIDLength {
            return "Invalid user id in channel_data for \(channel): longer than \(options.presenceMaxUserIDLength) characters"
        }
        if let info = member.info, info.jsonBytes.count > options.presenceMaxUserInfoBytes {
            return "Invalid user info in channel_data for \(channel): larger than \(options.presenceMaxUserInfoBytes) bytes"
        }
        let count = apps[appID]?.channels[channel]?.roster.count ?? 0
        let present = apps[appID]?.channels[channel]?.roster.contains(member.userID) ?? false
        if !present, count >= options.presenceMaxMembers {
            return "Presence channel \(channel) is full: at most \(options.presenceMaxMembers) members"
        }
        return nil
    }

    /// Joins `member` to a presence channel the connection was just added to: member_added to the
    /// others when the user is new, then subscription_succeeded with the roster to the joiner.
    mutating func joinPresence(
        _ member: PusherPresenceMember, channel: String, connection: PusherConnectionID, appID: String, into actions: inout [PusherAction]
    ) {
        let isNewUser = updateChannel(appID, channel) { $0.roster.add(member.userID, info: member.info, connection: connection) }
        guard let isNewUser else { return }
        if isNewUser {
            var data: JSONObject = ["user_id": .string(member.userID)]
            if let info = member.info { data["user_info"] = info }
            let frame = PusherFrames.event("pusher_internal:member_added", data: JSONValue.object(data).jsonText, channel: channel)
            for receiver in apps[appID]?.channels[channel]?.orderedSubscribers ?? [] where receiver != connection {
                actions.append(.send(receiver, frame))
            }
            actions.append(.webhook(appID: appID, .memberAdded(channel: channel, userID: member.userID)))
        }
        let roster = apps[appID]?.channels[channel]?.roster.subscriptionData ?? .null
        actions.append(.send(connection, PusherFrames.event("pusher_internal:subscription_succeeded", data: roster.jsonText, channel: channel)))
    }
}
