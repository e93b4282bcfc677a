// SPDX-License-Identifier: MIT
import MockPusher
import Testing

@Suite("Pusher watchlist", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherWatchlistTests {
    static func frame(_ entries: [(String, [String])]) -> String {
        let events = entries.map { name, ids in
            #"{\"name\":\""# + name + #"\",\"user_ids\":["# + ids.map { #"\""# + $0 + #"\""# }.joined(separator: ",") + "]}"
        }
        return #"{"event":"pusher_internal:watchlist_events","data":"{\"events\":["# + events.joined(separator: ",") + #"]}"}"#
    }

    @Test func signinGetsTheCurrentStatusOfItsWatchlistAfterSigninSuccess() {
        let bed = PusherTestBed()
        bed.connect(1)
        bed.connect(2)
        bed.signin(2, userData: #"{"id":"bob"}"#)
        let texts = sent(bed.signin(1, userData: #"{"id":"ann","watchlist":["bob","carol"]}"#), to: 1)
        #expect(texts.count == 2)
        #expect(texts.first?.hasPrefix(#"{"event":"pusher:signin_success""#) == true)
        #expect(texts.last == Self.frame([("online", ["bob"]), ("offline", ["carol"])]))
    }

    @Test func onlyOnlineIdsWhenTheAppSaysSo() {
        var app = docApp
        app.options.watchlistInitialStatus = .onlineOnly
        let bed = PusherTestBed(app: app)
        bed.connect(1)
        let texts = sent(bed.signin(1, userData: #"{"id":"ann","watchlist":["bob"]}"#), to: 1)
        #expect(texts.count == 1, "no watched id online: signin_success only")
    }

    @Test func watchersHearOnlineOnceAndOfflineWhenTheLastConnectionEnds() {
        let bed = PusherTestBed()
        for number in 1...3 { bed.connect(UInt64(number)) }
        bed.signin(1, userData: #"{"id":"ann","watchlist":["bob"]}"#)
        #expect(sent(bed.signin(2, userData: #"{"id":"bob"}"#), to: 1) == [Self.frame([("online", ["bob"])])])
        #expect(sent(bed.signin(3, userData: #"{"id":"bob"}"#), to: 1).isEmpty, "bob was online already")
        #expect(sent(bed.core.handle(.closed(PusherConnectionID(2), now: bed.now)), to: 1).isEmpty, "bob still has a connection")
        #expect(sent(bed.core.handle(.closed(PusherConnectionID(3), now: bed.now)), to: 1) == [Self.frame([("offline", ["bob"])])])
    }

    @Test func terminatingAWatchedUserSendsOfflineAfterTheClose() throws {
        let bed = PusherTestBed()
        bed.connect(1)
        bed.connect(2)
        bed.signin(1, userData: #"{"id":"ann","watchlist":["bob"]}"#)
        bed.signin(2, userData: #"{"id":"bob"}"#)
        let actions = try bed.core.terminateConnections(appID: "3", userID: "bob")
        #expect(actions.first == .close(PusherConnectionID(2), code: 4009, reason: "Connections of this user were terminated"))
        #expect(sent(actions, to: 1) == [Self.frame([("offline", ["bob"])])])
    }

    @Test func aClosedWatcherHearsNothingMore() {
        let bed = PusherTestBed()
        bed.connect(1)
        bed.connect(2)
        bed.signin(1, userData: #"{"id":"ann","watchlist":["bob"]}"#)
        bed.core.handle(.closed(PusherConnectionID(1), now: bed.now))
        #expect(bed.signin(2, userData: #"{"id":"bob"}"#).allSatisfy { if case .send(let id, _) = $0 { id == PusherConnectionID(2) } else { true } })
    }

    @Test func aWatchlistOverTheLimitIsNotWatched() {
        var app = docApp
        app.options.watchlistLimit = 1
        let bed = PusherTestBed(app: app)
        bed.connect(1)
        bed.connect(2)
        let texts = sent(bed.signin(1, userData: #"{"id":"ann","watchlist":["bob","carol"]}"#), to: 1)
        #expect(texts.last == errorFrame("Watchlist limit exceeded: at most 1 user ids", code: 4302))
        #expect(sent(bed.signin(2, userData: #"{"id":"bob"}"#), to: 1).isEmpty)
    }

    @Test func signingInAgainAsAnotherUserTakesTheFirstOffline() {
        let bed = PusherTestBed()
        bed.connect(1)
        bed.connect(2)
        bed.signin(1, userData: #"{"id":"ann","watchlist":["bob"]}"#)
        bed.signin(2, userData: #"{"id":"bob"}"#)
        let actions = bed.signin(2, userData: #"{"id":"dave"}"#)
        #expect(sent(actions, to: 1) == [Self.frame([("offline", ["bob"])])])
    }

    @Test func watchlistIdsMayBeNumbersAndRepeatsCountOnce() {
        let bed = PusherTestBed()
        bed.connect(1)
        let texts = sent(bed.signin(1, userData: #"{"id":"ann","watchlist":[7,"7","bob"]}"#), to: 1)
        #expect(texts.last == Self.frame([("offline", ["7", "bob"])]))
    }
}
