// SPDX-License-Identifier: MIT
import MockPusher
import Testing

@Suite("Pusher presence", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherPresenceTests {
    @Test func firstMemberGetsTheRosterWithItself() {
        let bed = PusherTestBed()
        bed.connect(1)
        let actions = bed.subscribe(1, "presence-chat", channelData: #"{"user_id":"u1","user_info":{"name":"Ann"}}"#)
        #expect(sent(actions, to: 1) == [
            #"{"event":"pusher_internal:subscription_succeeded","data":"{\"presence\":{\"ids\":[\"u1\"],\"hash\":{\"u1\":{\"name\":\"Ann\"}},\"count\":1}}","channel":"presence-chat"}"#
        ])
        #expect(webhooks(actions) == [.channelOccupied(channel: "presence-chat"), .memberAdded(channel: "presence-chat", userID: "u1")])
    }

    @Test func newUserIsAnnouncedToTheOthersNotToItself() {
        let bed = PusherTestBed()
        bed.connect(1)
        bed.connect(2)
        bed.subscribe(1, "presence-chat", channelData: #"{"user_id":"u1"}"#)
        let actions = bed.subscribe(2, "presence-chat", channelData: #"{"user_id":"u2","user_info":{"n":2}}"#)
        #expect(sent(actions, to: 1) == [
            #"{"event":"pusher_internal:member_added","data":"{\"user_id\":\"u2\",\"user_info\":{\"n\":2}}","channel":"presence-chat"}"#
        ])
        #expect(sent(actions, to: 2) == [
            #"{"event":"pusher_internal:subscription_succeeded","data":"{\"presence\":{\"ids\":[\"u1\",\"u2\"],\"hash\":{\"u1\":null,\"u2\":{\"n\":2}},\"count\":2}}","channel":"presence-chat"}"#
        ])
    }

    @Test func aUserWithSeveralConnectionsIsAddedOnceAndRemovedWithItsLast() {
        let bed = PusherTestBed()
        for number in 1...3 { bed.connect(UInt64(number)) }
        bed.subscribe(1, "presence-chat", channelData: #"{"user_id":"watcher"}"#)
        let firstIn = bed.subscribe(2, "presence-chat", channelData: #"{"user_id":"u"}"#)
        #expect(sent(firstIn, to: 1).count == 1)
        let secondIn = bed.subscribe(3, "presence-chat", channelData: #"{"user_id":"u"}"#)
        #expect(sent(secondIn, to: 1).isEmpty)
        #expect(sent(secondIn, to: 3).first?.contains(#"\"count\":2"#) == true)
        let firstOut = bed.send(2, #"{"event":"pusher:unsubscribe","data":{"channel":"presence-chat"}}"#)
        #expect(firstOut.isEmpty)
        let lastOut = bed.core.handle(.closed(PusherConnectionID(3), now: bed.now))
        #expect(sent(lastOut, to: 1) == [#"{"event":"pusher_internal:member_removed","data":"{\"user_id\":\"u\"}","channel":"presence-chat"}"#])
        #expect(webhooks(lastOut) == [.memberRemoved(channel: "presence-chat", userID: "u")])
    }

    @Test func numericUserIDsAreComparedAsStrings() throws {
        let bed = PusherTestBed()
        bed.connect(1)
        bed.connect(2)
        bed.subscribe(1, "presence-n", channelData: #"{"user_id":10}"#)
        #expect(sent(bed.subscribe(2, "presence-n", channelData: #"{"user_id":"10"}"#), to: 1).isEmpty)
        #expect(try bed.core.users(appID: "3", channel: "presence-n") == ["10"])
    }

    @Test func channelDataWithSpacesIsSignedOverItsExactBytes() {
        let bed = PusherTestBed()
        bed.connect(1)
        let spaced = #"{"user_id": 10, "user_info": {"name": "Mr. Channels"}}"#
        #expect(sent(bed.subscribe(1, "presence-foobar", channelData: spaced), to: 1).first?.contains(#"\"hash\":{\"10\":{\"name\":\"Mr. Channels\"}}"#) == true)
    }

    @Test func badPresenceSignatureNamesTheChannelData() {
        let bed = PusherTestBed()
        let socketID = bed.connect(1)
        let channelData = #"{"user_id":1453,"user_info":{"name":"x"}}"#
        let message = #"{"event":"pusher:subscribe","data":{"channel":"presence-chat","auth":"278d425bdf160c739803:","channel_data":"# + json(channelData) + "}}"
        #expect(sent(bed.send(1, message), to: 1) == [
            errorFrame("Invalid signature: Expected HMAC SHA256 hex digest of \(socketID):presence-chat:\(channelData), but got ")
        ])
    }

    @Test func channelDataWithoutUserIDIsRefused() {
        let bed = PusherTestBed()
        bed.connect(1)
        #expect(sent(bed.subscribe(1, "presence-x", channelData: #"{"user_info":{}}"#), to: 1) == [
            errorFrame("Invalid channel_data for presence-x: expected a JSON object with a user_id")
        ])
    }

    @Test func presenceWithoutChannelDataNeedsASignedInConnection() {
        let bed = PusherTestBed()
        bed.connect(1)
        #expect(sent(bed.subscribe(1, "presence-x"), to: 1) == [errorFrame("Subscription to presence-x requires channel_data or a signed-in connection")])
        bed.signin(1, userData: #"{"id":"ann","user_info":{"role":"admin"}}"#)
        #expect(sent(bed.subscribe(1, "presence-x"), to: 1) == [
            #"{"event":"pusher_internal:subscription_succeeded","data":"{\"presence\":{\"ids\":[\"ann\"],\"hash\":{\"ann\":{\"role\":\"admin\"}},\"count\":1}}","channel":"presence-x"}"#
        ])
    }

    @Test func limitsOnMembersUserIDAndUserInfo() {
        var app = docApp
        app.options.presenceMaxMembers = 2
        let bed = PusherTestBed(app: app)
        for number in 1...4 { bed.connect(UInt64(number)) }
        bed.subscribe(1, "presence-l", channelData: #"{"user_id":"a"}"#)
        bed.subscribe(2, "presence-l", channelData: #"{"user_id":"b"}"#)
        #expect(sent(bed.subscribe(3, "presence-l", channelData: #"{"user_id":"c"}"#), to: 3) == [
            errorFrame("Presence channel presence-l is full: at most 2 members")
        ])
        // Another connection of a present user still fits.
        #expect(sent(bed.subscribe(4, "presence-l", channelData: #"{"user_id":"a"}"#), to: 4).first?.contains("subscription_succeeded") == true)
        let longID = String(repeating: "i", count: 129)
        #expect(sent(bed.subscribe(3, "presence-m", channelData: #"{"user_id":"\#(longID)"}"#), to: 3) == [
            errorFrame("Invalid user id in channel_data for presence-m: longer than 128 characters")
        ])
        let bigInfo = String(repeating: "x", count: 1020)
        #expect(sent(bed.subscribe(3, "presence-m", channelData: #"{"user_id":"c","user_info":{"x":"\#(bigInfo)"}}"#), to: 3) == [
            errorFrame("Invalid user info in channel_data for presence-m: larger than 1024 bytes")
        ])
    }

    @Test func usersOfANonPresenceChannelAreAnError() {
        let bed = PusherTestBed()
        #expect(throws: PusherQueryError.notPresenceChannel("private-a")) { try bed.core.users(appID: "3", channel: "private-a") }
    }
}
