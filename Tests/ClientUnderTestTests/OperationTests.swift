// SPDX-License-Identifier: MIT
import Testing
@testable import ClientUnderTest

/// Every REST operation: the exact request sent and the parsing of the service's recorded bodies (§3-§8).
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct OperationTests {
    private static let suffix = "uuid=tester&pnsdk=PubNub-Swift-Linux%2F1.0.0"

    /// Runs `body` against a server answering every request with `reply`; returns the one request seen.
    private func exchange<T>(_ reply: ScriptedReply, configure: (inout PubNubConfiguration) -> Void = { _ in },
                             _ body: (PubNubClient) async throws -> T) async throws -> (T, SeenRequest)
    {
        let server = try ScriptedServer { _ in reply }
        defer { server.stop() }
        let client = try makeClient(origin: server.origin, configure: configure)
        let value = try await body(client)
        let seen = try #require(server.journal.items.first)
        #expect(server.journal.items.count == 1)
        return (value, seen)
    }

    @Test func publishGetWithMetaStoreTTL() async throws {
        let (result, seen) = try await exchange(.http(200, #"[1,"Sent","14820999391849243"]"#)) { client in
            try await client.publish(["text": "hi"], channel: "ch 1", meta: ["m": 1], store: true, ttl: 10)
        }
        #expect(result == PNPublishResult(timetoken: 14_820_999_391_849_243, information: "Sent"))
        #expect(seen.method == "GET")
        #expect(seen.target == "/publish/pub-k/sub-k/0/ch%201/0/%7B%22text%22%3A%22hi%22%7D?store=1&ttl=10&meta=%7B%22m%22%3A1%7D&seqn=1&\(Self.suffix)")
    }

    @Test func publishPostSendsTheBody() async throws {
        let (_, seen) = try await exchange(.http(200, #"[1,"Sent","1"]"#), configure: { $0.authKey = "a+b" }) { client in
            try await client.publish("hi", channel: "ch", store: false, usePOST: true)
        }
        #expect(seen.method == "POST")
        #expect(seen.target == "/publish/pub-k/sub-k/0/ch/0?store=0&seqn=1&\(Self.suffix)&auth=a%2Bb")
        #expect(seen.body == Array(#""hi""#.utf8))
        #expect(seen.headers["content-type"] == "application/json")
    }

    @Test func publishRefusalIsBadRequest() async throws {
        let server = try ScriptedServer { _ in .http(400, #"[0,"Invalid Key","14820999375199241"]"#) }
        defer { server.stop() }
        let client = try makeClient(origin: server.origin)
        do throws(PNStatus) {
            _ = try await client.publish(1, channel: "ch")
            Issue.record("expected a status")
        } catch {
            #expect(error.category == .badRequest)
            #expect(error.operation == .publish)
            #expect(error.errorData?.information == "Invalid Key")
        }
    }

    @Test func signal() async throws {
        let (result, seen) = try await exchange(.http(200, #"[1,"Sent","15640049765289377"]"#)) { client in
            try await client.signal(["s": true], channel: "ch")
        }
        #expect(result.timetoken == 15_640_049_765_289_377)
        #expect(seen.target == "/signal/pub-k/sub-k/0/ch/0/%7B%22s%22%3Atrue%7D?\(Self.suffix)")
    }

    @Test func hereNowSingleChannelFlatForm() async throws {
        let body = #"{"status": 200, "message": "OK", "service": "Presence", "uuids": [{"uuid": "Kim", "state": {"a": 1}}], "occupancy": 1}"#
        let (result, seen) = try await exchange(.http(200, body)) { try await $0.hereNow(channels: ["ch"], includeState: true) }
        #expect(seen.target == "/v2/presence/sub-key/sub-k/channel/ch?disable_uuids=0&state=1&\(Self.suffix)")
        #expect(result == PNHereNowResult(totalChannels: 1, totalOccupancy: 1,
                                          channels: ["ch": PNChannelOccupancy(occupancy: 1, occupants: [PNOccupant(uuid: "Kim", state: ["a": 1])])]))
    }

    @Test func hereNowSeveralChannelsAndGroups() async throws {
        let body = #"{"status": 200, "message": "OK", "payload": {"channels": {"a": {"uuids": ["u1"], "occupancy": 1}, "b": {"occupancy": 3}}, "total_channels": 2, "total_occupancy": 4}, "service": "Presence"}"#
        let (result, seen) = try await exchange(.http(200, body)) {
            try await $0.hereNow(channels: ["a", "b"], channelGroups: ["g1", "g2"], includeUUIDs: false)
        }
        #expect(seen.target == "/v2/presence/sub-key/sub-k/channel/a,b?disable_uuids=1&state=0&channel-group=g1,g2&\(Self.suffix)")
        #expect(result.totalOccupancy == 4)
        #expect(result.channels["a"]?.occupants == [PNOccupant(uuid: "u1", state: nil)])
        #expect(result.channels["b"]?.occupancy == 3)
    }

    @Test func globalHereNow() async throws {
        let body = #"{"status": 200, "message": "OK", "payload": {"channels": {"c3": {"occupancy": 1}}, "total_channels": 1, "total_occupancy": 1}, "service": "Presence"}"#
        let (result, seen) = try await exchange(.http(200, body)) { try await $0.hereNow() }
        #expect(seen.target == "/v2/presence/sub-key/sub-k?disable_uuids=0&state=0&\(Self.suffix)")
        #expect(result.channels.keys.sorted() == ["c3"])
    }

    @Test func whereNow() async throws {
        let body = #"{"status": 200, "message": "OK", "payload": {"channels": ["a", "b"]}, "service": "Presence"}"#
        let (result, seen) = try await exchange(.http(200, body)) { try await $0.whereNow(uuid: "bob") }
        #expect(seen.target == "/v2/presence/sub-key/sub-k/uuid/bob?\(Self.suffix)")
        #expect(result.channels == ["a", "b"])
    }

    @Test func setAndGetState() async throws {
        let setBody = #"{"status": 200, "message": "OK", "payload": {"count": 5}, "service": "Presence"}"#
        let (set, setSeen) = try await exchange(.http(200, setBody)) { try await $0.setState(["count": 5], channels: ["a"], channelGroups: ["g"]) }
        #expect(setSeen.target == "/v2/presence/sub-key/sub-k/channel/a/uuid/tester/data?state=%7B%22count%22%3A5%7D&channel-group=g&\(Self.suffix)")
        #expect(set.channels == ["a": ["count": 5], "g": ["count": 5]])
        let getBody = #"{"status": 200, "message": "OK", "payload": {"channels": {"a": {"count": 5}, "b": {}}}, "service": "Presence", "uuid": "bob"}"#
        let (got, getSeen) = try await exchange(.http(200, getBody)) { try await $0.getState(channels: ["a", "b"], uuid: "bob") }
        #expect(getSeen.target == "/v2/presence/sub-key/sub-k/channel/a,b/uuid/bob?\(Self.suffix)")
        #expect(got.channels == ["a": ["count": 5], "b": [:]])
        let single = #"{"status": 200, "uuid": "u", "service": "Presence", "message": "OK", "payload": {"name": "Alex"}, "channel": "a"}"#
        let (one, _) = try await exchange(.http(200, single)) { try await $0.getState(channels: ["a"]) }
        #expect(one.channels == ["a": ["name": "Alex"]])
    }

    @Test func heartbeatAndLeaveAcknowledge() async throws {
        let (beat, seen) = try await exchange(.http(200, #"{"status": 200, "message": "OK", "service": "Presence"}"#),
                                              configure: { $0.presenceHeartbeatValue = 120 }) {
            await $0.heartbeat(channels: ["a"], channelGroups: ["g"])
        }
        #expect(beat.category == .acknowledgment)
        #expect(beat.isError == false)
        #expect(seen.target == "/v2/presence/sub-key/sub-k/channel/a/heartbeat?heartbeat=120&channel-group=g&\(Self.suffix)")
    }

    @Test func historyWithTimetokensAndMeta() async throws {
        let body = #"[[{"message":{"i":0},"timetoken":17194251685783482,"meta":{"t":1}},{"message":"x","timetoken":17194251685783483,"meta":""}],17194251685783482,17194251685783483]"#
        let (result, seen) = try await exchange(.http(200, body)) {
            try await $0.history(channel: "ch", start: 1, end: 2, count: 10, reverse: true, includeTimetoken: true, includeMeta: true)
        }
        #expect(seen.target == "/v2/history/sub-key/sub-k/channel/ch?count=10&reverse=true&start=1&end=2&include_token=true&include_meta=true&\(Self.suffix)")
        #expect(result == PNHistoryResult(messages: [
            PNHistoryMessage(message: ["i": 0], timetoken: 17_194_251_685_783_482, meta: ["t": 1], publisher: nil, decryptionFailed: false),
            PNHistoryMessage(message: "x", timetoken: 17_194_251_685_783_483, meta: nil, publisher: nil, decryptionFailed: false),
        ], start: 17_194_251_685_783_482, end: 17_194_251_685_783_483))
    }

    @Test func plainHistory() async throws {
        let (result, _) = try await exchange(.http(200, #"[["hey-0","hey-1"],14820999261239656,14820999264622346]"#)) {
            try await $0.history(channel: "ch")
        }
        #expect(result.messages.map(\.message) == ["hey-0", "hey-1"])
        #expect(result.messages.map(\.timetoken) == [nil, nil])
    }

    @Test func fetchMessages() async throws {
        let body = #"{"status": 200, "error": false, "error_message": "", "channels": {"a":[{"message": "hey", "timetoken": "16075182590271497", "uuid": "u"}]}}"#
        let (result, seen) = try await exchange(.http(200, body)) {
            try await $0.fetchMessages(channels: ["a", "b"], start: 5, includeMeta: true, includeUUID: true)
        }
        #expect(seen.target == "/v3/history/sub-key/sub-k/channel/a,b?max=25&start=5&include_meta=true&include_uuid=true&\(Self.suffix)")
        #expect(result.channels == ["a": [PNHistoryMessage(message: "hey", timetoken: 16_075_182_590_271_497, meta: nil, publisher: "u", decryptionFailed: false)]])
    }

    @Test func fetchMessagesWithCustomMessageTypes() async throws {
        let body = #"{"status": 200, "error": false, "error_message": "", "channels": {"a":[{"message":"t","timetoken":"16075182590271497","custom_message_type":"chat"},{"message":"p","timetoken":"16075182590271498"}]}}"#
        let (result, seen) = try await exchange(.http(200, body)) {
            try await $0.fetchMessages(channels: ["a"], includeCustomMessageType: true)
        }
        #expect(seen.target == "/v3/history/sub-key/sub-k/channel/a?max=100&include_custom_message_type=true&\(Self.suffix)")
        #expect(result.channels["a"]?.map(\.customMessageType) == ["chat", nil])
    }

    @Test func deleteMessages() async throws {
        let (status, seen) = try await exchange(.http(200, #"{"status": 200, "error": false, "error_message": ""}"#)) {
            await $0.deleteMessages(channel: "ch", start: 123, end: 456)
        }
        #expect(status.category == .acknowledgment)
        #expect(status.operation == .deleteMessages)
        #expect(seen.method == "DELETE")
        #expect(seen.target == "/v3/history/sub-key/sub-k/channel/ch?start=123&end=456&\(Self.suffix)")
    }

    @Test func messageCounts() async throws {
        let body = #"{"status": 200, "error": false, "error_message": "", "channels": {"a":1,"b":0}}"#
        let (one, seenOne) = try await exchange(.http(200, body)) { try await $0.messageCounts(channels: ["a", "b"], timetokens: [15]) }
        #expect(one.channels == ["a": 1, "b": 0])
        #expect(seenOne.target == "/v3/history/sub-key/sub-k/message-counts/a,b?timetoken=15&\(Self.suffix)")
        let (_, seenTwo) = try await exchange(.http(200, body)) { try await $0.messageCounts(channels: ["a", "b"], timetokens: [15, 16]) }
        #expect(seenTwo.target == "/v3/history/sub-key/sub-k/message-counts/a,b?channelsTimetoken=15,16&\(Self.suffix)")
    }

    @Test func channelGroups() async throws {
        let ok = ScriptedReply.http(200, #"{"status": 200, "message": "OK", "service": "channel-registry", "error": false}"#)
        let (added, addSeen) = try await exchange(ok) { await $0.addChannels(["a", "b"], toGroup: "g") }
        #expect(added.category == .acknowledgment)
        #expect(addSeen.target == "/v1/channel-registration/sub-key/sub-k/channel-group/g?add=a,b&\(Self.suffix)")
        let (_, removeSeen) = try await exchange(ok) { await $0.removeChannels(["a"], fromGroup: "g") }
        #expect(removeSeen.target == "/v1/channel-registration/sub-key/sub-k/channel-group/g?remove=a&\(Self.suffix)")
        let (_, deleteSeen) = try await exchange(ok) { await $0.removeGroup("g") }
        #expect(deleteSeen.target == "/v1/channel-registration/sub-key/sub-k/channel-group/g/remove?\(Self.suffix)")
        let list = #"{"status": 200, "payload": {"channels": ["c1"], "group": "g"}, "service": "channel-registry", "error": false}"#
        let (channels, _) = try await exchange(.http(200, list)) { try await $0.channels(inGroup: "g") }
        #expect(channels.channels == ["c1"])
        let groups = #"{"status": 200, "payload": {"namespace": "", "groups": ["3", "SwiftGroup"]}, "service": "channel-registry", "error": false}"#
        let (all, allSeen) = try await exchange(.http(200, groups)) { try await $0.channelGroups() }
        #expect(all.groups == ["3", "SwiftGroup"])
        #expect(allSeen.target == "/v1/channel-registration/sub-key/sub-k/channel-group?\(Self.suffix)")
    }

    @Test func originForms() {
        var config = PubNubConfiguration(publishKey: nil, subscribeKey: "s", uuid: "u")
        #expect((config.host, config.port) == ("ps.pndsn.com", 443))
        config.origin = "[::1]:8090"
        #expect((config.host, config.port) == ("::1", 8090))
        config.origin = "localhost"
        config.tlsEnabled = false
        #expect((config.host, config.port) == ("localhost", 80))
    }

    @Test func configurationErrorsNameTheField() {
        func failure(_ change: (inout PubNubConfiguration) -> Void) -> String? {
            var config = PubNubConfiguration(publishKey: "p", subscribeKey: "s", uuid: "u")
            change(&config)
            do throws(ConfigurationError) {
                _ = try PubNubClient(configuration: config)
                return nil
            } catch {
                return error.field
            }
        }
        #expect(failure { _ in } == nil)
        #expect(failure { $0.subscribeKey = "" } == "subscribeKey")
        #expect(failure { $0.uuid = " " } == "uuid")
        #expect(failure { $0.origin = "host:99999" } == "origin")
        #expect(failure { $0.presenceHeartbeatValue = 5 } == "presenceHeartbeatValue")
        #expect(failure { $0.nonSubscribeRequestTimeout = 0 } == "nonSubscribeRequestTimeout")
        #expect(failure { $0.subscribeMaximumIdleTime = -1 } == "subscribeMaximumIdleTime")
        #expect(failure { $0.requestMessageCountThreshold = -1 } == "requestMessageCountThreshold")
        #expect(failure { $0.reconnectionPingInterval = 0 } == "reconnectionPingInterval")
        #expect(failure { $0.trustedCA = .pem("nothing") } == "trustedCA")
        #expect(failure { $0.trustedCA = .file("/nonexistent/ca.pem") } == "trustedCA")
        #expect(failure { $0.authKey = "" } == "authKey")
    }
}
