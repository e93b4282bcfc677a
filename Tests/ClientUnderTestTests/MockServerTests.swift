// SPDX-License-Identifier: MIT
import MockPubNubServer
import PubNubCrypto
import Testing
@testable import ClientUnderTest

/// The client against the in-process mock server: operations end to end, channel groups and
/// encryption with every scheme.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct MockServerTests {
    @Test func publishSubscribePresenceAndHistoryRoundTrip() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let alice = try makeClient(origin: mock.origin) { $0.uuid = "alice" }
        let bob = try makeClient(origin: mock.origin) { $0.uuid = "bob" }
        let recorder = Recorder()
        alice.addListener(recorder)
        try await alice.subscribe(channels: ["room"], withPresence: true)
        #expect(await recorder.waitStatuses(1)?.first?.category == .connected)
        let sent = try await bob.publish(["text": "hi"], channel: "room", meta: ["m": 1])
        let signal = try await bob.signal("ping", channel: "room")
        let events = try #require(await recorder.events.wait { items in
            items.contains { if case .signal = $0 { true } else { false } } && items.compactMap(\.messageEvent).count == 1
        })
        let message = try #require(events.compactMap(\.messageEvent).first)
        #expect(message.message == ["text": "hi"])
        #expect(message.timetoken == sent.timetoken)
        #expect(message.publisher == "bob")
        #expect(message.userMetadata == ["m": 1])
        #expect(events.contains { if case .signal(let s) = $0 { s.timetoken == signal.timetoken } else { false } })

        let here = try await bob.hereNow(channels: ["room"])
        #expect(here.channels["room"]?.occupants.map(\.uuid) == ["alice"])
        #expect(try await bob.whereNow(uuid: "alice").channels == ["room"])
        _ = try await alice.setState(["mood": "ok"], channels: ["room"])
        #expect(try await bob.getState(channels: ["room"], uuid: "alice").channels == ["room": ["mood": "ok"]])

        let history = try await bob.history(channel: "room", includeTimetoken: true)
        #expect(history.messages.map(\.message) == [["text": "hi"]])
        #expect(history.messages.map(\.timetoken) == [sent.timetoken])
        let fetched = try await bob.fetchMessages(channels: ["room"])
        #expect(fetched.channels["room"]?.map(\.message) == [["text": "hi"]])
        #expect(try await bob.messageCounts(channels: ["room"], timetokens: [sent.timetoken - 1]).channels == ["room": 1])
        #expect(await bob.deleteMessages(channel: "room").category == .acknowledgment)
        #expect(try await bob.history(channel: "room").messages.isEmpty)
        #expect(try await bob.time().timetoken > sent.timetoken)

        let bobStatuses = Recorder()
        bob.addListener(bobStatuses)
        try await bob.subscribe(channels: ["room"])
        #expect(await bobStatuses.waitStatuses(1)?.map(\.category) == [.connected])
        await bob.unsubscribe(channels: ["room"])
        let presence = try #require(await recorder.events.wait { items in
            items.contains { if case .presence(let p) = $0 { p.uuid == "bob" && p.event == "leave" } else { false } }
        }).compactMap { event -> PNPresenceEvent? in if case .presence(let p) = event { p } else { nil } }
        let aliceJoin = try #require(presence.first { $0.uuid == "alice" && $0.event == "join" })
        #expect(aliceJoin.channel == "room")
        #expect(aliceJoin.occupancy == 1)
        let bobEvents = presence.filter { $0.uuid == "bob" }
        #expect(bobEvents.map(\.event).suffix(2) == ["join", "leave"])
        #expect(bobEvents.last?.occupancy == 1)
        await alice.unsubscribeAll()
    }

    @Test func channelGroupsEndToEnd() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let client = try makeClient(origin: mock.origin)
        #expect(await client.addChannels(["a", "b"], toGroup: "g").category == .acknowledgment)
        #expect(try await client.channels(inGroup: "g").channels.sorted() == ["a", "b"])
        // The live service lists no group without a namespace, even one just created (recorded).
        #expect(try await client.channelGroups().groups == [])
        #expect(await client.removeChannels(["a"], fromGroup: "g").category == .acknowledgment)
        #expect(try await client.channels(inGroup: "g").channels == ["b"])
        let recorder = Recorder()
        client.addListener(recorder)
        try await client.subscribe(channels: [], channelGroups: ["g"])
        _ = await recorder.waitStatuses(1)
        _ = try await client.publish(7, channel: "b")
        let events = try #require(await recorder.events.wait { $0.compactMap(\.messageEvent).count == 1 })
        #expect(events.compactMap(\.messageEvent).first?.subscription == "g")
        await client.unsubscribeAll()
        #expect(await client.removeGroup("g").category == .acknowledgment)
    }

    @Test(arguments: [CryptoScheme.legacy, .legacyRandomIV, .aesCBC])
    func encryptedPublishSubscribeHistory(scheme: CryptoScheme) async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let cipher = try PubNubCryptoCipher(cipherKey: "enigma", scheme: scheme)
        let client = try makeClient(origin: mock.origin) { $0.cipher = cipher }
        let plain = try makeClient(origin: mock.origin)
        let recorder = Recorder()
        client.addListener(recorder)
        try await client.subscribe(channels: ["secret"])
        _ = await recorder.waitStatuses(1)
        _ = try await client.publish(["n": 1], channel: "secret")
        _ = try await plain.publish("clear", channel: "secret")
        let events = try #require(await recorder.events.wait { $0.compactMap(\.messageEvent).count == 2 })
        #expect(events.compactMap(\.messageEvent).map(\.message) == [["n": 1], "clear"])
        #expect(events.compactMap(\.messageEvent).map(\.decryptionFailed) == [false, true])
        #expect(recorder.statuses.map(\.category) == [.connected, .decryptionError])
        let stored = try await plain.history(channel: "secret")
        let ciphertext = try #require(stored.messages.first?.message.stringValue)
        #expect(try cipher.module.decryptMessage(ciphertext) == #"{"n":1}"#)
        #expect(try await client.history(channel: "secret").messages.map(\.message) == [["n": 1], "clear"])
        await client.unsubscribeAll()
    }
}

