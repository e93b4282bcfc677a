// SPDX-License-Identifier: MIT
import HarnessJSON

/// Everything the core knows, as one value: guarded by `PusherCore`'s mutex, changed by one input
/// at a time. Handlers live in extensions, one file per concern.
struct PusherState {
    var apps: [String: PusherAppState] = [:]
    var appIDByKey: [String: String] = [:]
    var connections: [PusherConnectionID: PusherConnection] = [:]
    /// The socket ids in use (each is given once among the open connections).
    var socketIDsInUse: Set<PusherSocketID> = []
    var socketIDs: PusherSocketIDGenerator
    var timers = PusherDeadlineHeap()
    /// Wraps after 2^32 connections: an entry that old has long been popped.
    var nextGeneration: UInt32 = 1
    /// The subscription list set last: an equal one (thousands of connections subscribed alike)
    /// shares its storage.
    var lastSubscriptions = PusherSubscriptionList()

    init(apps: [PusherApp], socketIDs: PusherSocketIDGenerator) {
        self.socketIDs = socketIDs
        for app in apps {
            self.apps[app.id] = PusherAppState(app: app)
            appIDByKey[app.key] = app.id
        }
    }
}

/// One app's channels and cache.
struct PusherAppState {
    var app: PusherApp
    /// Occupied channels only: a channel disappears with its last subscriber.
    var channels: [String: PusherChannel] = [:]
    /// The last event triggered on each cache channel (spec §3.7).
    var cache: [String: PusherCachedEvent] = [:]
    /// Signed-in users and watchlists (`PusherWatchlist.swift`).
    var users = PusherUserDirectory()
}

struct PusherCachedEvent {
    var event: String
    var data: String
    var expires: PusherInstant
}

/// One occupied channel.
struct PusherChannel {
    var subscribers: Set<PusherConnectionID> = []
    /// Presence channels only.
    var roster = PusherPresenceRoster()

    /// Subscribers in a stable order (connection id), so fan-out is deterministic.
    var orderedSubscribers: [PusherConnectionID] { subscribers.sorted() }
}

/// One open connection that completed `connection_established`. Held once per connection, so its
/// fields are laid out small: the rarely set signed-in user lives out of line, the socket id is one
/// word and the connection's id is the table's key only.
struct PusherConnection {
    let appID: String
    let socketIDValue: PusherSocketID
    var socketID: String { socketIDValue.description }
    /// Subscribed channels; for presence channels the member's user id.
    var subscriptions = PusherSubscriptionList()
    /// Set by a successful `pusher:signin`.
    var signedIn: PusherSignedInUser? {
        get { signedInBox?.user }
        set { signedInBox = newValue.map(PusherSignedInUserBox.init) }
    }
    private var signedInBox: PusherSignedInUserBox?
    /// Last input of any kind from the client.
    var lastActivity: PusherInstant
    /// Instants of the client events accepted within the last second.
    var recentClientEvents: [PusherInstant] = []
    /// When the server's probe (WebSocket ping or `pusher:ping`) went out, if it is unanswered.
    var probeSentAt: PusherInstant?
    private let storedProtocolVersion: UInt8
    /// Tells this connection's timer entries from those of an earlier one with the same id (last,
    /// with the version byte, in the word after the probe instant).
    let generation: UInt32

    var protocolVersion: Int { Int(storedProtocolVersion) }

    init(appID: String, socketID: PusherSocketID, protocolVersion: Int, generation: UInt32, lastActivity: PusherInstant) {
        self.appID = appID
        self.socketIDValue = socketID
        // Only supported versions (4-7) get this far.
        self.storedProtocolVersion = UInt8(clamping: protocolVersion)
        self.generation = generation
        self.lastActivity = lastActivity
    }
}

/// A signed-in user, shared by reference: immutable, so copies of a connection share it.
final class PusherSignedInUserBox: Sendable {
    let user: PusherSignedInUser
    init(_ user: PusherSignedInUser) { self.user = user }
}

/// One subscription of a connection.
package struct PusherSubscription: Hashable {
    package var presenceUserID: String?

    package init(presenceUserID: String?) { self.presenceUserID = presenceUserID }
}

