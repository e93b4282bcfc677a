// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// The publish fast path of `PubNubRoute.classify` and the shared route box.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct PubNubRouteFastPathTests {
    private static let publishForms: [(String, String)] = [
        ("GET", "/publish/pub/sub/0/ch/0/%22hello%22?uuid=u&seqn=3"),
        ("HEAD", "/publish/pub/sub/0/ch/0/1"),
        ("GET", "/signal/pub/sub/0/ch/0/%7B%22a%22%3A1%7D?uuid=u&channel-group=g1,g2"),
        ("POST", "/publish/pub/sub/0/ch/0?uuid=u&meta=%7B%7D"),
        ("POST", "/signal/pub/sub/0/ch/0"),
        ("GET", "/publish/pub/sub/0/a%2Fb/0/x%20y"),
        ("GET", "/publish//sub/0/ch/0/"),
        ("GET", "/publish/p%C3%A9/s%C3%BC/9/ch%E2%82%AC/7/%22%C3%A9%22?uuid=%C3%A9&x=a+b"),
        ("GET", "/publish/pub/sub/0/ch/0/1?"),
    ]

    /// Paths the fast path leaves to the general classification (which may refuse them).
    private static let otherForms: [(String, String)] = [
        ("GET", "/%70ublish/pub/sub/0/ch/0/1"),           // an escaped first segment
        ("GET", "/publish/pub/sub/0/ch/0/%ZZ"),           // a bad escape in the message
        ("GET", "/publish/pub/sub/%G0/ch/0/1"),           // a bad escape in a segment not kept
        ("GET", "/publish/pub/sub/0/ch/%FF/1"),           // a segment that is not UTF-8
        ("GET", "/publish/pub/sub/0/ch/0/1?uuid=%ZZ"),    // a bad query
        ("POST", "/publish/pub/sub/0/ch/0/1"),            // POST with a message segment
        ("GET", "/publish/pub/sub/0/ch/0"),               // GET without one
        ("DELETE", "/signal/pub/sub/0/ch/0/1"),
        ("GET", "/publish/pub/sub/0/ch"),
        ("GET", "/publish/pub/sub/0/ch/0/1/extra"),
        ("GET", "/publisher/pub/sub/0/ch/0/1"),
        ("GET", "/v2/subscribe/sub/ch/0?uuid=u"),
        ("GET", "/time/0"),
    ]

    @Test func theFastPathBuildsTheRouteTheSegmentsGive() throws {
        for (method, target) in Self.publishForms {
            let request = HTTPRequest(method: method, target: target)
            let fast = try #require(PubNubRoute.classifyPublish(request), "\(method) \(target)")
            let general = try PubNubRoute.classifyBySegments(request).get()
            #expect(fast == general, "\(method) \(target)")
            #expect(fast.hashValue == general.hashValue)
            #expect(PubNubRoute.classify(request) == .success(general))
        }
    }

    @Test func otherRequestsAreLeftToTheGeneralPath() {
        for (method, target) in Self.otherForms {
            let request = HTTPRequest(method: method, target: target)
            #expect(PubNubRoute.classifyPublish(request) == nil, "\(method) \(target)")
            #expect(PubNubRoute.classify(request) == PubNubRoute.classifyBySegments(request))
        }
        #expect(PubNubRoute.classify(HTTPRequest(method: "GET", target: "/publish/pub/sub/0/ch/0/%ZZ")) == .failure(.invalidPercentEncoding))
        #expect(PubNubRoute.classify(HTTPRequest(method: "POST", target: "/publish/pub/sub/0/ch/0/1")) == .failure(.notFound))
    }

    @Test func aCopyOfARouteIsWrittenOnItsOwn() throws {
        let original = try PubNubRoute.classify(HTTPRequest(method: "GET", target: "/publish/p/s/0/ch/0/1?uuid=u")).get()
        var copy = original
        #expect(copy == original)
        copy.channels.append("other")
        copy.accessDecided = true
        copy.uuid = nil
        #expect(original.channels == ["ch"])
        #expect(!original.accessDecided)
        #expect(original.uuid == "u")
        #expect(copy.channels == ["ch", "other"])
        #expect(copy != original)
        var again = copy
        again.channels = ["ch"]
        again.accessDecided = false
        again.uuid = "u"
        #expect(again == original)
        #expect(again.hashValue == original.hashValue)
        #expect(Set([original, again, copy]).count == 2)
    }

    @Test func aPublishRouteHoldsOneChannelAndAOneItemQueryWithoutArrays() throws {
        for (query, expected) in [("", 0), ("?uuid=u", 1), ("?uuid=u&ttl=3", 2), ("?&uuid=u&", 1), ("?a=1&&b", 2)] {
            let request = HTTPRequest(method: "GET", target: "/publish/p/s/0/ch/0/1" + query)
            let route = try #require(PubNubRoute.classifyPublish(request), "\(query)")
            let general = try PubNubRoute.classifyBySegments(request).get()
            #expect(route.firstChannel == "ch")
            if case .one(let channel) = route.channelList { #expect(channel == "ch") } else { Issue.record("channel in an array") }
            #expect(route.queryList.count == expected, "\(query)")
            #expect(route.queryList.array == general.query, "\(query)")
            #expect(route.query == general.query, "\(query)")
            if query == "?uuid=u" {
                if case .one(let item) = route.queryList {
                    #expect(item == QueryItem(name: "uuid", value: "u"))
                } else {
                    Issue.record("one item held in an array")
                }
            }
            // The general route holds arrays: the same route all the same.
            #expect(general.firstChannel == "ch")
            #expect(route == general)
        }
        #expect(RouteList<String>.empty.count == 0)
        #expect(RouteList<String>.empty.first == nil)
        #expect(RouteList.one("a")[0] == "a")
        #expect(RouteList.many(["a", "b"])[1] == "b")
        #expect(RouteList.one("a").array == ["a"])
    }

    @Test func aPublishRoutesParametersAreReadFromItsList() throws {
        for query in ["uuid=u", "ttl=4", "seqn=x", "ttl=4&seqn=2&store=0&ptto=9", "meta=%7B%7D", ""] {
            let route = try #require(PubNubRoute.classifyPublish(
                HTTPRequest(method: "GET", target: "/publish/p/s/0/ch/0/1?" + query)))
            let fromList = PublishParameters(route.queryList)
            let fromArray = PublishParameters(route.query)
            for (list, array) in [
                (fromList.ttl, fromArray.ttl), (fromList.seqn, fromArray.seqn), (fromList.store, fromArray.store),
                (fromList.ptto, fromArray.ptto), (fromList.meta, fromArray.meta),
            ] {
                #expect(list == array, "\(query)")
            }
            #expect(fromList.ttl == route.query["ttl"])
            #expect(ParameterValidation.problem(in: route, publish: fromList) == ParameterValidation.problem(in: route))
        }
    }

    @Test func aPublishRoutesChannelAndQueryAreWrittenInPlace() throws {
        let original = try #require(PubNubRoute.classifyPublish(
            HTTPRequest(method: "GET", target: "/publish/p/s/0/ch/0/1?uuid=u")))
        var route = original
        route.channels[0] = "other"
        route.query.append(QueryItem(name: "ttl", value: "1"))
        #expect(route.firstChannel == "other")
        #expect(route.channels == ["other"])
        #expect(route.query == [QueryItem(name: "uuid", value: "u"), QueryItem(name: "ttl", value: "1")])
        #expect(route.queryList.count == 2)
        #expect(original.channels == ["ch"])
        #expect(original.query == [QueryItem(name: "uuid", value: "u")])
        var unique = try #require(PubNubRoute.classifyPublish(HTTPRequest(method: "GET", target: "/publish/p/s/0/ch/0/1")))
        unique.channels.append("b")
        unique.query = [QueryItem(name: "x", value: "y")]
        #expect(unique.channels == ["ch", "b"])
        #expect(unique.queryList.first == QueryItem(name: "x", value: "y"))
    }
}
