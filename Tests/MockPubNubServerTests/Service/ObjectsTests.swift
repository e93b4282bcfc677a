// SPDX-License-Identifier: MIT
import Testing
@testable import MockPubNubServer

/// App Context (`/v2/objects/…`): exact bodies, key order, cursors, If-Match, events.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ObjectsTests {
    /// The `updated` of the n-th write of a fresh harness (the service clock starts at …00.1234567).
    static func updated(_ n: Int) -> String { "2025-01-01T00:00:00.\(123456 + n)Z" }

    /// The value of `key` in the first `"key":"…"` of `body`.
    static func string(_ key: String, in body: String, occurrence: Int = 0) -> String {
        let parts = body.components(separatedBy: "\"\(key)\":\"")
        guard parts.count > occurrence + 1 else { return "" }
        return String(parts[occurrence + 1].prefix { $0 != "\"" })
    }

    static func isHexETag(_ text: String) -> Bool { text.count == 32 && text.allSatisfy { $0.isHexDigit && !$0.isUppercase } }

    /// A call with headers, checking the one answer and its Content-Type.
    static func call(_ h: ServiceHarness, _ target: String, method: String = "GET", body: String = "",
                     headers: HTTPHeaders = HTTPHeaders()) -> (Int, String) {
        let capture = ServiceCapture()
        let context = RequestContext(connectionID: 1, peer: "127.0.0.1:5000", localPort: 8090, isTLS: false, arrivalTime: 0,
                                     sequenceOnConnection: 0)
        h.service.handle(HTTPRequest(method: method, target: target, headers: headers, body: Array(body.utf8)),
                         context: context, responder: capture.responder)
        #expect(capture.response?.headers["Content-Type"] == "application/json")
        return (capture.status ?? -1, capture.body ?? "")
    }

    let user = "{\"name\": \"name\", \"email\": \"e@x\", \"externalId\": \"ext\", \"profileUrl\": \"https://x\", "
        + "\"custom\": {\"foo\": \"bar\"}, \"status\": \"Testing\", \"type\": \"test\"}"

    @Test func setAndGetUUIDWithTheRecordedKeyOrder() {
        let h = ServiceHarness()
        let (status, body) = h.call("/v2/objects/demo/uuids/u1?include=custom,status,type", method: "PATCH", body: user)
        let eTag = Self.string("eTag", in: body)
        #expect(status == 200 && Self.isHexETag(eTag))
        let full = "{\"status\":200,\"data\":{\"id\":\"u1\",\"name\":\"name\",\"externalId\":\"ext\",\"profileUrl\":\"https://x\","
            + "\"email\":\"e@x\",\"type\":\"test\",\"status\":\"Testing\",\"custom\":{\"foo\":\"bar\"},\"updated\":\"\(Self.updated(0))\","
            + "\"eTag\":\"\(eTag)\"}}"
        #expect(body == full)
        #expect(h.call("/v2/objects/demo/uuids/u1?include=custom%2Cstatus%2Ctype") == (200, full))
        // Without include: no type, status or custom keys; with status,type: those two only.
        #expect(h.call("/v2/objects/demo/uuids/u1") == (200, "{\"status\":200,\"data\":{\"id\":\"u1\",\"name\":\"name\","
            + "\"externalId\":\"ext\",\"profileUrl\":\"https://x\",\"email\":\"e@x\",\"updated\":\"\(Self.updated(0))\",\"eTag\":\"\(eTag)\"}}"))
        #expect(h.call("/v2/objects/demo/uuids/u1?include=status,type").1.contains("\"email\":\"e@x\",\"type\":\"test\",\"status\":\"Testing\",\"updated\""))
    }

    @Test func patchChangesOnlyTheFieldsInTheBodyWithANewETagAndUpdated() {
        let h = ServiceHarness()
        let first = h.call("/v2/objects/demo/channels/c1?include=custom,status,type", method: "PATCH",
                           body: "{\"name\": \"n\", \"description\": \"d\", \"status\": \"active\", \"type\": \"QA\", \"custom\": {\"k\": 1}}").1
        let second = h.call("/v2/objects/demo/channels/c1?include=custom,status,type", method: "PATCH", body: "{\"name\": \"n\"}").1
        let eTag = Self.string("eTag", in: second)
        #expect(Self.isHexETag(eTag) && eTag != Self.string("eTag", in: first))
        #expect(second == "{\"status\":200,\"data\":{\"id\":\"c1\",\"name\":\"n\",\"description\":\"d\",\"type\":\"QA\",\"status\":\"active\","
            + "\"custom\":{\"k\":1},\"updated\":\"\(Self.updated(1))\",\"eTag\":\"\(eTag)\"}}")
        // A present null clears the field.
        #expect(h.call("/v2/objects/demo/channels/c1?include=status", method: "PATCH", body: "{\"status\": null}").1
            .contains("\"description\":\"d\",\"status\":null,"))
    }

    @Test func ifMatchWithAStaleETagIs412() {
        let h = ServiceHarness()
        let old = Self.string("eTag", in: h.call("/v2/objects/demo/uuids/u", method: "PATCH", body: "{\"name\": \"a\"}").1)
        let current = Self.string("eTag", in: h.call("/v2/objects/demo/uuids/u", method: "PATCH", body: "{\"name\": \"b\"}").1)
        #expect(Self.call(h, "/v2/objects/demo/uuids/u", method: "PATCH", body: "{\"name\": \"c\"}", headers: ["If-Match": old])
            == (412, "{\"status\":412,\"error\":{\"message\":\"User to update has been modified after it was read.\",\"source\":\"objects\"}}"))
        #expect(Self.call(h, "/v2/objects/demo/uuids/u", method: "PATCH", body: "{\"name\": \"c\"}", headers: ["If-Match": current]).0 == 200)
        h.call("/v2/objects/demo/channels/c", method: "PATCH", body: "{\"name\": \"a\"}")
        #expect(Self.call(h, "/v2/objects/demo/channels/c", method: "PATCH", body: "{}", headers: ["If-Match": old])
            == (412, "{\"status\":412,\"error\":{\"message\":\"Channel to update has been modified after it was read.\",\"source\":\"objects\"}}"))
    }

    @Test func missingObjectsAnd404AndRemoval() {
        let h = ServiceHarness()
        #expect(h.call("/v2/objects/demo/uuids/nobody") == (404, "{\"status\":404,\"error\":{\"message\":\"Requested object was not found.\",\"source\":\"objects\"}}"))
        #expect(h.call("/v2/objects/demo/uuids/nobody", method: "DELETE") == (200, "{\"status\":200,\"data\":null}"))
        h.call("/v2/objects/demo/channels/c", method: "PATCH", body: "{\"name\": \"a\"}")
        #expect(h.call("/v2/objects/demo/channels/c", method: "DELETE") == (200, "{\"status\":200,\"data\":null}"))
        #expect(h.call("/v2/objects/demo/channels") == (200, "{\"status\":200,\"data\":[]}"))
        // Other methods and paths are not App Context endpoints.
        #expect(h.send("/v2/objects/demo/uuids", method: "DELETE").status == 404)
        #expect(h.send("/v2/objects/demo/uuids/u/channels", method: "DELETE").status == 404)
    }

    @Test func listsCountAndPageWithRecordedCursors() {
        let h = ServiceHarness()
        for n in 0..<15 { h.call("/v2/objects/demo/uuids/u-\(n)", method: "PATCH", body: "{\"name\": \"n\(n)\"}") }
        let first = h.call("/v2/objects/demo/uuids?limit=10&count=True").1
        #expect(first.hasSuffix("],\"totalCount\":15,\"next\":\"MTA\"}"))
        #expect(Self.string("id", in: first, occurrence: 2) == "u-10" && Self.string("id", in: first, occurrence: 9) == "u-4")
        let second = h.call("/v2/objects/demo/uuids?limit=10&start=MTA").1
        #expect(second.hasSuffix("\"eTag\":\"\(Self.string("eTag", in: second, occurrence: 4))\"}],\"next\":\"MTU\",\"prev\":\"MTA\"}"))
        #expect(Self.string("id", in: second) == "u-5" && !second.contains("totalCount"))
        // The last page still has next; an empty page has neither; end pages backwards.
        #expect(h.call("/v2/objects/demo/uuids?limit=10&start=MTU") == (200, "{\"status\":200,\"data\":[]}"))
        let back = h.call("/v2/objects/demo/uuids?limit=5&end=MTU&count=true").1
        #expect(Self.string("id", in: back) == "u-5" && back.hasSuffix("\"totalCount\":15,\"next\":\"MTU\",\"prev\":\"MTA\"}"))
        #expect(h.call("/v2/objects/demo/uuids?limit=0&count=tRuE") == (200, "{\"status\":200,\"data\":[],\"totalCount\":15}"))
    }

    @Test func sortByFieldsAndDirections() {
        let h = ServiceHarness()
        for (id, name, type) in [("a", "z", "t1"), ("b", "y", "t2"), ("c", "y", "t1")] {
            h.call("/v2/objects/demo/channels/\(id)", method: "PATCH", body: "{\"name\": \"\(name)\", \"type\": \"\(type)\"}")
        }
        func ids(_ query: String) -> [String] {
            let body = h.call("/v2/objects/demo/channels" + (query.isEmpty ? "" : "?" + query)).1
            return (0..<3).map { Self.string("id", in: body, occurrence: $0) }
        }
        #expect(ids("") == ["a", "b", "c"])
        #expect(ids("sort=name") == ["b", "c", "a"])
        #expect(ids("sort=name:asc,id:desc") == ["c", "b", "a"])
        #expect(ids("sort=type:desc&sort=name:desc") == ["b", "a", "c"])
        #expect(ids("sort=updated:desc") == ["c", "b", "a"])
        #expect(h.call("/v2/objects/demo/channels?sort=colour") == (400, "{\"status\":400,\"error\":{\"message\":\"Request parameters contained invalid input.\","
            + "\"source\":\"objects\",\"details\":[{\"message\":\"unsupported sort key \\\"colour\\\"\",\"location\":\"sort\",\"locationType\":\"query\"}]}}"))
        for bad in [":", ":asc", "name:", "name:up", "%20"] { #expect(h.call("/v2/objects/demo/channels?sort=\(bad)").0 == 400, "\(bad)") }
        #expect(h.call("/v2/objects/demo/channels?sort=,").0 == 200)
        #expect(h.call("/v2/objects/demo/channels?limit=101").0 == 400)
        #expect(h.call("/v2/objects/demo/channels?start=@@").0 == 400)
    }

    @Test func filterSelectsAndAnInvalidFilterIs400() {
        let h = ServiceHarness()
        h.call("/v2/objects/demo/uuids/john1", method: "PATCH", body: "{\"name\": \"John Smith\", \"status\": \"active\", \"custom\": {\"age\": 30}}")
        h.call("/v2/objects/demo/uuids/john2", method: "PATCH", body: "{\"name\": \"Johnny\", \"status\": \"away\"}")
        h.call("/v2/objects/demo/uuids/mary", method: "PATCH", body: "{\"name\": \"Mary\", \"status\": \"active\", \"custom\": {\"age\": 20}}")
        func ids(_ filter: String) -> String {
            let body = h.call("/v2/objects/demo/uuids?count=true&filter=\(PercentDecoding.encode(filter))").1
            return (0..<3).map { Self.string("id", in: body, occurrence: $0) }.filter { !$0.isEmpty }.joined(separator: ",")
        }
        #expect(ids("name LIKE \"John*\" && status == \"active\"") == "john1")
        #expect(ids("name like 'J*' || custom.age < 25") == "john1,john2,mary")
        #expect(ids("custom.age >= 30") == "john1")
        #expect(ids("!(status == \"active\")") == "john2")
        #expect(h.call("/v2/objects/demo/uuids?filter=\(PercentDecoding.encode("name =="))") == (400,
            "{\"status\":400,\"error\":{\"message\":\"Invalid filter expression.\",\"source\":\"objects\",\"details\":[{\"message\":"
            + "\"expected a value at position 7\",\"location\":\"filter\",\"locationType\":\"query\"}]}}"))
    }

    @Test func membershipsAnswerTheWholeListWithEmbeddedChannels() {
        let h = ServiceHarness()
        h.call("/v2/objects/demo/channels/ch-a", method: "PATCH", body: "{\"name\": \"A\", \"custom\": {\"p\": true}, \"type\": \"T\"}")
        let set = "{\"set\": [{\"channel\": {\"id\": \"ch-a\"}, \"custom\": {\"r\": 1}, \"status\": \"OFF\", \"type\": \"1\"}, "
            + "{\"channel\": {\"id\": \"ch-b\"}}], \"delete\": []}"
        let body = h.call("/v2/objects/demo/uuids/u/channels?include=custom,status,type,totalCount,channel,channel.custom,channel.type",
                          method: "PATCH", body: set).1
        let channelETag = Self.string("eTag", in: body)
        let (m1, m2) = (Self.string("eTag", in: body, occurrence: 1), Self.string("eTag", in: body, occurrence: 2))
        #expect(body == "{\"status\":200,\"data\":[{\"channel\":{\"id\":\"ch-a\",\"name\":\"A\",\"description\":null,\"type\":\"T\","
            + "\"custom\":{\"p\":true},\"updated\":\"\(Self.updated(0))\",\"eTag\":\"\(channelETag)\"},\"type\":\"1\",\"status\":\"OFF\","
            + "\"custom\":{\"r\":1},\"updated\":\"\(Self.updated(1))\",\"eTag\":\"\(m1)\"},{\"channel\":{\"id\":\"ch-b\"},\"type\":null,"
            + "\"status\":null,\"custom\":null,\"updated\":\"\(Self.updated(2))\",\"eTag\":\"\(m2)\"}],\"next\":\"Mg\"}")
        #expect(m1.count == 14 && m1 != m2)
        // Members show the same records from the channel's side; a delete answers what is left.
        #expect(h.call("/v2/objects/demo/channels/ch-b/uuids").1 == "{\"status\":200,\"data\":[{\"uuid\":{\"id\":\"u\"},"
            + "\"updated\":\"\(Self.updated(2))\",\"eTag\":\"\(m2)\"}],\"next\":\"MQ\"}")
        #expect(h.call("/v2/objects/demo/uuids/u/channels", method: "PATCH", body: "{\"delete\": [{\"channel\": {\"id\": \"ch-a\"}}]}").1
            == "{\"status\":200,\"data\":[{\"channel\":{\"id\":\"ch-b\"},\"updated\":\"\(Self.updated(2))\",\"eTag\":\"\(m2)\"}],\"next\":\"MQ\"}")
        // Equal content, equal membership eTag (as recorded).
        let other = h.call("/v2/objects/demo/channels/ch-c/uuids", method: "PATCH", body: "{\"set\": [{\"uuid\": {\"id\": \"x\"}}]}").1
        #expect(Self.string("eTag", in: other) == m2)
        #expect(h.call("/v2/objects/demo/uuids/u/channels", method: "PATCH", body: "{\"set\": [], \"delete\": [{\"channel\": {\"id\": \"ch-b\"}}]}")
            == (200, "{\"status\":200,\"data\":[]}"))
        #expect(h.call("/v2/objects/demo/uuids/u/channels", method: "PATCH", body: "{\"set\": [{\"channel\": {}}]}").0 == 400)
        #expect(h.call("/v2/objects/demo/uuids/u/channels", method: "PATCH", body: "not json").0 == 415)
        #expect(h.call("/v2/objects/demo/uuids/u", method: "PATCH", body: "{\"name\": 5}").1.contains("\"location\":\"uuid.name\""))
        #expect(h.call("/v2/objects/demo/uuids/u", method: "PATCH", body: "{\"custom\": {\"a\": {\"b\": 1}}}").0 == 400)
    }

    @Test func changesAreAnnouncedToSubscribersWithOnlyTheChangedFields() {
        let h = ServiceHarness()
        h.call("/v2/objects/demo/channels/ch", method: "PATCH", body: "{\"name\": \"A\", \"description\": \"d\"}")
        let start = ServiceHarness.cursor(h.call("/v2/subscribe/demo/ch,u1/0?tt=0").1)
        let poll = h.send("/v2/subscribe/demo/ch,u1/0?tt=\(start)")
        #expect(poll.actions.isEmpty)
        let eTag = Self.string("eTag", in: h.call("/v2/objects/demo/channels/ch", method: "PATCH", body: "{\"name\": \"B\", \"description\": null, \"custom\": null}").1)
        let body = poll.body ?? ""
        let tt = String(Self.string("t", in: body).prefix(17))
        #expect(body == "{\"t\":{\"t\":\"\(tt)\",\"r\":12},\"m\":[{\"a\":\"2\",\"f\":0,\"e\":2,\"p\":{\"t\":\"\(tt)\",\"r\":12},\"k\":\"demo\","
            + "\"c\":\"ch\",\"d\":{\"source\":\"objects\",\"version\":\"2.0\",\"event\":\"set\",\"type\":\"channel\",\"data\":{"
            + "\"description\":null,\"eTag\":\"\(eTag)\",\"id\":\"ch\",\"name\":\"B\",\"updated\":\"\(Self.updated(1))\"}}}]}")
        // Memberships reach the channel and the uuid's own channel; removals carry only the ids.
        h.call("/v2/objects/demo/channels/ch/uuids", method: "PATCH", body: "{\"set\": [{\"uuid\": {\"id\": \"u1\"}, \"status\": \"on\"}]}")
        let all = h.call("/v2/subscribe/demo/ch,u1/0?tt=\(tt)").1
        #expect(all.components(separatedBy: "\"type\":\"membership\"").count == 3)
        #expect(all.contains("\"c\":\"u1\"") && all.contains("\"data\":{\"channel\":{\"id\":\"ch\"},\"eTag\":"))
        #expect(all.contains("\"status\":\"on\",\"updated\":") && all.contains(",\"uuid\":{\"id\":\"u1\"}}}"))
        h.call("/v2/objects/demo/channels/ch", method: "DELETE")
        #expect(h.call("/v2/subscribe/demo/ch/0?tt=\(Self.cursorOf(all))").1.contains("\"event\":\"delete\",\"type\":\"channel\",\"data\":{\"id\":\"ch\"}}"))
        // Events are not history.
        #expect(h.call("/v2/history/sub-key/demo/channel/ch").1.hasPrefix("[[],"))
    }

    static func cursorOf(_ body: String) -> String { ServiceHarness.cursor(body) }

    @Test func accessManagerKeysetsNeedAGrant() {
        let h = ServiceHarness(PubNubServiceConfiguration(keysets: [Keyset(subscribeKey: "pam", publishKey: "p", secretKey: "s")]))
        #expect(h.call("/v2/objects/pam/channels/ch?auth=k") == (403, "{\"status\":403,\"error\":{\"message\":\"Supplied authorization key "
            + "does not have the permissions required to perform this operation.\",\"source\":\"objects\"}}"))
        h.service.grant(AccessGrant(channels: ["ch"], authKeys: ["k"], read: true, manage: true), subscribeKey: "pam")
        #expect(h.call("/v2/objects/pam/channels/ch?auth=k", method: "PATCH", body: "{\"name\": \"n\"}").0 == 200)
        #expect(h.call("/v2/objects/pam/channels/ch?auth=k").0 == 200)
        #expect(h.call("/v2/objects/pam/channels/ch?auth=k", method: "DELETE").0 == 403)
    }

    @Test func stateIsPerKeyAndInspectable() {
        let h = ServiceHarness()
        h.call("/v2/objects/demo/uuids/u", method: "PATCH", body: "{\"name\": \"n\"}")
        #expect(h.call("/v2/objects/other/uuids") == (200, "{\"status\":200,\"data\":[]}"))
        let snapshot = h.service.objectsSnapshot(subscribeKey: "demo")
        #expect(snapshot["uuids"]?[0]?["name"] == .string("n") && snapshot["memberships"] == .array([]))
        h.service.resetObjects(subscribeKey: "demo")
        #expect(h.call("/v2/objects/demo/uuids") == (200, "{\"status\":200,\"data\":[]}"))
    }

    @Test func routesClassifyAsTheObjectsEndpoint() {
        let route = PubNubRoute.classify(HTTPRequest(method: "PATCH", target: "/v2/objects/k/channels/a%20b/uuids?uuid=me"))
        #expect((try? route.get())?.endpoint == .objects && (try? route.get())?.channels == ["a b"])
        #expect((try? PubNubRoute.classify(HTTPRequest(method: "GET", target: "/v2/objects/k/uuids/x/channels")).get())?.targetUUID == "x")
        #expect(PubNubEndpoint(rawValue: "objects") == .objects)
    }
}