/// Access Manager on a registered keyset of the mock: signed grants, 403s with the denied channels.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct MockServerAccessManagerTests {
    @Test func grantsAndDenials() async throws {
        let keyset = Keyset(subscribeKey: "sub-pam", publishKey: "pub-pam", secretKey: "sec-pam")
        let mock = try MockServerHarness(keysets: [keyset], subscribeKey: "sub-pam")
        defer { mock.stop() }
        func client(_ configure: @escaping (inout PubNubConfiguration) -> Void) throws -> PubNubClient {
            try makeClient(origin: mock.origin) {
                $0.subscribeKey = "sub-pam"
                $0.publishKey = "pub-pam"
                configure(&$0)
            }
        }
        let admin = try client { $0.secretKey = "sec-pam" }
        #expect(await admin.grant(channels: ["room"], authKeys: ["tok"], read: true, write: true).category == .acknowledgment)
        let wrongSecret = try client { $0.secretKey = "nope" }
        let refused = await wrongSecret.grant(channels: ["room"], read: true, write: true)
        #expect(refused.category == .accessDenied)

        let stranger = try client { $0.uuid = "stranger" }
        do throws(PNStatus) {
            _ = try await stranger.publish(1, channel: "room")
            Issue.record("expected access denied")
        } catch {
            #expect(error.category == .accessDenied)
            #expect(error.statusCode == 403)
            #expect(error.errorData?.channels == ["room"])
        }
        let strangerEvents = Recorder()
        stranger.addListener(strangerEvents)
        try await stranger.subscribe(channels: ["room"])
        let denied = try #require(await strangerEvents.waitStatuses(1))
        #expect(denied.map(\.category) == [.accessDenied])
        #expect(denied[0].errorData?.channels == ["room"])

        let member = try client { $0.authKey = "tok" }
        let memberEvents = Recorder()
        member.addListener(memberEvents)
        try await member.subscribe(channels: ["room"])
        #expect(await memberEvents.waitStatuses(1)?.map(\.category) == [.connected])
        let sent = try await member.publish("hello", channel: "room")
        let events = try #require(await memberEvents.events.wait { $0.compactMap(\.messageEvent).count == 1 })
        #expect(events.compactMap(\.messageEvent).map(\.timetoken) == [sent.timetoken])
        await member.unsubscribeAll()
    }
}
