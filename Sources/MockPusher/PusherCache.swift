// SPDX-License-Identifier: MIT

extension PusherState {
    /// After subscription_succeeded on a cache channel: the last event, or `pusher:cache_miss` and its
    /// webhook when there is none (spec §3.7).
    mutating func replayCache(
        _ channel: String, to connection: PusherConnectionID, appID: String, now: PusherInstant, into actions: inout [PusherAction]
    ) {
        guard apps[appID]?.app.options.cacheChannelsEnabled == true else { return }
        if let cached = apps[appID]?.cache[channel], now < cached.expires {
            actions.append(.send(connection, PusherFrames.event(cached.event, data: cached.data, channel: channel)))
            return
        }
        apps[appID]?.cache[channel] = nil
        // UNVERIFIED payload (spec §3.7): soketi sends no data, pusher-fake `"null"`; the mock sends none.
        actions.append(.send(connection, PusherFrames.event("pusher:cache_miss", rawData: nil, channel: channel)))
        actions.append(.webhook(appID: appID, .cacheMiss(channel: channel)))
    }

    /// Keeps a triggered event as its cache channel's last (client events are never cached).
    mutating func remember(event: String, data: String, channel: String, appID: String, now: PusherInstant) {
        guard let options = apps[appID]?.app.options, options.cacheChannelsEnabled, PusherChannelKind(name: channel).isCache else { return }
        apps[appID]?.cache[channel] = PusherCachedEvent(event: event, data: data, expires: now + options.cacheTTL)
    }
}
