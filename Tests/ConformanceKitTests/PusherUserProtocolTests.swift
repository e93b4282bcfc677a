// SPDX-License-Identifier: MIT
import BuiltInAdapter
import HarnessJSON
import MockPusher
import PusherServer
import Testing
@testable import ConformanceKit

/// The driver protocol's user side (docs/driver-protocol.md, Pusher): the `signin` operation, the
/// `userAuthEndpoint` field and the `signedIn`, `userEvent` and `watchlist` lines; the user
/// endpoint URL the runner builds from a case's settings.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct PusherUserProtocolTests {
    @Test func newLinesParseAndBadOnesAreRefused() throws {
        #expect(try PusherDriverLines.event(#"{"type":"signedIn","userID":"ann"}"#) == .signedIn(userID: "ann"))
        #expect(try PusherDriverLines.event(#"{"type":"userEvent","event":"note","data":{"n":1}}"#) == .userEvent(name: "note", data: ["n": 1]))
        #expect(try PusherDriverLines.event(#"{"type":"watchlist","name":"online","userIDs":["bob","carol"]}"#)
            == .watchlist(name: "online", userIDs: ["bob", "carol"]))
        #expect(throws: ClientAdapterError.self) { try PusherDriverLines.event(#"{"type":"signedIn"}"#) }
        #expect(throws: ClientAdapterError.self) { try PusherDriverLines.event(#"{"type":"watchlist","userIDs":[]}"#) }
    }

    @Test func signinOperationAndConfigureField() {
        #expect(PusherOperation.signin.driverFields == ["type": "signin"])
        let configuration = PusherSessionConfiguration(host: "h", port: 1, appKey: "k", appSecret: "s", authEndpoint: "a", userID: "u",
                                                       settings: PusherClientSettings(), userAuthEndpoint: "http://h:1/__admin/pusher/user-auth/k/u")
        #expect(configuration.driverFields["userAuthEndpoint"] == "http://h:1/__admin/pusher/user-auth/k/u")
    }

    @Test func userEndpointURLCarriesTheWatchlistAndTheBadSignatureSwitch() throws {
        let server = try AdminHTTPPusherServer(address: "127.0.0.1:9")
        #expect(server.userAuthEndpoint(appKey: "key a", user: "ann", watchlist: nil, badSignature: false)
            == "http://127.0.0.1:9/__admin/pusher/user-auth/key%20a/ann")
        #expect(server.userAuthEndpoint(appKey: "k", user: "ann", watchlist: ["bob", "c d"], badSignature: true)
            == "http://127.0.0.1:9/__admin/pusher/user-auth/k/ann?watchlist=bob,c%20d&signature=bad")
    }

    @Test func userCasesNeedTheirCapabilitiesAndStayWithinBudget() {
        let cases = PusherCatalog.all().filter { $0.group == "signin" || $0.group == "watchlist" }
        #expect(cases.count == 13)
        #expect(cases.allSatisfy { $0.requires.contains(.userSignin) && $0.timeBudget <= .seconds(4) })
        #expect(cases.filter { $0.group == "watchlist" }.allSatisfy { $0.requires.contains(.watchlist) })
    }
}
