// SPDX-License-Identifier: MIT
import MockPubNubServer
import MockPusher
import PusherServer
import Testing

@Suite("Pusher HTTP API: endpoints", .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherHTTPAPIEndpointTests {
    @Test func eventsDeliversToEveryChannelExceptTheExcludedSocket() {
        let bed = PusherAPIBed()
        let first = bed.connect(1)
        bed.connect(2)
        bed.subscribe(1, "a")
        bed.subscribe(2, "a")
        bed.subscribe(2, "b")
        let body = #"{"name":"e","data":"not json","channels":["a","b"],"socket_id":"\#(first)"}"#
        let outcome = bed.respond(bed.signed("POST", "/apps/3/events", body: body))
        #expect(outcome.status == 200)
        #expect(messages(outcome.actions, to: 1).isEmpty)
        #expect(messages(outcome.actions, to: 2) == [
            #"{"event":"e","data":"not json","channel":"a"}"#, #"{"event":"e","data":"not json","channel":"b"}"#,
        ])
    }

    @Test func eventsWithInfoReportsAttributesPerChannel() {
        let bed = PusherAPIBed()
        bed.connect(1)
        bed.connect(2)
        bed.subscribe(1, "presence-room", userID: "u1")
        bed.subscribe(2, "presence-room", userID: "u1")
        bed.subscribe(1, "news")
        let body = #"{"name":"e","data":"{}","channels":["presence-room","news"],"info":"user_count,subscription_count"}"#
        let outcome = bed.respond(bed.signed("POST", "/apps/3/events", body: body))
        #expect(outcome.text == #"{"channels":{"presence-room":{"user_count":1,"subscription_count":2},"news":{"subscription_count":1}}}"#)
    }

    @Test func batchEventsTriggersEachAndAnswersInfoInOrder() {
        let bed = PusherAPIBed()
        bed.connect(1)
        bed.subscribe(1, "a")
        let plain = #"{"batch":[{"name":"x","data":"1","channel":"a"},{"name":"y","data":"2","channel":"b"}]}"#
        let outcome = bed.respond(bed.signed("POST", "/apps/3/batch_events", body: plain))
        #expect(outcome.text == "{}")
        #expect(messages(outcome.actions, to: 1) == [#"{"event":"x","data":"1","channel":"a"}"#])
        let withInfo = #"{"batch":[{"name":"x","data":"1","channel":"a","info":"subscription_count"},{"name":"y","data":"2","channel":"b"}]}"#
        #expect(bed.respond(bed.signed("POST", "/apps/3/batch_events", body: withInfo)).text == #"{"batch":[{"subscription_count":1},{}]}"#)
    }

    @Test func eventsRefusesBadBodiesWithTheirTexts() {
        let bed = PusherAPIBed()
        let missingName = bed.respond(bed.signed("POST", "/apps/3/events", body: #"{"data":"x","channels":["a"]}"#))
        #expect(missingName.status == 400)
        #expect(missingName.text == "Expected name parameter to be a string\n")
        let big = String(repeating: "x", count: 10_241)
        let tooLarge = bed.respond(bed.signed("POST", "/apps/3/events", body: #"{"name":"e","data":"\#(big)","channels":["a"]}"#))
        #expect(tooLarge.status == 413)
        let fits = String(repeating: "x", count: 10_240)
        #expect(bed.respond(bed.signed("POST", "/apps/3/events", body: #"{"name":"e","data":"\#(fits)","channels":["a"]}"#)).status == 200)
        let channels = (0...100).map { "\"c\($0)\"" }.joined(separator: ",")
        #expect(bed.respond(bed.signed("POST", "/apps/3/events", body: #"{"name":"e","data":"x","channels":[\#(channels)]}"#)).status == 400)
        let hundred = (0..<100).map { "\"c\($0)\"" }.joined(separator: ",")
        #expect(bed.respond(bed.signed("POST", "/apps/3/events", body: #"{"name":"e","data":"x","channels":[\#(hundred)]}"#)).status == 200)
        let badSocket = bed.respond(bed.signed("POST", "/apps/3/events", body: #"{"name":"e","data":"x","channel":"a","socket_id":"12.ab"}"#))
        #expect(badSocket.status == 400)
        #expect(bed.respond(bed.signed("POST", "/apps/3/events", body: #"{"name":"e","data":"x","channels":["bad name"]}"#)).status == 400)
        #expect(bed.respond(bed.signed("POST", "/apps/3/events", body: "not json")).status == 400)
        let eleven = (0..<11).map { #"{"name":"e","data":"x","channel":"c\#($0)"}"# }.joined(separator: ",")
        #expect(bed.respond(bed.signed("POST", "/apps/3/batch_events", body: #"{"batch":[\#(eleven)]}"#)).status == 400)
    }

    @Test func channelListFiltersAndCountsUsersOnlyForPresence() {
        let bed = PusherAPIBed()
        bed.connect(1)
        bed.subscribe(1, "presence-a", userID: "1")
        bed.subscribe(1, "news")
        #expect(bed.respond(bed.signed("GET", "/apps/3/channels")).text == #"{"channels":{"news":{},"presence-a":{}}}"#)
        let presence = bed.signed("GET", "/apps/3/channels", [QueryItem(name: "filter_by_prefix", value: "presence-"), QueryItem(name: "info", value: "user_count")])
        #expect(bed.respond(presence).text == #"{"channels":{"presence-a":{"user_count":1}}}"#)
        let refused = bed.respond(bed.signed("GET", "/apps/3/channels", [QueryItem(name: "info", value: "user_count")]))
        #expect(refused.status == 400)
    }

    @Test func channelInfoAnswersTheAskedAttributes() {
        let bed = PusherAPIBed()
        bed.connect(1)
        bed.subscribe(1, "presence-a", userID: "1")
        let info = bed.signed("GET", "/apps/3/channels/presence-a", [QueryItem(name: "info", value: "user_count,subscription_count")])
        #expect(bed.respond(info).text == #"{"occupied":true,"user_count":1,"subscription_count":1}"#)
        #expect(bed.respond(bed.signed("GET", "/apps/3/channels/empty")).text == #"{"occupied":false}"#)
        let noUsers = bed.respond(bed.signed("GET", "/apps/3/channels/empty", [QueryItem(name: "info", value: "user_count")]))
        #expect(noUsers.status == 400)
        _ = bed.respond(bed.signed("POST", "/apps/3/events", body: #"{"name":"e","data":"kept","channel":"cache-x"}"#))
        let cache = bed.signed("GET", "/apps/3/channels/cache-x", [QueryItem(name: "info", value: "cache")])
        #expect(bed.respond(cache).text == #"{"occupied":false,"cache":{"event":"e","data":"kept"}}"#)
    }

    @Test func usersListsPresenceMembersAndRefusesExtraParameters() {
        let bed = PusherAPIBed()
        bed.connect(1)
        bed.connect(2)
        bed.subscribe(1, "presence-a", userID: "1")
        bed.subscribe(2, "presence-a", userID: "2")
        #expect(bed.respond(bed.signed("GET", "/apps/3/channels/presence-a/users")).text == #"{"users":[{"id":"1"},{"id":"2"}]}"#)
        let extra = bed.respond(bed.signed("GET", "/apps/3/channels/presence-a/users", [QueryItem(name: "info", value: "user_count")]))
        #expect(extra.status == 400)
        #expect(extra.text == "The following query string parameters are extraneous: info")
        #expect(bed.respond(bed.signed("GET", "/apps/3/channels/news/users")).status == 400)
    }

    @Test func terminateAcceptsBothPathFormsAndClosesSignedInConnections() {
        let bed = PusherAPIBed()
        bed.connect(1)
        bed.connect(2)
        bed.connect(3)
        bed.signin(1, userID: "alice")
        bed.signin(2, userID: "alice")
        bed.signin(3, userID: "bob")
        let long = bed.respond(bed.signed("POST", "/apps/3/users/alice/terminate_connections"))
        #expect(long.text == "{}")
        #expect(long.terminateForm == .appScoped)
        let closed = long.actions.compactMap { action -> UInt64? in
            if case .close(let connection, 4009, _) = action { return connection.rawValue }
            return nil
        }
        #expect(closed == [1, 2])
        let short = bed.respond(bed.signed("POST", "/users/bob/terminate_connections"))
        #expect(short.status == 200)
        #expect(short.terminateForm == .short)
        #expect(short.actions.contains { if case .close(PusherConnectionID(3), _, _) = $0 { true } else { false } })
    }

    @Test func unknownPathsAndAppsAre404() {
        let bed = PusherAPIBed()
        for request in [bed.signed("GET", "/apps/3/nothing"), bed.signed("GET", "/apps/3/events"), bed.signed("GET", "/apps/9/channels")] {
            let outcome = bed.respond(request)
            #expect(outcome.status == 404)
            #expect(outcome.text == "404 NOT FOUND\n")
        }
    }
}
