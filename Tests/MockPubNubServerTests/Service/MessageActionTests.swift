// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct MessageActionTests {
    private let base = "/v1/message-actions/demo/channel/ch"

    /// Adds `type`/`value` by `uuid` to the message at `timetoken`.
    @discardableResult
    private func add(_ h: ServiceHarness, _ timetoken: String, _ type: String, _ value: String, uuid: String = "Serhii")
        -> (Int, String) {
        h.call(base + "/message/\(timetoken)?uuid=\(uuid)", method: "POST",
               body: "{\"type\":\"\(type)\",\"value\":\"\(value)\"}")
    }

    /// Recorded (2024): the add answer; fetch with actions nests them as type → value → [{uuid, actionTimetoken}].
    @Test func addAnswersTheActionAndHistoryWithActionsCarriesIt() {
        let h = ServiceHarness()
        let first = h.publish("ch", "\"m0\"")
        let second = h.publish("ch", "\"m1\"")
        #expect(add(h, first, "receipt", "value2") == (200, "{\"status\": 200, \"data\": {\"messageTimetoken\": \"\(first)\", "
            + "\"type\": \"receipt\", \"uuid\": \"Serhii\", \"value\": \"value2\", \"actionTimetoken\": \"\(serviceFirstTT + 2)\"}}"))
        add(h, first, "receipt", "value5")
        add(h, first, "reaction", "value4", uuid: "Kim")
        #expect(h.call("/v3/history-with-actions/sub-key/demo/channel/ch") == (200, "{\"status\": 200, \"channels\": {\"ch\": ["
            + "{\"timetoken\": \"\(first)\", \"message\": \"m0\", \"actions\": {\"receipt\": {\"value2\": [{\"uuid\": \"Serhii\", "
            + "\"actionTimetoken\": \"\(serviceFirstTT + 2)\"}], \"value5\": [{\"uuid\": \"Serhii\", \"actionTimetoken\": \"\(serviceFirstTT + 3)\"}]}, "
            + "\"reaction\": {\"value4\": [{\"uuid\": \"Kim\", \"actionTimetoken\": \"\(serviceFirstTT + 4)\"}]}}}, "
            + "{\"timetoken\": \"\(second)\", \"message\": \"m1\"}]}, \"error_message\": \"\", \"error\": false}"))
        // Plain fetch and history v2 never show actions or the action events.
        #expect(!h.call("/v3/history/sub-key/demo/channel/ch").1.contains("actions"))
        #expect(h.call("/v2/history/sub-key/demo/channel/ch").1 == "[[\"m0\",\"m1\"],\(first),\(second)]")
    }

    @Test func subscribersReceiveAddedAndRemovedEvents() {
        let h = ServiceHarness()
        let message = h.publish("ch", "1")
        let poll = h.send("/v2/subscribe/demo/ch/0?tt=\(message)")
        #expect(poll.actions.isEmpty)
        add(h, message, "reaction", "smile")
        let added = serviceFirstTT + 1
        #expect(poll.body == "{\"t\":{\"t\":\"\(added)\",\"r\":12},\"m\":[{\"a\":\"2\",\"f\":0,\"e\":3,\"i\":\"Serhii\","
            + "\"p\":{\"t\":\"\(added)\",\"r\":12},\"k\":\"demo\",\"c\":\"ch\",\"d\":{\"source\":\"actions\",\"version\":\"1.0\","
            + "\"data\":{\"messageTimetoken\":\"\(message)\",\"type\":\"reaction\",\"value\":\"smile\",\"actionTimetoken\":\"\(added)\"},"
            + "\"event\":\"added\"}}]}")
        #expect(h.call(base + "/message/\(message)/action/\(added)", method: "DELETE") == (200, "{\"status\": 200, \"data\": {}}"))
        let (_, removed) = h.call("/v2/subscribe/demo/ch/0?tt=\(added)")
        #expect(removed.contains("\"event\":\"removed\"") && removed.contains("\"actionTimetoken\":\"\(added)\""))
        #expect(h.call(base) == (200, "{\"status\": 200, \"data\": []}"))
        // Removing an action that is gone still answers 200 (UNVERIFIED) and announces nothing.
        #expect(h.call(base + "/message/\(message)/action/\(added)", method: "DELETE").0 == 200)
    }

    @Test func getPagesNewestFirstWithMore() {
        let h = ServiceHarness()
        let message = h.publish("ch", "1")
        for value in ["a", "b", "c"] { add(h, message, "reaction", value) }
        let (a, b, c) = (serviceFirstTT + 1, serviceFirstTT + 2, serviceFirstTT + 3)
        func item(_ value: String, _ tt: UInt64) -> String {
            "{\"messageTimetoken\": \"\(message)\", \"type\": \"reaction\", \"uuid\": \"Serhii\", \"value\": \"\(value)\", \"actionTimetoken\": \"\(tt)\"}"
        }
        #expect(h.call(base + "?limit=2") == (200, "{\"status\": 200, \"data\": [" + item("b", b) + ", " + item("c", c)
            + "], \"more\": {\"url\": \"/v1/message-actions/demo/channel/ch?start=\(b)&limit=2\", \"start\": \"\(b)\", \"end\": \"\(a)\", \"limit\": 2}}"))
        #expect(h.call(base + "?limit=2&start=\(b)") == (200, "{\"status\": 200, \"data\": [" + item("a", a) + "]}"))
        #expect(h.call(base + "?end=\(b)") == (200, "{\"status\": 200, \"data\": [" + item("b", b) + ", " + item("c", c) + "]}"))
    }

    @Test func badInputGetsActionsErrors() {
        let h = ServiceHarness()
        func error(_ status: Int, _ message: String) -> (Int, String) {
            (status, "{\"status\": \(status), \"error\": {\"message\": \"\(message)\", \"source\": \"actions\"}}")
        }
        #expect(h.call(base + "/message/12ab?uuid=u", method: "POST", body: "{\"type\":\"t\",\"value\":\"v\"}")
            == error(400, "Invalid message timetoken"))
        #expect(h.call(base + "/message/1?uuid=u", method: "POST", body: "[1]") == error(400, "Invalid request body"))
        #expect(h.call(base + "/message/1?uuid=u", method: "POST", body: "{\"value\":\"v\"}") == error(400, "Missing field: type"))
        #expect(h.call(base + "/message/1?uuid=u", method: "POST", body: "{\"type\":\"t\",\"value\":1}") == error(400, "Missing field: value"))
        #expect(h.call(base + "/message/1?uuid=u", method: "POST", body: "{\"type\":\"sixteen-chars-xx\",\"value\":\"v\"}")
            == error(400, "Action type exceeds the maximum length of 15"))
        #expect(h.call(base + "/message/1", method: "POST", body: "{\"type\":\"t\",\"value\":\"v\"}") == error(400, "Missing uuid"))
        #expect(add(h, "1", "t", "v").0 == 200)
        #expect(add(h, "1", "t", "v") == error(409, "Action Already Added"))
        #expect(h.call(base + "?limit=0") == error(400, "Invalid limit"))
        #expect(h.call(base + "?start=x") == error(400, "Invalid timetoken"))
        #expect(h.call(base + "/message/1/action/x", method: "DELETE") == error(400, "Invalid timetoken"))
        #expect(h.call("/v1/message-actions/demo/channel/ch/message/1", method: "GET").0 == 404)
    }

    @Test func accessManagerGuardsActions() {
        let h = ServiceHarness(PubNubServiceConfiguration(keysets: [Keyset(subscribeKey: "pam", publishKey: "p", secretKey: "s")]))
        let target = "/v1/message-actions/pam/channel/ch/message/1?uuid=u&auth=k"
        #expect(h.call(target, method: "POST", body: "{\"type\":\"t\",\"value\":\"v\"}").0 == 403)
        h.service.grant(AccessGrant(channels: ["ch"], authKeys: ["k"], read: true, write: true), subscribeKey: "pam")
        #expect(h.call(target, method: "POST", body: "{\"type\":\"t\",\"value\":\"v\"}").0 == 200)
        #expect(h.call("/v1/message-actions/pam/channel/ch?auth=k").0 == 200)
        #expect(h.call("/v1/message-actions/pam/channel/ch/message/1/action/2?auth=k", method: "DELETE").0 == 403)
    }
}
