// SPDX-License-Identifier: MIT
import HarnessJSON

/// The `pusher:error` messages of subscriptions; all sent with `code: null` and the connection stays
/// open (spec §3.3). Texts marked live are quoted from the service's answers.
enum PusherSubscriptionError {
    /// Live (pusher-js #478).
    static func authRequired(_ channel: String) -> String { "Auth info required to subscribe to \(channel)" }
    /// Live (Pysher #22).
    static func authFormat(_ channel: String) -> String {
        "Auth value for subscription to \(channel) is invalid: should be of format 'key:signature'"
    }
    /// Live (pusher-js #289); the quoted key is the one the client sent.
    static func invalidKey(_ key: String) -> String { "Invalid key in subscription auth data: '\(key)'" }
    /// Live (pusher-websocket-java #205, pusher-http-php #170): the signed string, then the hex part received.
    static func invalidSignature(expectedInput: String, got: String) -> String {
        "Invalid signature: Expected HMAC SHA256 hex digest of \(expectedInput), but got \(got)"
    }
    /// Live (pusher-websocket-swift #106).
    static func existing(_ channel: String) -> String { "Existing subscription to channel \(channel)" }
    /// Live (render_sync #42).
    static func noCurrent(_ channel: String) -> String { "No current subscription to channel \(channel), or subscription in progress" }
    // UNVERIFIED texts below: no recording of the service's wording.
    static let missingChannel = "Invalid subscription: no channel name"
    static func invalidName(_ channel: String) -> String { "Invalid channel name '\(channel)'" }
    static func invalidChannelData(_ channel: String) -> String {
        "Invalid channel_data for \(channel): expected a JSON object with a user_id"
    }
    static func presenceNeedsUser(_ channel: String) -> String {
        "Subscription to \(channel) requires channel_data or a signed-in connection"
    }
    static func notThisUser(_ channel: String) -> String { "Subscription to \(channel) is only allowed to the user signed in as its id" }
}

extension PusherState {
    /// `pusher:subscribe {"channel","auth"?,"channel_data"?}`.
    mutating func subscribe(
        _ message: PusherClientMessage, from connection: PusherConnectionID, now: PusherInstant, into actions: inout [PusherAction]
    ) {
        // Only small values are held here: a copy of the app's state would make the mutations below
        // copy its channel table.
        guard let state = connections[connection], let app = apps[state.appID]?.app else { return }
        func refuse(_ text: String) { actions.append(.send(connection, PusherFrames.error(code: nil, message: text))) }
        let data = message.dataObject ?? [:]
        guard let channel = data["channel"]?.stringValue else { return refuse(PusherSubscriptionError.missingChannel) }
        guard PusherChannelKind.isValidName(channel) else { return refuse(PusherSubscriptionError.invalidName(channel)) }
        guard state.subscriptions[channel] == nil else { return refuse(PusherSubscriptionError.existing(channel)) }
        let kind = PusherChannelKind(name: channel)
        let channelData = data["channel_data"]?.stringValue
        var member: PusherPresenceMember?
        switch kind.access {
        case .public:
            break
        case .serverToUser(let userID):
            // UNVERIFIED (spec §10): another user's channel is refused; the `auth` value ("" from pusher-js) is not checked.
            guard state.signedIn?.id == userID else { return refuse(PusherSubscriptionError.notThisUser(channel)) }
        case .private, .encrypted, .presence:
            let signedData = kind.isPresence ? channelData : nil
            if let failure = authFailure(data["auth"]?.stringValue, channel: channel, channelData: signedData, state: state, app: app) {
                return refuse(failure)
            }
            guard kind.isPresence else { break }
            if let channelData {
                guard let declared = PusherPresenceMember(channelData: channelData) else {
                    return refuse(PusherSubscriptionError.invalidChannelData(channel))
                }
                member = declared
            } else if let user = state.signedIn {
                // Presence without channel_data on a signed-in connection (spec §3.4): the signin's user.
                member = PusherPresenceMember(userID: user.id, info: user.userInfo)
            } else {
                return refuse(PusherSubscriptionError.presenceNeedsUser(channel))
            }
            if let member, let violation = presenceLimitViolation(member, channel: channel, appID: state.appID) { return refuse(violation) }
        }
        add(connection, to: channel, member: member, appID: state.appID, now: now, into: &actions)
    }

    /// Why `auth` does not authorize this subscription, or nil. Signed over the exact `channel_data`
    /// bytes received (spec §4.2); without `channel_data` (presence after signin) over `socket_id:channel`.
    private func authFailure(_ auth: String?, channel: String, channelData: String?, state: PusherConnection, app: PusherApp) -> String? {
        guard let auth, !auth.isEmpty else { return PusherSubscriptionError.authRequired(channel) }
        let parts = auth.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return PusherSubscriptionError.authFormat(channel) }
        guard parts[0] == app.key else { return PusherSubscriptionError.invalidKey(String(parts[0])) }
        let input = PusherSignatures.channelAuthInput(socketID: state.socketID, channel: channel, channelData: channelData)
        let expected = PusherSignatures.hmacSHA256Hex(secret: app.secret, message: input)
        guard PusherSignatures.constantTimeEqual(expected, String(parts[1])) else {
            return PusherSubscriptionError.invalidSignature(expectedInput: input, got: String(parts[1]))
        }
        return nil
    }

    /// Adds the subscriber: channel_occupied for a new channel, then subscription_succeeded (with the
    /// roster on presence channels, after member_added to the others), a cache channel's replay (the
    /// first event after subscription_succeeded, spec §3.7), then the new subscription count.
    private mutating func add(
        _ connection: PusherConnectionID, to channel: String, member: PusherPresenceMember?, appID: String, now: PusherInstant,
        into actions: inout [PusherAction]
    ) {
        if apps[appID]?.channels[channel] == nil {
            apps[appID]?.channels[channel] = PusherChannel()
            actions.append(.webhook(appID: appID, .channelOccupied(channel: channel)))
        }
        _ = updateChannel(appID, channel) { $0.subscribers.insert(connection) }
        connections[connection]?.subscriptions[channel] = PusherSubscription(presenceUserID: member?.userID)
        connections[connection]?.subscriptions.share(with: &lastSubscriptions)
        if let member {
            joinPresence(member, channel: channel, connection: connection, appID: appID, into: &actions)
        } else {
            actions.append(.send(connection, PusherFrames.subscriptionSucceeded(channel: channel)))
        }
        if PusherChannelKind(name: channel).isCache { replayCache(channel, to: connection, appID: appID, now: now, into: &actions) }
        subscriptionCountChanged(appID: appID, channel: channel, into: &actions)
    }

    /// `pusher:unsubscribe {"channel"}`: no confirmation is sent (spec §3.3).
    mutating func unsubscribe(_ message: PusherClientMessage, from connection: PusherConnectionID, into actions: inout [PusherAction]) {
        guard let state = connections[connection] else { return }
        let channel = message.dataObject?["channel"]?.stringValue ?? ""
        guard state.subscriptions[channel] != nil else {
            actions.append(.send(connection, PusherFrames.error(code: nil, message: PusherSubscriptionError.noCurrent(channel))))
            return
        }
        leave(channel, connection: connection, state: state, into: &actions)
        connections[connection]?.subscriptions[channel] = nil
    }
}
