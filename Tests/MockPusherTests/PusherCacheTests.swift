// SPDX-License-Identifier: MIT
import MockPusher
import Testing

@Suite("Pusher cache channels", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherCacheTests {
    @Test func emptyCacheChannelSendsCacheMissAndItsWebhook() {
        let bed = PusherTestBed()
        bed.connect(1)
        let actions = bed.subscribe(1, "cache-news")
        #expect(sent(actions, to: 1) == [
            #"{"event":"pusher_internal:subscription_succeeded","data":"{}","channel":"cache-news"}"#,
            #"{"event":"pusher:cache_miss","channel":"cache-news"}"#,
        ])
        #expect(webhooks(actions) == [.channelOccupied(channel: "cache-news"), .cacheMiss(channel: "cache-news")])
    }

    @Test func theLastTriggeredEventIsReplayedAfterSubscriptionSucceeded() throws {
        var bed = PusherTestBed()
        bed.connect(1)
        _ = try bed.core.trigger(appID: "3", event: "e1", data: "one", channels: ["private-cache-a"], now: bed.now)
        _ = try bed.core.trigger(appID: "3", event: "e2", data: #"{"n":2}"#, channels: ["private-cache-a"], now: bed.now)
        #expect(sent(bed.subscribe(1, "private-cache-a"), to: 1) == [
            #"{"event":"pusher_internal:subscription_succeeded","data":"{}","channel":"private-cache-a"}"#,
            #"{"event":"e2","data":"{\"n\":2}","channel":"private-cache-a"}"#,
        ])
        bed.connect(2)
        bed.advance(seconds: 30 * 60)
        #expect(sent(bed.subscribe(2, "private-cache-a"), to: 2).last == #"{"event":"pusher:cache_miss","channel":"private-cache-a"}"#)
    }

    @Test func presenceCacheChannelsReplayAfterTheRoster() throws {
        let bed = PusherTestBed()
        bed.connect(1)
        _ = try bed.core.trigger(appID: "3", event: "e", data: "d", channels: ["presence-cache-p"], now: bed.now)
        let texts = sent(bed.subscribe(1, "presence-cache-p", channelData: #"{"user_id":"a"}"#), to: 1)
        #expect(texts.count == 2)
        #expect(texts.last == #"{"event":"e","data":"d","channel":"presence-cache-p"}"#)
    }

    @Test func clientEventsAreNotCached() throws {
        let bed = PusherTestBed()
        bed.connect(1)
        bed.connect(2)
        bed.subscribe(1, "private-cache-c")
        bed.send(1, #"{"event":"client-x","channel":"private-cache-c","data":"{}"}"#)
        #expect(sent(bed.subscribe(2, "private-cache-c"), to: 2).last == #"{"event":"pusher:cache_miss","channel":"private-cache-c"}"#)
        #expect(try bed.core.channelInfo(appID: "3", channel: "private-cache-c", now: bed.now).cachedEvent == nil)
    }

    @Test func disabledCacheChannelsBehaveLikePlainOnes() {
        var app = docApp
        app.options.cacheChannelsEnabled = false
        let bed = PusherTestBed(app: app)
        bed.connect(1)
        #expect(sent(bed.subscribe(1, "cache-news"), to: 1).count == 1)
    }
}
