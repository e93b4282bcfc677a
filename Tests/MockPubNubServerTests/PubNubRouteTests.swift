// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct PubNubRouteTests {
    private func route(_ method: String, _ target: String) throws -> PubNubRoute {
        try PubNubRoute.classify(HTTPRequest(method: method, target: target)).get()
    }

    @Test func subscribeWithGroupsOnlyHasNoChannels() throws {
        let r = try route("GET", "/v2/subscribe/demo/,/0?channel-group=g1,g2-pnpres&tt=0&uuid=u")
        #expect(r.endpoint == .subscribe)
        #expect(r.subscribeKey == "demo")
        #expect(r.channels == [])
        #expect(r.channelGroups == ["g1", "g2-pnpres"])
        #expect(r.uuid == "u")
    }

    @Test func pathSegmentsAreDecodedAfterSplitting() throws {
        let r = try route("GET", "/publish/p/s/0/a%2Fb/0/%7B%22a%22%3A1%7D")
        #expect(r.endpoint == .publish)
        #expect(r.channels == ["a/b"])
        #expect(r.message == "{\"a\":1}")
    }

    @Test func presenceAcceptsBothSubKeySpellings() throws {
        #expect(try route("GET", "/v2/presence/sub_key/s/channel/c/leave").endpoint == .leave)
        #expect(try route("GET", "/v2/presence/sub-key/s/channel/c/uuid/u/data?state=%7B%7D").endpoint == .setState)
        #expect(try route("GET", "/v2/presence/sub-key/s/channel/c/uuid/u").endpoint == .getState)
        #expect(try route("GET", "/v2/presence/sub-key/s/uuid/u").endpoint == .whereNow)
        #expect(try route("GET", "/v2/presence/sub-key/s").endpoint == .globalHereNow)
    }

    @Test func historyMethodsSelectTheEndpoint() throws {
        #expect(try route("DELETE", "/v3/history/sub-key/s/channel/c?start=1").endpoint == .deleteMessages)
        #expect(try route("GET", "/v3/history/sub-key/s/channel/a,b").channels == ["a", "b"])
        #expect(try route("GET", "/v3/history/sub-key/s/message-counts/a,b?timetoken=1").endpoint == .messageCounts)
    }

    @Test func channelRegistrationVerbsComeFromTheQuery() throws {
        let add = try route("GET", "/v1/channel-registration/sub-key/s/channel-group/g?add=a,b")
        #expect(add.endpoint == .channelGroupAdd)
        #expect(add.channels == ["a", "b"])
        #expect(add.channelGroups == ["g"])
        #expect(try route("GET", "/v1/channel-registration/sub-key/s/channel-group/g/remove").endpoint
            == .channelGroupDelete)
    }

    @Test func badEscapesAndUnknownPathsAreRefused() {
        #expect(PubNubRoute.classify(HTTPRequest(method: "GET", target: "/time/%ZZ")) == .failure(.invalidPercentEncoding))
        #expect(PubNubRoute.classify(HTTPRequest(method: "GET", target: "/nope")) == .failure(.notFound))
        #expect(PubNubRoute.classify(HTTPRequest(method: "POST", target: "/time/0")) == .failure(.notFound))
    }
}
