// SPDX-License-Identifier: MIT
import HarnessJSON
import MockPusher

/// User signin, events sent to a user, terminate and the watchlist (spec §3.2, §3.7, §4.2, §6.1;
/// pusher-js `user.ts`, `watchlist.ts`).
extension PusherCatalog {
    static let userChannel = "#server-to-user-" + client
    static let carol = PusherPeer("carol")

    /// Connected and signed in, the user channel subscribed (the server has the subscribe).
    static let signedIn: [PusherStep] = connected + [
        .signin, .expectSignedIn(client, withinMs: 2_000),
        .expectJournal(.sentOnConnection(event: "pusher:subscribe", channel: userChannel, connection: 1), withinMs: 2_000),
    ]

    static func user(_ change: (inout PusherClientSettings) -> Void) -> PusherClientSettings {
        var settings = PusherClientSettings()
        change(&settings)
        return settings
    }

    static var smallWatchlistApp: PusherAppOptions {
        var options = PusherAppOptions()
        options.watchlistLimit = 2
        return options
    }

    // MARK: signin

    static let signin: [PusherCase] = [
        PusherCase("pusher.signin.success", "signin: the user endpoint's answer is sent as pusher:signin, signin_success arrives, the client subscribes to #server-to-user-ID",
                   spec: "§3.2, §3.7, §4.2", steps: signedIn, requires: [.userSignin]),
        PusherCase("pusher.signin.bad-signature", "a badly signed signin gets pusher:error and the connection stays open", spec: "§3.2, §4.2",
                   client: user { $0.userAuth = .badSignature },
                   steps: connected + [.signin, .expectErrorEvent(code: nil, withinMs: 2_000),
                                       .subscribe("news"), .expectSubscribed("news", withinMs: 2_000)],
                   requires: [.userSignin]),
        PusherCase("pusher.signin.refused", "a user endpoint answering 403 is reported as an error; the connection stays open", spec: "§4.2",
                   client: user { $0.userAuth = .refused },
                   steps: connected + [.signin, .expectErrorEvent(code: nil, withinMs: 2_000),
                                       .subscribe("news"), .expectSubscribed("news", withinMs: 2_000)],
                   requires: [.userSignin]),
        PusherCase("pusher.signin.user-event", "an event the app server sends to the user (#server-to-user-ID) reaches the client", spec: "§3.7",
                   steps: signedIn + [.sendToUser(client, event: "note", data: #"{"n":1}"#),
                                      .expectUserEvent(event: "note", data: ["n": 1], withinMs: 2_000)],
                   requires: [.userSignin]),
        PusherCase("pusher.signin.other-user-event", "an event sent to another user does not reach the client", spec: "§3.7, §10",
                   steps: signedIn + [.sendToUser("someone-else", event: "note", data: #"{"n":1}"#),
                                      .sendToUser(client, event: "mine", data: #"{"n":2}"#),
                                      .expectUserEvent(event: "mine", data: ["n": 2], withinMs: 2_000),
                                      .expectNoUserEvent("note", forMs: 200)],
                   requires: [.userSignin]),
        PusherCase("pusher.signin.terminate", "terminate_connections closes the signed-in connection (4009) and spares a connection not signed in",
                   spec: "§6.1, §10",
                   steps: signedIn + [.peerSubscribe(ann, channel: "news"), .terminateUser(client),
                                      .expectDisconnected(code: 4009, withinMs: 2_000),
                                      .trigger("news", "still", "{}"), .expectPeerEvent(ann, channel: "news", event: "still", data: nil, withinMs: 2_000)],
                   requires: [.userSignin]),
        PusherCase("pusher.signin.terminate-spares-unsigned", "terminating a user signed in elsewhere leaves a connection that did not sign in open",
                   spec: "§6.1",
                   steps: connected + [.peerSignin(PusherPeer("twin", userID: client)), .terminateUser(client),
                                       .subscribe("news"), .expectSubscribed("news", withinMs: 2_000),
                                       .expectJournal(.socketIDReported(connection: 1), withinMs: 1_000)],
                   requires: [.userSignin]),
        PusherCase("pusher.signin.after-reconnect", "after a reconnect the client signs in again and user events reach it", spec: "§3.2, §5",
                   steps: signedIn + [.closeConnection(code: 4200, reason: "reconnect now"), .expectConnected(count: 2, withinMs: 2_000),
                                      .expectSignedIn(client, withinMs: 2_000),
                                      .expectJournal(.sentOnConnection(event: "pusher:subscribe", channel: userChannel, connection: 2), withinMs: 2_000),
                                      .sendToUser(client, event: "again", data: #"{"n":3}"#),
                                      .expectUserEvent(event: "again", data: ["n": 3], withinMs: 2_000)],
                   requires: [.userSignin, .reconnection]),
        PusherCase("pusher.signin.presence-user-info", "presence without channel_data after signin: the member carries the signin's user_info",
                   spec: "§3.4", client: user { $0.presenceFromSignin = true },
                   steps: [.peerSubscribe(ann, channel: "presence-room")] + signedIn + [
                       .subscribe("presence-room"), .expectSubscribed("presence-room", withinMs: 2_000),
                       .expectPeerEvent(ann, channel: "presence-room", event: "pusher_internal:member_added",
                                        data: ["user_id": .string(client), "user_info": ["name": .string(client)]], withinMs: 2_000),
                       .expectMembers(channel: "presence-room", userIDs: ["ann", client], withinMs: 2_000),
                   ],
                   requires: [.userSignin, .presence]),
    ]

    // MARK: watchlist

    static let watchlist: [PusherCase] = [
        PusherCase("pusher.watchlist.online-at-signin", "a watched user already online is reported online right after signin", spec: "§3.7",
                   client: user { $0.watchlist = ["bob", "carol"] },
                   steps: [.peerSignin(bob)] + connected + [.signin, .expectSignedIn(client, withinMs: 2_000),
                                                              .expectWatchlist(name: "online", userIDs: ["bob"], withinMs: 2_000)],
                   requires: [.userSignin, .watchlist]),
        PusherCase("pusher.watchlist.online-later", "a watched user signing in later is reported online", spec: "§3.7",
                   client: user { $0.watchlist = ["bob"] },
                   steps: signedIn + [.peerSignin(bob), .expectWatchlist(name: "online", userIDs: ["bob"], withinMs: 2_000)],
                   requires: [.userSignin, .watchlist]),
        PusherCase("pusher.watchlist.offline", "a watched user whose last connection ends is reported offline", spec: "§3.7",
                   client: user { $0.watchlist = ["bob"] },
                   steps: [.peerSignin(bob)] + signedIn + [.expectWatchlist(name: "online", userIDs: ["bob"], withinMs: 2_000),
                                                             .peerLeave(bob), .expectWatchlist(name: "offline", userIDs: ["bob"], withinMs: 2_000)],
                   requires: [.userSignin, .watchlist]),
        PusherCase("pusher.watchlist.over-limit", "a watchlist over the app's limit (2 here): signin succeeds, then pusher:error 4302", spec: "§3.2, §5",
                   client: user { $0.watchlist = ["bob", "carol", "dave"] },
                   steps: connected + [.signin, .expectSignedIn(client, withinMs: 2_000), .expectErrorEvent(code: 4302, withinMs: 2_000)],
                   requires: [.userSignin, .watchlist], appOptions: smallWatchlistApp),
    ]
}
