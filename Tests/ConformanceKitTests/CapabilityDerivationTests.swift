// SPDX-License-Identifier: MIT
import Testing
@testable import ConformanceKit

/// What a case needs, derived from what it uses (``CapabilityDerivation``), the protocol
/// versions' capabilities, and how a driver's `hello` resolves to capabilities.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(1)))) struct CapabilityDerivationTests {
    private func needs(_ steps: [CaseStep], client: ClientOverrides = ClientOverrides(), requires: Set<Capability> = []) -> Set<Capability> {
        ConformanceCase("x.y.z", "t", spec: "§0", client: client, steps: steps, expected: [], requires: requires).requiredCapabilities
    }

    @Test func firstProtocolOperationsNeedNothingNew() {
        #expect(needs([.subscribe(["a"], groups: ["g"], withPresence: true), .publish("a", 1), .perform(.signal(channel: "a", message: 1)),
                       .perform(.history(channel: "a")), .perform(.fetchMessages(channels: ["a"])), .perform(.fire(channel: "a", message: 1)),
                       .perform(.grant(Grant(channels: ["a"]))), .expectMessage("a", 1)]) == [])
        #expect(needs([.time], requires: [.presence, .tls]) == [.presence, .tls])
    }

    @Test func filters() {
        #expect(needs([.subscribe(["a"])], client: ClientOverrides().filtering("meta.x == 1")) == [.filters])
        #expect(needs([.expectJournal(.count(endpoint: "subscribe", query: ["filter-expr": "*"], atLeast: 1), withinMs: 0)]) == [.filters])
    }

    @Test func messageTypes() {
        #expect(needs([.perform(.publish(channel: "a", message: 1, customMessageType: "chat"))]) == [.messageTypes])
        #expect(needs([.perform(.signal(channel: "a", message: 1, customMessageType: "typing"))]) == [.messageTypes])
        #expect(needs([.expectMessages([ExpectedMessage(channel: "a", message: 1, customMessageType: "chat")], withinMs: 100)]) == [.messageTypes])
        #expect(needs([.expectJournal(.count(endpoint: "publish", query: ["custom_message_type": "!"], atLeast: 1), withinMs: 0)])
            == [.messageTypes])
        #expect(needs([.perform(.files(.sendFile(channel: "a", name: "f", content: "x", customMessageType: "note")))]) == [.files, .messageTypes])
    }

    @Test func historyMessageTypes() {
        #expect(needs([.perform(.fetchMessages(channels: ["a"], includeCustomMessageType: true))]) == [.historyMessageTypes])
        #expect(needs([.expectJournal(.followedBy(after: "publish", afterQuery: [:], endpoint: "fetch-messages",
                                                  query: ["include_custom_message_type": "true"]), withinMs: 0)]) == [.historyMessageTypes])
    }

    @Test func objectsPushTokensAndFiles() {
        #expect(needs([.perform(.appContext(.removeUUIDMetadata(uuid: nil)))]) == [.objects])
        #expect(needs([.expectAppContextEvent(ExpectedAppContextEvent(channel: "c", event: "set", type: "uuid"), withinMs: 100)]) == [.objects])
        #expect(needs([.perform(.push(.listChannels(PushTarget(deviceToken: "d", pushType: "fcm"))))]) == [.push])
        #expect(needs([.perform(.parseToken(token: "{token}"))]) == [.accessTokens])
        #expect(needs([.perform(.setToken(token: ""))]) == [.accessTokens])
        #expect(needs([.perform(.files(.listFiles(channel: "a")))]) == [.files])
        #expect(needs([.expectMessages([ExpectedMessage(channel: "a", message: ["text": "x"], isFile: true)], withinMs: 100)]) == [.files])
    }

    @Test func wildcardSubscribe() {
        #expect(needs([.subscribe(["a.*"])]) == [.wildcardSubscribe])
        #expect(needs([.perform(.unsubscribe(channels: ["b", "a.*"]))]) == [.wildcardSubscribe])
        #expect(needs([.expectMessages([ExpectedMessage(channel: "a.b", message: 1, subscription: "a.*")], withinMs: 100)]) == [.wildcardSubscribe])
        #expect(needs([.subscribe(["a.b"])]) == [])
    }

    @Test func messageActions() {
        #expect(needs([.perform(.messageActions(.add(channel: "a", messageTimetoken: "1", type: "t", value: "v")))]) == [.messageActions])
        #expect(needs([.perform(.messageActions(.get(channel: "a", limit: 2)))]) == [.messageActions])
        #expect(needs([.perform(.messageActions(.remove(channel: "a", messageTimetoken: "1", actionTimetoken: "2")))]) == [.messageActions])
        #expect(needs([.perform(.fetchMessages(channels: ["a"], includeMessageActions: true))]) == [.messageActions])
        #expect(needs([.perform(.fetchMessages(channels: ["a"], includeCustomMessageType: true, includeMessageActions: true))])
            == [.messageActions, .historyMessageTypes])
        #expect(needs([.expectMessageAction(ExpectedMessageAction(channel: "a", event: "added", action: [:]), withinMs: 100)]) == [.messageActions])
        // A runner-side request adding an action needs nothing of the client.
        #expect(needs([.serverRequest(method: "POST", path: "/v1/message-actions/{sub}/channel/a/message/1", query: [:],
                                      body: ["type": "t", "value": "v"])]) == [])
        #expect(DriverProtocolVersion.introducing(.messageActions) == 9)
        #expect(!DriverProtocolVersion.capabilities(of: 8).contains(.messageActions))
        #expect(DriverProtocolVersion.capabilities(of: 9).contains(.messageActions))
    }

    @Test func everyCaseOfTheFeatureSuitesNeedsItsFeature() throws {
        let all = ConformanceCatalog.all()
        func suite(_ name: String) -> [ConformanceCase] { all.filter { $0.suite == name } }
        for testCase in suite("message-types") { #expect(testCase.requiredCapabilities.contains(.messageTypes), "\(testCase.id)") }
        for testCase in suite("filters") {
            #expect(!testCase.requiredCapabilities.isDisjoint(with: [.filters, .wildcardSubscribe]), "\(testCase.id)")
        }
        for testCase in suite("objects") { #expect(testCase.requiredCapabilities.contains(.objects), "\(testCase.id)") }
        for testCase in suite("push") { #expect(testCase.requiredCapabilities.contains(.push), "\(testCase.id)") }
        for testCase in suite("files") { #expect(testCase.requiredCapabilities.contains(.files), "\(testCase.id)") }
        #expect(suite("message-actions").count == 23)
        for testCase in suite("message-actions") { #expect(testCase.requiredCapabilities.contains(.messageActions), "\(testCase.id)") }
        let fetched = try #require(all.first { $0.id == "message-types.fetch.included" })
        #expect(fetched.requiredCapabilities == [.history, .messageTypes, .historyMessageTypes])
    }

    @Test func protocolVersions() {
        let first: Set<Capability> = [.tls, .encryption, .presence, .history, .channelGroups, .accessManager, .reconnection]
        #expect(DriverProtocolVersion.capabilities(of: 1) == first)
        #expect(DriverProtocolVersion.capabilities(of: 0) == first)
        #expect(DriverProtocolVersion.capabilities(of: 2) == first)
        #expect(DriverProtocolVersion.capabilities(of: 6) == first.union([.objects, .accessTokens, .files]))
        #expect(DriverProtocolVersion.capabilities(of: DriverProtocolVersion.current) == Set(Capability.allCases))
        #expect(DriverProtocolVersion.capabilities(of: 99) == Set(Capability.allCases))
        #expect(DriverProtocolVersion.all.map(\.number) == Array(1...DriverProtocolVersion.current))
        // Every capability is added by exactly one version.
        for capability in Capability.allCases {
            #expect(DriverProtocolVersion.all.filter { $0.added.contains(capability) }.count == 1, "\(capability)")
        }
        #expect(DriverProtocolVersion.introducing(.filters) == 7)
        #expect(DriverProtocolVersion.introducing(.tls) == 1)
    }

    @Test func helloResolvesToCapabilities() {
        let listed = DriverHello(data: ["protocol": 8, "capabilities": ["presence", "filters"]])
        #expect(listed.protocolVersion == 8)
        #expect(listed.resolvedCapabilities.capabilities == [.presence, .filters])
        #expect(listed.resolvedCapabilities.origin == .listed)
        let versioned = DriverHello(data: ["protocol": 3])
        #expect(versioned.resolvedCapabilities.capabilities == DriverProtocolVersion.capabilities(of: 3))
        #expect(versioned.resolvedCapabilities.origin == .protocolVersion(3))
        let neither = DriverHello(data: ["client": "old"])
        #expect(neither.protocolVersion == nil)
        #expect(neither.resolvedCapabilities.capabilities == DriverProtocolVersion.capabilities(of: 1))
        #expect(neither.resolvedCapabilities.origin == .firstProtocolAssumed(answeredHello: true))
        // Another family's protocol name is no version.
        #expect(DriverHello(data: ["protocol": "pusher"]).protocolVersion == nil)
    }

    @Test func skipReasonsSayWhy() {
        #expect(CapabilityOrigin.client.skipReason(missing: [.tls, .filters]) == "client lacks: filters, tls")
        #expect(CapabilityOrigin.listed.skipReason(missing: [.filters])
            == "client lacks: filters (not in the capabilities its driver's hello lists)")
        #expect(CapabilityOrigin.protocolVersion(3).skipReason(missing: [.messageTypes, .files])
            == "client lacks: files, messageTypes (its driver declares protocol 3 and lists no capabilities; "
            + "files came with protocol 6, messageTypes came with protocol 7)")
        #expect(CapabilityOrigin.firstProtocolAssumed(answeredHello: false).skipReason(missing: [.filters])
            == "client lacks: filters (its driver answers no hello, so it has protocol 1's capabilities; filters came with protocol 7)")
        #expect(CapabilityOrigin.firstProtocolAssumed(answeredHello: true).skipReason(missing: [.objects])
            == "client lacks: objects (its driver's hello declares neither protocol nor capabilities, so it has protocol 1's "
            + "capabilities; objects came with protocol 3)")
    }
}
