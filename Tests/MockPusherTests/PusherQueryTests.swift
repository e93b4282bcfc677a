// SPDX-License-Identifier: MIT
import MockPusher
import Testing

@Suite("Pusher HTTP-side queries", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherQueryTests {
    @Test func triggerDeliversTheDataExactlyAndHonoursTheExcludedSocket() throws {
        let bed = PusherTestBed()
        let first = bed.connect(1)
        bed.connect(2)
        bed.subscribe(1, "my-channel")
        bed.subscribe(2, "my-channel")
        let all = try bed.core.trigger(appID: "3", event: "my-event", data: #"{"some":"data"}"#, channels: ["my-channel"], now: bed.now)
        #expect(all == [
            .send(PusherConnectionID(1), #"{"event":"my-event","data":"{\"some\":\"data\"}","channel":"my-channel"}"#),
            .send(PusherConnectionID(2), #"{"event":"my-event","data":"{\"some\":\"data\"}","channel":"my-channel"}"#),
        ])
        let plain = try bed.core.trigger(appID: "3", event: "e", data: "plain text", channels: ["my-channel", "empty"], excludeSocketID: first, now: bed.now)
        #expect(plain == [.send(PusherConnectionID(2), #"{"event":"e","data":"plain text","channel":"my-channel"}"#)])
    }

    @Test func anExcludedSocketIDThatNamesNoOpenConnectionExcludesNobody() throws {
        let bed = PusherTestBed()
        let first = bed.connect(1)
        bed.connect(2)
        bed.subscribe(1, "news")
        bed.subscribe(2, "news")
        let frame = #"{"event":"e","data":"d","channel":"news"}"#
        let everyone: [PusherAction] = [.send(PusherConnectionID(1), frame), .send(PusherConnectionID(2), frame)]
        for other in ["1.1", "0" + first, first + " ", "not-an-id", ""] where other != first {
            #expect(try bed.core.trigger(appID: "3", event: "e", data: "d", channels: ["news"], excludeSocketID: other, now: bed.now) == everyone, "\(other)")
        }
        // Once the connection closed, its socket id excludes nobody either.
        _ = bed.core.handle(.closed(PusherConnectionID(1), now: bed.now))
        #expect(try bed.core.trigger(appID: "3", event: "e", data: "d", channels: ["news"], excludeSocketID: first, now: bed.now)
            == [.send(PusherConnectionID(2), frame)])
    }

    @Test func unknownAppsAndBadChannelNamesAreErrors() {
        let bed = PusherTestBed()
        #expect(throws: PusherQueryError.unknownApp(id: "9")) { try bed.core.trigger(appID: "9", event: "e", data: "", channels: ["a"], now: bed.now) }
        #expect(throws: PusherQueryError.invalidChannelName("a b")) { try bed.core.trigger(appID: "3", event: "e", data: "", channels: ["a b"], now: bed.now) }
    }

    @Test func channelListShowsOccupiedChannelsByPrefixWithCounts() throws {
        let bed = PusherTestBed()
        for number in 1...3 { bed.connect(UInt64(number)) }
        bed.subscribe(1, "presence-a", channelData: #"{"user_id":"x"}"#)
        bed.subscribe(2, "presence-a", channelData: #"{"user_id":"x"}"#)
        bed.subscribe(3, "presence-a", channelData: #"{"user_id":"y"}"#)
        bed.subscribe(1, "news")
        #expect(try bed.core.channels(appID: "3").map(\.name) == ["news", "presence-a"])
        #expect(try bed.core.channels(appID: "3", prefix: "presence-", includeUserCount: true) == [
            PusherChannelSummary(name: "presence-a", userCount: 2, subscriptionCount: 3)
        ])
        #expect(throws: PusherQueryError.userCountNeedsPresencePrefix) { try bed.core.channels(appID: "3", includeUserCount: true) }
    }

    @Test func channelInfoReportsOccupancyCountsAndTheCache() throws {
        let bed = PusherTestBed()
        bed.connect(1)
        bed.subscribe(1, "presence-a", channelData: #"{"user_id":"x"}"#)
        let presence = try bed.core.channelInfo(appID: "3", channel: "presence-a", now: bed.now)
        #expect(presence.occupied && presence.userCount == 1 && presence.subscriptionCount == 1)
        let empty = try bed.core.channelInfo(appID: "3", channel: "cache-b", now: bed.now)
        #expect(!empty.occupied && empty.userCount == nil && empty.subscriptionCount == 0 && empty.cachedEvent == nil)
        _ = try bed.core.trigger(appID: "3", event: "e", data: "d", channels: ["cache-b"], now: bed.now)
        let cached = try bed.core.channelInfo(appID: "3", channel: "cache-b", now: bed.now).cachedEvent
        #expect(cached?.event == "e" && cached?.data == "d")
    }

    @Test func usersListsDistinctPresenceMembersInJoinOrder() throws {
        let bed = PusherTestBed()
        for number in 1...3 { bed.connect(UInt64(number)) }
        bed.subscribe(1, "presence-u", channelData: #"{"user_id":"b"}"#)
        bed.subscribe(2, "presence-u", channelData: #"{"user_id":"a"}"#)
        bed.subscribe(3, "presence-u", channelData: #"{"user_id":"b"}"#)
        #expect(try bed.core.users(appID: "3", channel: "presence-u") == ["b", "a"])
        #expect(try bed.core.users(appID: "3", channel: "presence-none").isEmpty)
    }
}

@Suite("Pusher core construction", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherCoreConstructionTests {
    @Test func theSocketIDGeneratorIsInjectable() {
        var expected = PusherSocketIDGenerator(seed: 5)
        let core = PusherCore(apps: [docApp], socketIDs: PusherSocketIDGenerator(seed: 5))
        _ = core.handle(.connected(PusherConnectionID(1), appKey: docApp.key, query: [PusherQueryItem("protocol", "7")], now: PusherInstant(milliseconds: 0)))
        #expect(core.socketID(of: PusherConnectionID(1)) == expected.next())
        #expect(core.app(key: docApp.key) == docApp)
        #expect(core.app(id: "3") == docApp)
        #expect(core.app(id: "4") == nil)
    }
}
