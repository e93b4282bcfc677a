// SPDX-License-Identifier: MIT
import HarnessJSON
import Testing
@testable import ClientUnderTest

/// Message actions without a server: requests as built, answers and events as parsed, refusals
/// before sending.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct MessageActionRequestTests {
    @Test func addIsAPostWithTypeAndValue() {
        let request = MessageActionEndpoints.add(subscribeKey: "s k", channel: "a b", messageTimetoken: 17_000_000_000_000_001,
                                                 type: "reaction", value: "smile")
        #expect(request.method == "POST" && request.operation == .addMessageAction && request.channels == ["a b"])
        #expect(request.path == "/v1/message-actions/s%20k/channel/a%20b/message/17000000000000001")
        #expect(request.body.map { String(decoding: $0, as: UTF8.self) } == #"{"type":"reaction","value":"smile"}"#)
    }

    @Test func getSendsOnlyTheBoundsGivenAndRemoveNamesBothTimetokens() {
        let all = MessageActionEndpoints.get(subscribeKey: "s", channel: "c", start: nil, end: nil, limit: nil)
        #expect(all.method == "GET" && all.path == "/v1/message-actions/s/channel/c" && all.query.isEmpty)
        let page = MessageActionEndpoints.get(subscribeKey: "s", channel: "c", start: 20, end: 10, limit: 2)
        #expect(page.query.map { "\($0.0)=\($0.1)" } == ["start=20", "end=10", "limit=2"])
        let remove = MessageActionEndpoints.remove(subscribeKey: "s", channel: "c", messageTimetoken: 5, actionTimetoken: 6)
        #expect(remove.method == "DELETE" && remove.path == "/v1/message-actions/s/channel/c/message/5/action/6" && remove.body == nil)
        let fetch = HistoryEndpoints.fetch(subscribeKey: "s", channels: ["c"], start: nil, end: nil, max: 25, includeMeta: false,
                                           includeUUID: false, includeMessageActions: true)
        #expect(fetch.path == "/v3/history-with-actions/sub-key/s/channel/c" && fetch.operation == .historyWithActions)
    }

    @Test func aListingKeepsItsOrderAndItsNextPage() throws {
        let body = try JSONValue.parse(#"""
            {"status": 200, "data": [
              {"messageTimetoken": "11", "type": "reaction", "uuid": "u", "value": "a", "actionTimetoken": "21"},
              {"messageTimetoken": 11, "type": "receipt", "uuid": "v", "value": "b", "actionTimetoken": 22}],
             "more": {"url": "/v1/message-actions/s/channel/c?start=21&end=20&limit=2", "start": "21", "end": "20", "limit": 2}}
            """#)
        let result = try #require(MessageActionEndpoints.parseList(body))
        #expect(result.actions == [PNMessageAction(type: "reaction", value: "a", uuid: "u", messageTimetoken: 11, actionTimetoken: 21),
                                   PNMessageAction(type: "receipt", value: "b", uuid: "v", messageTimetoken: 11, actionTimetoken: 22)])
        #expect(result.more == PNMessageActionsPage(start: 21, end: 20, limit: 2, url: "/v1/message-actions/s/channel/c?start=21&end=20&limit=2"))
        let last = try #require(MessageActionEndpoints.parseList(try JSONValue.parse(#"{"status": 200, "data": []}"#)))
        #expect(last.actions.isEmpty && last.more == nil)
        // A listing whose items lack a member is not a listing.
        #expect(MessageActionEndpoints.parseList(try JSONValue.parse(#"{"data": [{"type": "t"}]}"#)) == nil)
    }

    @Test func historyActionsAreFlattenedInTheServiceOrder() throws {
        let actions = try JSONValue.parse(#"{"reaction": {"smile": [{"uuid": "u", "actionTimetoken": "21"}, {"uuid": "v", "actionTimetoken": "23"}]}, "receipt": {"read": [{"uuid": "u", "actionTimetoken": "22"}]}}"#)
        let flat = try #require(MessageActionEndpoints.historyActions(actions, messageTimetoken: 11))
        #expect(flat.map { "\($0.type)/\($0.value)/\($0.uuid)/\($0.actionTimetoken)" } == ["reaction/smile/u/21", "reaction/smile/v/23", "receipt/read/u/22"])
        #expect(flat.allSatisfy { $0.messageTimetoken == 11 })
        #expect(MessageActionEndpoints.historyActions(nil, messageTimetoken: 11) == [])
        #expect(MessageActionEndpoints.historyActions(.string("x"), messageTimetoken: 11) == nil)
    }

    @Test func anEventTakesThePublisherAsUUIDWhenTheDataNamesNone() throws {
        let payload = try JSONValue.parse(#"{"source":"actions","version":"1.0","data":{"messageTimetoken":"11","type":"reaction","value":"smile","actionTimetoken":"21"},"event":"removed"}"#)
        let envelope = SubscribeEnvelope(channel: "c", subscription: nil, timetoken: 30, type: 3, publisher: "actor", payload: payload,
                                         userMetadata: nil)
        let event = try #require(MessageActionEndpoints.event(from: envelope))
        #expect(event.event == "removed" && event.channel == "c" && event.publisher == "actor" && event.timetoken == 30)
        #expect(event.action == PNMessageAction(type: "reaction", value: "smile", uuid: "actor", messageTimetoken: 11, actionTimetoken: 21))
    }

    @Test func badInputIsRefusedBeforeSending() async throws {
        // Port 9 on loopback: nothing may be sent, so nothing listens.
        let client = try makeClient(origin: "127.0.0.1:9")
        for (type, value, timetoken) in [("sixteen-chars-xy", "v", UInt64(11)), ("", "v", 11), ("t", "", 11), ("t", "v", 0)] {
            do {
                _ = try await client.addMessageAction(channel: "c", messageTimetoken: timetoken, type: type, value: value)
                Issue.record("\(type)/\(value)/\(timetoken) was accepted")
            } catch {
                #expect(error.category == .badRequest && error.statusCode == 0 && error.operation == .addMessageAction)
            }
        }
        let removal = await client.removeMessageAction(channel: "c", messageTimetoken: 11, actionTimetoken: 0)
        #expect(removal.category == .badRequest && removal.statusCode == 0)
        do {
            _ = try await client.fetchMessages(channels: ["a", "b"], includeMessageActions: true)
            Issue.record("several channels with actions were accepted")
        } catch {
            #expect(error.category == .badRequest && error.operation == .historyWithActions)
        }
    }
}
