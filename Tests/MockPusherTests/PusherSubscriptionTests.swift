// SPDX-License-Identifier: MIT
import MockPusher
import Testing

@Suite("Pusher subscriptions", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherSubscriptionTests {
    let one = PusherConnectionID(1)

    @Test func publicSubscriptionSucceedsWithTheLiveBytesAndOccupiesTheChannel() {
        let bed = PusherTestBed()
        bed.connect(1)
        #expect(
            bed.send(1, #"{"event":"pusher:subscribe","data":{"channel":"my-channel"}}"#) == [
                .webhook(appID: "3", .channelOccupied(channel: "my-channel")),
                .send(one, #"{"event":"pusher_internal:subscription_succeeded","data":"{}","channel":"my-channel"}"#),
            ])
    }

    @Test func subscribeWithSpacesOrDoubleEncodedDataIsAccepted() {
        let bed = PusherTestBed()
        bed.connect(1)
        #expect(sent(bed.send(1, #"{"event": "pusher:subscribe", "data": {"channel": "X"} }"#), to: 1).count == 1)
        #expect(sent(bed.send(1, #"{"event":"pusher:subscribe","data":"{\"channel\":\"Y\"}"}"#), to: 1) == [
            #"{"event":"pusher_internal:subscription_succeeded","data":"{}","channel":"Y"}"#
        ])
    }

    @Test func privateSubscriptionWithAValidSignatureSucceeds() {
        let bed = PusherTestBed()
        bed.connect(1)
        #expect(sent(bed.subscribe(1, "private-foobar"), to: 1) == [#"{"event":"pusher_internal:subscription_succeeded","data":"{}","channel":"private-foobar"}"#])
    }

    @Test(arguments: ["private-events", "presence-room", "private-encrypted-x", "private-cache-y", "presence-cache-z"])
    func signedChannelsWithoutAuthGetTheLiveAuthRequiredError(_ channel: String) {
        let bed = PusherTestBed()
        bed.connect(1)
        #expect(bed.send(1, #"{"event":"pusher:subscribe","data":{"channel":"\#(channel)"}}"#) == [
            .send(one, errorFrame("Auth info required to subscribe to \(channel)"))
        ])
        #expect(bed.core.connectionCount == 1)
    }

    @Test func theLiveErrorFrameHasCodeNullInAnObject() {
        let bed = PusherTestBed()
        bed.connect(1)
        #expect(sent(bed.send(1, #"{"event":"pusher:subscribe","data":{"channel":"private-events"}}"#), to: 1) == [
            #"{"event":"pusher:error","data":{"code":null,"message":"Auth info required to subscribe to private-events"}}"#
        ])
    }

    @Test func authWithoutKeyAndSignatureGetsTheLiveFormatError() {
        let bed = PusherTestBed()
        bed.connect(1)
        #expect(sent(bed.send(1, #"{"event":"pusher:subscribe","data":{"channel":"private-message-answered-5","auth":"nocolon"}}"#), to: 1) == [
            errorFrame("Auth value for subscription to private-message-answered-5 is invalid: should be of format 'key:signature'")
        ])
    }

    @Test func authWithAnotherKeyGetsTheLiveInvalidKeyError() {
        let bed = PusherTestBed()
        bed.connect(1)
        #expect(sent(bed.send(1, #"{"event":"pusher:subscribe","data":{"channel":"private-a","auth":"37ed426eeff27e042d47:abc"}}"#), to: 1) == [
            errorFrame("Invalid key in subscription auth data: '37ed426eeff27e042d47'")
        ])
    }

    @Test func badPrivateSignatureNamesTheSignedStringAndTheHexReceived() {
        let bed = PusherTestBed()
        let socketID = bed.connect(1)
        #expect(sent(bed.send(1, #"{"event":"pusher:subscribe","data":{"channel":"private-phone-company-509","auth":"278d425bdf160c739803:52aabdb7"}}"#), to: 1) == [
            errorFrame("Invalid signature: Expected HMAC SHA256 hex digest of \(socketID):private-phone-company-509, but got 52aabdb7")
        ])
    }

    @Test func channelDataOnAPrivateChannelIsNotPartOfTheSignature() {
        let bed = PusherTestBed()
        let socketID = bed.connect(1)
        let auth = PusherSignatures.channelAuth(app: docApp, socketID: socketID, channel: "private-p")
        let message = #"{"event":"pusher:subscribe","data":{"channel":"private-p","auth":"\#(auth)","channel_data":"{}"}}"#
        #expect(sent(bed.send(1, message), to: 1) == [#"{"event":"pusher_internal:subscription_succeeded","data":"{}","channel":"private-p"}"#])
    }

    @Test func signatureForAnotherSocketIsRefused() {
        let bed = PusherTestBed()
        bed.connect(1)
        let foreign = PusherSignatures.channelAuth(app: docApp, socketID: "1234.1234", channel: "private-foobar")
        let actions = bed.send(1, #"{"event":"pusher:subscribe","data":{"channel":"private-foobar","auth":"\#(foreign)"}}"#)
        #expect(sent(actions, to: 1).first?.contains("Invalid signature: Expected HMAC SHA256 hex digest of") == true)
    }

    @Test func secondSubscriptionGetsTheLiveExistingError() {
        let bed = PusherTestBed()
        bed.connect(1)
        bed.subscribe(1, "ls.message.44080_ls.private.18659")
        #expect(sent(bed.subscribe(1, "ls.message.44080_ls.private.18659"), to: 1) == [errorFrame("Existing subscription to channel ls.message.44080_ls.private.18659")])
    }

    @Test func unsubscribeWithoutSubscriptionGetsTheLiveError() {
        let bed = PusherTestBed()
        bed.connect(1)
        #expect(sent(bed.send(1, #"{"event":"pusher:unsubscribe","data":{"channel":"58asdfasdf7"}}"#), to: 1) == [
            errorFrame("No current subscription to channel 58asdfasdf7, or subscription in progress")
        ])
    }

    @Test func unsubscribeSendsNothingAndVacatesTheChannel() {
        let bed = PusherTestBed()
        bed.connect(1)
        bed.subscribe(1, "news")
        #expect(bed.send(1, #"{"event":"pusher:unsubscribe","data":{"channel":"news"}}"#) == [.webhook(appID: "3", .channelVacated(channel: "news"))])
        #expect(sent(bed.subscribe(1, "news"), to: 1).count == 1)
    }

    @Test func invalidChannelNamesAreRefused() {
        let bed = PusherTestBed()
        bed.connect(1)
        #expect(sent(bed.subscribe(1, "bad name"), to: 1) == [errorFrame("Invalid channel name 'bad name'")])
        let long = String(repeating: "a", count: 165)
        #expect(sent(bed.subscribe(1, long), to: 1) == [errorFrame("Invalid channel name '\(long)'")])
        #expect(sent(bed.send(1, #"{"event":"pusher:subscribe","data":{}}"#), to: 1) == [errorFrame("Invalid subscription: no channel name")])
    }

    @Test func encryptedChannelsAuthLikePrivateChannels() {
        let bed = PusherTestBed()
        bed.connect(1)
        #expect(sent(bed.subscribe(1, "private-encrypted-foo"), to: 1) == [
            #"{"event":"pusher_internal:subscription_succeeded","data":"{}","channel":"private-encrypted-foo"}"#
        ])
    }

    @Test func closingLeavesEveryChannel() {
        let bed = PusherTestBed()
        bed.connect(1)
        bed.subscribe(1, "a")
        bed.subscribe(1, "private-b")
        #expect(webhooks(bed.core.handle(.closed(one, now: bed.now))) == [.channelVacated(channel: "a"), .channelVacated(channel: "private-b")])
        #expect(bed.core.connectionCount == 0)
    }

    @Test func subscriptionCountEventsAreSentWhenTheAppEnablesThem() {
        var app = docApp
        app.options.subscriptionCountEvents = true
        let bed = PusherTestBed(app: app)
        bed.connect(1)
        bed.connect(2)
        bed.subscribe(1, "room")
        let frame = #"{"event":"pusher_internal:subscription_count","data":"{\"subscription_count\":2}","channel":"room"}"#
        let actions = bed.subscribe(2, "room")
        #expect(sent(actions, to: 1) == [frame])
        #expect(sent(actions, to: 2).last == frame)
        #expect(webhooks(actions) == [.subscriptionCount(channel: "room", count: 2)])
    }
}
