// SPDX-License-Identifier: MIT
import MockPubNubServer
import Testing
@testable import ClientUnderTest

/// Message actions end to end against the mock server: requests on the wire, results, paging,
/// fetch with actions, refusals and the events of a subscribed client.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct MockServerMessageActionTests {
    @Test func addGetPageRemoveAndFetch() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let client = try makeClient(origin: mock.origin)
        let message = try await client.publish("hello", channel: "ma").timetoken
        var added: [PNMessageAction] = []
        for value in ["a", "b", "c"] {
            added.append(try await client.addMessageAction(channel: "ma", messageTimetoken: message, type: "reaction", value: value))
        }
        #expect(added.map(\.value) == ["a", "b", "c"] && added.allSatisfy { $0.uuid == "tester" && $0.messageTimetoken == message })
        let post = try #require(mock.journal.first { $0.endpoint == .addMessageAction })
        #expect(post.method == "POST" && post.path == "/v1/message-actions/sub-k/channel/ma/message/\(message)")
        #expect(post.body == #"{"type":"reaction","value":"a"}"#)

        let first = try await client.messageActions(channel: "ma", limit: 2)
        #expect(first.actions == Array(added.suffix(2)))
        let more = try #require(first.more)
        let second = try await client.messageActions(channel: "ma", start: more.start, end: more.end, limit: 2)
        #expect(second.actions == [added[0]] && second.more == nil)
        #expect(mock.journal.last?.query("start") == String(added[1].actionTimetoken) && mock.journal.last?.query("limit") == "2")

        #expect(await client.removeMessageAction(channel: "ma", messageTimetoken: message, actionTimetoken: added[1].actionTimetoken).category
            == .acknowledgment)
        #expect(try await client.messageActions(channel: "ma").actions == [added[0], added[2]])

        let fetched = try await client.fetchMessages(channels: ["ma"], includeMessageActions: true)
        #expect(fetched.channels["ma"]?.first?.messageActions == [added[0], added[2]])
        #expect(mock.journal.last?.endpoint == .fetchMessagesWithActions)
    }

    @Test func theServiceRefusesADuplicateAndALimitOver100() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let client = try makeClient(origin: mock.origin)
        _ = try await client.addMessageAction(channel: "ma", messageTimetoken: 11, type: "reaction", value: "a")
        do {
            _ = try await client.addMessageAction(channel: "ma", messageTimetoken: 11, type: "reaction", value: "a")
            Issue.record("a duplicate action was accepted")
        } catch {
            #expect(error.statusCode == 409 && error.category == .unknown && error.errorData?.information == "Action Already Added")
        }
        do {
            _ = try await client.messageActions(channel: "ma", limit: 101)
            Issue.record("a limit of 101 was accepted")
        } catch {
            #expect(error.statusCode == 400 && error.category == .badRequest && error.operation == .fetchMessageActions)
        }
    }

    @Test func aSubscriberHearsAddedAndRemovedActionsAndNoMessage() async throws {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let client = try makeClient(origin: mock.origin)
        let actor = try makeClient(origin: mock.origin) { $0.uuid = "actor" }
        let recorder = Recorder()
        client.addListener(recorder)
        try await client.subscribe(channels: ["ma"])
        _ = try #require(await recorder.events.wait { events in events.contains { if case .status(let s) = $0 { s.category == .connected } else { false } } })
        let message = try await actor.publish("hello", channel: "ma").timetoken
        let action = try await actor.addMessageAction(channel: "ma", messageTimetoken: message, type: "reaction", value: "smile")
        #expect(await actor.removeMessageAction(channel: "ma", messageTimetoken: message, actionTimetoken: action.actionTimetoken).category
            == .acknowledgment)
        let events = try #require(await recorder.events.wait { $0.compactMap(\.messageActionEvent).count >= 2 })
        let actions = events.compactMap(\.messageActionEvent)
        #expect(actions.map(\.event) == ["added", "removed"])
        #expect(actions.allSatisfy { $0.action == action && $0.publisher == "actor" && $0.channel == "ma" })
        #expect(events.compactMap(\.messageEvent).map(\.message) == ["hello"])
        await client.unsubscribeAll()
    }
}
