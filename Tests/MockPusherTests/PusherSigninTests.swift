// SPDX-License-Identifier: MIT
import MockPusher
import Testing

@Suite("Pusher signin and user channels", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherSigninTests {
    let one = PusherConnectionID(1)

    @Test func signinSuccessCarriesTheUserDataAsADoubleEncodedString() {
        let bed = PusherTestBed()
        bed.connect(1)
        #expect(bed.signin(1, userData: #"{"id":"12345"}"#) == [
            .send(one, #"{"event":"pusher:signin_success","data":"{\"user_data\":\"{\\\"id\\\":\\\"12345\\\"}\"}"}"#)
        ])
    }

    @Test func signinSuccessAsAnObjectWhenTheAppSaysSo() {
        var app = docApp
        app.options.signinSuccessData = .object
        let bed = PusherTestBed(app: app)
        bed.connect(1)
        #expect(sent(bed.signin(1, userData: #"{"id":"7"}"#), to: 1) == [#"{"event":"pusher:signin_success","data":{"user_data":"{\"id\":\"7\"}"}}"#])
    }

    @Test func badSigninSignatureIsRefusedWithTheSignedString() {
        let bed = PusherTestBed()
        let socketID = bed.connect(1)
        let message = #"{"event":"pusher:signin","data":{"auth":"278d425bdf160c739803:00","user_data":"{\"id\":\"1\"}"}}"#
        #expect(sent(bed.send(1, message), to: 1) == [
            errorFrame(#"Invalid signature: Expected HMAC SHA256 hex digest of \#(socketID)::user::{"id":"1"}, but got 00"#)
        ])
    }

    @Test func signinNeedsAuthUserDataAndAnID() {
        let bed = PusherTestBed()
        bed.connect(1)
        #expect(sent(bed.send(1, #"{"event":"pusher:signin","data":{"auth":"a:b"}}"#), to: 1) == [errorFrame("Invalid signin: auth and user_data are required")])
        #expect(sent(bed.send(1, #"{"event":"pusher:signin","data":{"auth":"ab","user_data":"{}"}}"#), to: 1) == [
            errorFrame("Auth value for signin is invalid: should be of format 'key:signature'")
        ])
        #expect(sent(bed.send(1, #"{"event":"pusher:signin","data":{"auth":"k:b","user_data":"{}"}}"#), to: 1) == [errorFrame("Invalid key in signin auth data: 'k'")])
        #expect(sent(bed.signin(1, userData: #"{"name":"x"}"#), to: 1) == [errorFrame("Invalid user_data: expected a JSON object with a non-empty string id")])
    }

    @Test func watchlistOverTheLimitGetsSuccessThen4302() {
        var app = docApp
        app.options.watchlistLimit = 2
        let bed = PusherTestBed(app: app)
        bed.connect(1)
        let texts = sent(bed.signin(1, userData: #"{"id":"w","watchlist":["a","b","c"]}"#), to: 1)
        #expect(texts.count == 2)
        #expect(texts.first?.hasPrefix(#"{"event":"pusher:signin_success""#) == true)
        #expect(texts.last == errorFrame("Watchlist limit exceeded: at most 2 user ids", code: 4302))
    }

    @Test func serverToUserChannelIsOnlyForThatSignedInUser() throws {
        let bed = PusherTestBed()
        bed.connect(1)
        let subscribe = ##"{"event":"pusher:subscribe","data":{"auth":"","channel":"#server-to-user-12345"}}"##
        #expect(sent(bed.send(1, subscribe), to: 1) == [errorFrame("Subscription to #server-to-user-12345 is only allowed to the user signed in as its id")])
        bed.signin(1, userData: #"{"id":"12345"}"#)
        #expect(sent(bed.send(1, subscribe), to: 1) == [##"{"event":"pusher_internal:subscription_succeeded","data":"{}","channel":"#server-to-user-12345"}"##])
        let delivered = try bed.core.trigger(appID: "3", event: "note", data: "hi", channels: ["#server-to-user-12345"], now: bed.now)
        #expect(delivered == [.send(one, ##"{"event":"note","data":"hi","channel":"#server-to-user-12345"}"##)])
    }

    @Test func terminateClosesOnlyTheUsersSignedInConnections() throws {
        let bed = PusherTestBed()
        for number in 1...3 { bed.connect(UInt64(number)) }
        bed.signin(1, userData: #"{"id":"u"}"#)
        bed.signin(2, userData: #"{"id":"u"}"#)
        bed.subscribe(2, "presence-r")
        let actions = try bed.core.terminateConnections(appID: "3", userID: "u")
        let reason = "Connections of this user were terminated"
        #expect(actions.filter { if case .close = $0 { true } else { false } } == [
            .close(PusherConnectionID(1), code: 4009, reason: reason), .close(PusherConnectionID(2), code: 4009, reason: reason),
        ])
        #expect(webhooks(actions) == [.memberRemoved(channel: "presence-r", userID: "u"), .channelVacated(channel: "presence-r")])
        #expect(bed.core.connectionCount == 1)
        #expect(try bed.core.terminateConnections(appID: "3", userID: "nobody").isEmpty)
    }
}
