// SPDX-License-Identifier: MIT
import MockPusher
import Testing

@Suite("Pusher client events", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherClientEventTests {
    private func twoOnPrivate() -> PusherTestBed {
        let bed = PusherTestBed()
        bed.connect(1)
        bed.connect(2)
        bed.subscribe(1, "private-room")
        bed.subscribe(2, "private-room")
        return bed
    }

    @Test func deliveredToTheOthersNotEchoed() {
        let bed = twoOnPrivate()
        let socketID = bed.core.socketID(of: PusherConnectionID(1)) ?? ""
        let actions = bed.send(1, #"{"event":"client-typing","channel":"private-room","data":"{\"some\":\"data\"}"}"#)
        #expect(sent(actions, to: 2) == [#"{"event":"client-typing","data":"{\"some\":\"data\"}","channel":"private-room"}"#])
        #expect(sent(actions, to: 1).isEmpty)
        #expect(webhooks(actions) == [.clientEvent(channel: "private-room", event: "client-typing", data: #"{"some":"data"}"#, socketID: socketID, userID: nil)])
    }

    @Test func objectDataIsRelayedAsReceived() {
        let bed = twoOnPrivate()
        let actions = bed.send(1, #"{"event":"client-move","channel":"private-room","data":{"x": 1}}"#)
        #expect(sent(actions, to: 2) == [#"{"event":"client-move","data":{"x": 1},"channel":"private-room"}"#])
    }

    @Test func eventWithoutDataIsRelayedWithoutData() {
        let bed = twoOnPrivate()
        #expect(sent(bed.send(1, #"{"event":"client-ping","channel":"private-room"}"#), to: 2) == [#"{"event":"client-ping","channel":"private-room"}"#])
    }

    @Test func presenceChannelEventsCarryTheSendersUserID() {
        let bed = PusherTestBed()
        bed.connect(1)
        bed.connect(2)
        bed.subscribe(1, "presence-room", channelData: #"{"user_id":"ann"}"#)
        bed.subscribe(2, "presence-room", channelData: #"{"user_id":"bob"}"#)
        let actions = bed.send(1, #"{"event":"client-hi","channel":"presence-room","data":"x"}"#)
        #expect(sent(actions, to: 2) == [#"{"event":"client-hi","data":"x","channel":"presence-room","user_id":"ann"}"#])
    }

    /// UNVERIFIED refusal (docs/pusher.md, "Encrypted channels"): an error to the sender, nothing to the others.
    @Test func encryptedChannelEventsAreRefusedAndNotRelayed() {
        let bed = PusherTestBed()
        bed.connect(1)
        bed.connect(2)
        bed.subscribe(1, "private-encrypted-room")
        bed.subscribe(2, "private-encrypted-room")
        let actions = bed.send(1, #"{"event":"client-x","channel":"private-encrypted-room","data":"{}"}"#)
        #expect(sent(actions, to: 1) == [errorFrame("Client event rejected - not supported on encrypted channels")])
        #expect(sent(actions, to: 2).isEmpty)
        #expect(webhooks(actions).isEmpty)
    }

    @Test(arguments: ["news", "cache-news"])
    func otherChannelTypesAreRefused(_ channel: String) {
        let bed = PusherTestBed()
        bed.connect(1)
        bed.subscribe(1, channel)
        #expect(sent(bed.send(1, #"{"event":"client-x","channel":"\#(channel)","data":"{}"}"#), to: 1) == [
            errorFrame("Client event rejected - only supported on private and presence channels")
        ])
    }

    @Test func senderMustBeSubscribed() {
        let bed = twoOnPrivate()
        bed.connect(3)
        let actions = bed.send(3, #"{"event":"client-x","channel":"private-room","data":"{}"}"#)
        #expect(actions == [.send(PusherConnectionID(3), errorFrame("Client event rejected - not subscribed to channel private-room"))])
    }

    @Test func disabledClientEventsAreRefused() {
        var app = docApp
        app.options.clientEventsEnabled = false
        let bed = PusherTestBed(app: app)
        bed.connect(1)
        bed.subscribe(1, "private-room")
        #expect(sent(bed.send(1, #"{"event":"client-x","channel":"private-room","data":"{}"}"#), to: 1) == [
            errorFrame("To send client events, you must enable this feature in the Settings page of your dashboard.")
        ])
    }

    @Test func theEleventhEventWithinASecondGets4301AndTheConnectionStays() {
        var bed = twoOnPrivate()
        let event = #"{"event":"client-x","channel":"private-room","data":"{}"}"#
        for _ in 0..<10 { #expect(sent(bed.send(1, event), to: 2).count == 1) }
        let rejected = bed.send(1, event)
        #expect(rejected == [.send(PusherConnectionID(1), #"{"event":"pusher:error","data":{"code":4301,"message":"Client event rejected due to rate limit"}}"#)])
        #expect(bed.core.connectionCount == 2)
        bed.now = bed.now + .milliseconds(1001)
        #expect(sent(bed.send(1, event), to: 2).count == 1)
    }

    @Test func theRateLimitFollowsTheAppOption() {
        var app = docApp
        app.options.clientEventRateLimit = 2
        let bed = PusherTestBed(app: app)
        bed.connect(1)
        bed.subscribe(1, "private-room")
        let event = #"{"event":"client-x","channel":"private-room","data":"{}"}"#
        #expect(bed.send(1, event).count == 1)
        #expect(bed.send(1, event).count == 1)
        #expect(sent(bed.send(1, event), to: 1).first?.contains("4301") == true)
    }
}
