// SPDX-License-Identifier: MIT

/// The `pusher:error` messages of client events.
enum PusherClientEventError {
    /// The protocol doc's 4301 meaning; sent as an error event, the connection stays (spec §3.6, §5).
    static let rateLimitCode = 4301
    static let rateLimit = "Client event rejected due to rate limit"
    // UNVERIFIED texts (spec §3.6, §10): clones quote the first as the live one.
    static let wrongChannelType = "Client event rejected - only supported on private and presence channels"
    static func notSubscribed(_ channel: String) -> String { "Client event rejected - not subscribed to channel \(channel)" }
    /// UNVERIFIED (spec §3.6, §4.3): the client libraries refuse client events on encrypted channels
    /// locally; what the service does with one that arrives anyway is not documented. The mock refuses
    /// it like the other channel-type refusals (a `pusher:error`, code null) and relays nothing.
    static let encryptedChannel = "Client event rejected - not supported on encrypted channels"
    static let disabled = "To send client events, you must enable this feature in the Settings page of your dashboard."
}

extension PusherState {
    /// A `client-` event: private or presence channel, sender subscribed, within the rate limit;
    /// delivered to every other subscriber, with `user_id` on presence channels (spec §3.6).
    mutating func clientEvent(
        _ message: PusherClientMessage, from connection: PusherConnectionID, now: PusherInstant, into actions: inout [PusherAction]
    ) {
        guard let state = connections[connection], let options = apps[state.appID]?.app.options else { return }
        func refuse(_ code: Int?, _ text: String) { actions.append(.send(connection, PusherFrames.error(code: code, message: text))) }
        guard options.clientEventsEnabled else { return refuse(nil, PusherClientEventError.disabled) }
        let channel = message.channel ?? ""
        let kind = PusherChannelKind(name: channel)
        if kind.access == .encrypted { return refuse(nil, PusherClientEventError.encryptedChannel) }
        guard kind.acceptsClientEvents else { return refuse(nil, PusherClientEventError.wrongChannelType) }
        guard let subscription = state.subscriptions[channel] else { return refuse(nil, PusherClientEventError.notSubscribed(channel)) }
        let windowStart = now - .seconds(1)
        var recent = state.recentClientEvents.filter { $0 > windowStart }
        guard recent.count < options.clientEventRateLimit else {
            connections[connection]?.recentClientEvents = recent
            return refuse(PusherClientEventError.rateLimitCode, PusherClientEventError.rateLimit)
        }
        recent.append(now)
        connections[connection]?.recentClientEvents = recent
        // The data member is relayed exactly as received: a string stays a string, an object stays the
        // same object text. UNVERIFIED (spec §3.6) whether the service re-encodes objects.
        let frame = PusherFrames.event(message.event, rawData: message.rawData, channel: channel, userID: subscription.presenceUserID)
        for receiver in apps[state.appID]?.channels[channel]?.orderedSubscribers ?? [] where receiver != connection {
            actions.append(.send(receiver, frame))
        }
        let event = PusherWebhookEvent.clientEvent(
            channel: channel, event: message.event, data: message.dataText ?? "", socketID: state.socketID, userID: subscription.presenceUserID)
        actions.append(.webhook(appID: state.appID, event))
    }
}
