// SPDX-License-Identifier: MIT
import HarnessJSON
import Testing
@testable import PusherClientUnderTest

/// The pure state machine's user side (pusher-js `user.ts`): signin on the current and every later
/// connection, the user channel, user events and watchlist entries.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct MachineSigninTests {
    static let userData = #"{"id":"ann","watchlist":["bob"]}"#
    static let success = #"{"event":"pusher:signin_success","data":"{\"user_data\":\"{\\\"id\\\":\\\"ann\\\",\\\"watchlist\\\":[\\\"bob\\\"]}\"}"}"#

    @Test func signinAuthenticatesSendsSigninAndSubscribesTheUserChannel() {
        var h = MachineHarness()
        #expect(h.feed(.signin) == [], "not connected yet")
        let established = h.establish(socketID: "1.1")
        #expect(established.contains(.authenticateUser(socketID: "1.1")))
        let sent = h.feed(.userAuthenticationFinished(socketID: "1.1", .success(PusherUserAuthentication(auth: "k:s", userData: Self.userData)))).sent
        #expect(sent == [#"{"event":"pusher:signin","data":{"auth":"k:s","user_data":"{\"id\":\"ann\",\"watchlist\":[\"bob\"]}"}}"#])
        let actions = h.feed(.socketText(Self.success))
        #expect(actions.callbacks == [.signedIn(userID: "ann")])
        #expect(actions.sent == [##"{"event":"pusher:subscribe","data":{"channel":"#server-to-user-ann","auth":""}}"##])
    }

    @Test func userEventsAndWatchlistEntriesReachTheApp() {
        var h = MachineHarness()
        h.establish(socketID: "1.1")
        h.feed(.signin)
        h.feed(.socketText(Self.success))
        let event = h.feed(.socketText(##"{"event":"note","data":"{\"n\":1}","channel":"#server-to-user-ann"}"##))
        #expect(event.callbacks == [.userEvent(PusherEventMessage(name: "note", channel: "#server-to-user-ann", data: ["n": 1], rawData: #"{"n":1}"#))])
        let other = h.feed(.socketText(##"{"event":"pusher_internal:subscription_succeeded","data":"{}","channel":"#server-to-user-ann"}"##))
        #expect(other.callbacks == [])
        let watch = h.feed(.socketText(#"{"event":"pusher_internal:watchlist_events","data":"{\"events\":[{\"name\":\"online\",\"user_ids\":[\"bob\"]},{\"name\":\"offline\",\"user_ids\":[\"carol\"]}]}"}"#))
        #expect(watch.callbacks == [.watchlist(name: "online", userIDs: ["bob"]), .watchlist(name: "offline", userIDs: ["carol"])])
    }

    @Test func aFailedAuthenticationIsReportedAndAStaleOneIgnored() {
        var h = MachineHarness()
        h.establish(socketID: "1.1")
        #expect(h.feed(.signin) == [.authenticateUser(socketID: "1.1")])
        #expect(h.feed(.signin) == [], "once is enough")
        #expect(h.feed(.userAuthenticationFinished(socketID: "9.9", .success(PusherUserAuthentication(auth: "k:s", userData: "{}")))) == [])
        #expect(h.feed(.userAuthenticationFinished(socketID: "1.1", .failure(.status(403, body: "no")))).callbacks == [.signinFailed(.status(403, body: "no"))])
    }

    @Test func aReconnectSignsInAgainAndForgetsTheOldUserChannel() {
        var h = MachineHarness()
        h.establish(socketID: "1.1")
        h.feed(.signin)
        h.feed(.socketText(Self.success))
        h.feed(.socketClosed(code: 4200, reason: "again"))
        #expect(h.feed(.socketText(##"{"event":"note","data":"{}","channel":"#server-to-user-ann"}"##)).callbacks == [])
        #expect(h.establish(socketID: "2.2").contains(.authenticateUser(socketID: "2.2")))
    }
}
