// SPDX-License-Identifier: MIT
import HarnessJSON
import MockPusher

/// The app features a case switches on for its own app (`appOptions`; over `--server` the runner
/// registers the app with them through `POST /__admin/pusher/apps`): cache channels and
/// subscription counts (spec §3.7).
extension PusherCatalog {
    /// An app whose cache channels keep an event for `ttl` only.
    static func cacheApp(ttl: Duration) -> PusherAppOptions {
        var options = PusherAppOptions()
        options.cacheTTL = ttl
        return options
    }

    static var countingApp: PusherAppOptions {
        var options = PusherAppOptions()
        options.subscriptionCountEvents = true
        return options
    }

    static func count(_ n: Int) -> JSONValue { ["subscription_count": .int(n)] }

    // MARK: cache

    static let cache: [PusherCase] = [
        PusherCase("pusher.cache.replay-last-event", "subscribing to a cache channel replays its last event, not the earlier ones", spec: "§3.7",
                   steps: connected + [.trigger("cache-news", "headline", #"{"n":1}"#), .trigger("cache-news", "headline", #"{"n":2}"#),
                                       .subscribe("cache-news"), .expectSubscribed("cache-news", withinMs: 2_000),
                                       .expectEvent(channel: "cache-news", event: "headline", data: ["n": 2], withinMs: 2_000),
                                       .expectNoEvent(event: "pusher:cache_miss", forMs: 300)]),
        PusherCase("pusher.cache.miss", "nothing cached: pusher:cache_miss to the subscriber and a cache_miss webhook", spec: "§3.7, §7",
                   steps: connected + [.subscribe("cache-empty"), .expectSubscribed("cache-empty", withinMs: 2_000),
                                       .expectEvent(channel: "cache-empty", event: "pusher:cache_miss", data: nil, withinMs: 2_000),
                                       .expectWebhook(name: "cache_miss", channel: "cache-empty", withinMs: 2_000)],
                   requires: [.cacheMiss]),
        PusherCase("pusher.cache.ttl-expired", "an event older than the app's cache TTL (300 ms) is not replayed: cache_miss instead",
                   spec: "§3.7",
                   steps: connected + [.trigger("cache-news", "stale", #"{"n":1}"#), .wait(ms: 700),
                                       .subscribe("cache-news"), .expectSubscribed("cache-news", withinMs: 2_000),
                                       .expectEvent(channel: "cache-news", event: "pusher:cache_miss", data: nil, withinMs: 2_000),
                                       .expectNoEvent(event: "stale", forMs: 300)],
                   requires: [.cacheMiss], appOptions: cacheApp(ttl: .milliseconds(300))),
        PusherCase("pusher.cache.ttl-fresh", "an event younger than the app's cache TTL (5 s) is replayed", spec: "§3.7",
                   steps: connected + [.trigger("cache-news", "fresh", #"{"n":1}"#),
                                       .subscribe("cache-news"), .expectSubscribed("cache-news", withinMs: 2_000),
                                       .expectEvent(channel: "cache-news", event: "fresh", data: ["n": 1], withinMs: 2_000)],
                   appOptions: cacheApp(ttl: .seconds(5))),
    ]

    // MARK: subscription-count

    static let subscriptionCount: [PusherCase] = [
        PusherCase("pusher.subscription-count.join-leave",
                   "with subscription counts on, every subscriber gets the new count as members join and leave", spec: "§3.7, §7",
                   steps: connected + [
                       .subscribe("room"), .expectSubscribed("room", withinMs: 2_000),
                       .expectEvent(channel: "room", event: "pusher:subscription_count", data: count(1), withinMs: 2_000),
                       .peerSubscribe(ann, channel: "room"),
                       .expectEvent(channel: "room", event: "pusher:subscription_count", data: count(2), withinMs: 2_000),
                       .peerSubscribe(bob, channel: "room"),
                       .expectEvent(channel: "room", event: "pusher:subscription_count", data: count(3), withinMs: 2_000),
                       .expectPeerEvent(ann, channel: "room", event: "pusher_internal:subscription_count", data: count(3), withinMs: 2_000),
                       .peerLeave(ann),
                       .expectEvent(channel: "room", event: "pusher:subscription_count", data: count(2), withinMs: 2_000),
                       .expectPeerEvent(bob, channel: "room", event: "pusher_internal:subscription_count", data: count(2), withinMs: 2_000),
                       .expectWebhook(name: "subscription_count", channel: "room", fields: count(2), withinMs: 2_000),
                   ],
                   requires: [.subscriptionCount], appOptions: countingApp),
        PusherCase("pusher.subscription-count.off-by-default", "an app without the setting sends no subscription counts", spec: "§3.7",
                   steps: connected + [.subscribe("room"), .expectSubscribed("room", withinMs: 2_000), .peerSubscribe(ann, channel: "room"),
                                       .expectPeerEvent(ann, channel: "room", event: "pusher_internal:subscription_succeeded", data: nil, withinMs: 2_000),
                                       .expectNoEvent(event: "pusher:subscription_count", forMs: 400),
                                       .expectNoPeerEvent(ann, event: "pusher_internal:subscription_count", forMs: 0)]),
        PusherCase("pusher.subscription-count.not-on-presence", "presence channels get no subscription count, even with the setting on",
                   spec: "§3.7",
                   steps: connected + [.subscribe("presence-room"), .expectSubscribed("presence-room", withinMs: 2_000),
                                       .peerSubscribe(ann, channel: "presence-room"),
                                       .expectMember(channel: "presence-room", userID: "ann", added: true, withinMs: 2_000),
                                       .expectNoEvent(event: "pusher:subscription_count", forMs: 400)],
                   requires: [.presence, .subscriptionCount], appOptions: countingApp),
    ]
}