struct PusherSignedInUser: Hashable {
    var id: String
    /// The `user_data` text as signed.
    var userData: String
    /// `user_info` inside `user_data`, used for presence subscribe without `channel_data`.
    var userInfo: JSONValue?
    /// The ids of `watchlist` inside `user_data` (empty when over the app's limit).
    var watchlist: [String] = []
}

extension PusherState {
    /// Forgets `connection`: leaves every channel (member_removed, vacated); its timer entry is
    /// discarded when it comes due.
    mutating func forget(_ connection: PusherConnectionID, into actions: inout [PusherAction]) {
        guard let state = connections.removeValue(forKey: connection) else { return }
        socketIDsInUse.remove(state.socketIDValue)
        if let user = state.signedIn { userSignedOut(connection, user: user, appID: state.appID, into: &actions) }
        for channel in state.subscriptions.channels {
            leave(channel, connection: connection, state: state, into: &actions)
        }
    }

    /// Sends a close frame, then forgets the connection.
    mutating func close(_ connection: PusherConnectionID, code: UInt16, reason: String, into actions: inout [PusherAction]) {
        actions.append(.close(connection, code: code, reason: Self.closeReason(reason)))
        forget(connection, into: &actions)
    }

    /// A close reason fits in 123 bytes of UTF-8 (RFC 6455 §5.5); longer ones are cut at a character.
    static func closeReason(_ reason: String) -> String {
        guard reason.utf8.count > 123 else { return reason }
        var cut = ""
        for character in reason {
            guard cut.utf8.count + String(character).utf8.count <= 123 else { break }
            cut.append(character)
        }
        return cut
    }

    /// Removes `connection` (whose record is `state`) from `channel`; presence and occupancy consequences included.
    mutating func leave(_ channel: String, connection: PusherConnectionID, state connectionState: PusherConnection, into actions: inout [PusherAction]) {
        let appID = connectionState.appID
        let presenceUserID = connectionState.subscriptions[channel]?.presenceUserID
        let outcome = updateChannel(appID, channel) { state in
            state.subscribers.remove(connection)
            let lastOfUser = presenceUserID.map { state.roster.remove($0, connection: connection) } ?? false
            return (lastOfUser: lastOfUser, vacated: state.subscribers.isEmpty)
        }
        guard let outcome else { return }
        if outcome.lastOfUser, let userID = presenceUserID {
            let data: JSONValue = ["user_id": .string(userID)]
            let frame = PusherFrames.event("pusher_internal:member_removed", data: data.jsonText, channel: channel)
            for receiver in apps[appID]?.channels[channel]?.orderedSubscribers ?? [] { actions.append(.send(receiver, frame)) }
            actions.append(.webhook(appID: appID, .memberRemoved(channel: channel, userID: userID)))
        }
        if outcome.vacated {
            apps[appID]?.channels[channel] = nil
            actions.append(.webhook(appID: appID, .channelVacated(channel: channel)))
        } else {
            subscriptionCountChanged(appID: appID, channel: channel, into: &actions)
        }
    }

    /// Runs `body` on one occupied channel in place (a copy would duplicate its subscriber set);
    /// nil when the channel is not occupied.
    mutating func updateChannel<Result>(_ appID: String, _ channel: String, _ body: (inout PusherChannel) -> Result) -> Result? {
        // Taken out while it changes, so its storage is uniquely referenced and changes in place.
        guard var state = apps[appID]?.channels.removeValue(forKey: channel) else { return nil }
        defer { apps[appID]?.channels[channel] = state }
        return body(&state)
    }

    /// `pusher_internal:subscription_count` to a non-presence channel's subscribers, when the app wants it.
    mutating func subscriptionCountChanged(appID: String, channel: String, into actions: inout [PusherAction]) {
        guard let app = apps[appID], app.app.options.subscriptionCountEvents, !PusherChannelKind(name: channel).isPresence,
            let state = app.channels[channel]
        else { return }
        let data: JSONValue = ["subscription_count": .int(state.subscribers.count)]
        let frame = PusherFrames.event("pusher_internal:subscription_count", data: data.jsonText, channel: channel)
        for receiver in state.orderedSubscribers { actions.append(.send(receiver, frame)) }
        actions.append(.webhook(appID: appID, .subscriptionCount(channel: channel, count: state.subscribers.count)))
    }
}
