// SPDX-License-Identifier: MIT
import HarnessJSON

/// Custom message types (pubnub-modern spec §6): `custom_message_type` on publish and signal,
/// `cmt` in received events, and the service's validation.
enum MessageTypeSuite {
    /// Each case is a request or two and one delivery.
    static let budget: Duration = .seconds(1)
    static let ack = CaseStep.expectResult(ExpectedResult(category: .some(.acknowledgment), isError: false, timetokenPaths: ["timetoken"]))
    static let refusedAlternatives = [
        Alternative([.unknown], reason: "Python reports a 400 without a PubNub category as PNUnknownCategory (§11.3)"),
        Alternative([.malformedResponse], reason: "a client may not read the publish refusal array of a 400"),
    ]

    static func refused(_ id: String, _ title: String, _ operation: ClientOperation) -> ConformanceCase {
        ConformanceCase(
            id, title, spec: "modern §6.2",
            steps: [.perform(operation), .expect(.badRequest, within: 300), .expectResult(ExpectedResult(isError: true))],
            expected: [.badRequest], alternatives: refusedAlternatives, timeBudget: budget)
    }

    static var cases: [ConformanceCase] {
        [
            ConformanceCase(
                "message-types.publish.delivered", "A publish's custom message type arrives with the message", spec: "modern §6.2",
                steps: [.subscribe(["mt-ch"]), .expect(.connected), SubscribeSuite.longPollInFlight,
                        .perform(.publish(channel: "mt-ch", message: "typed", customMessageType: "chat-text")), ack,
                        .expectMessages([ExpectedMessage(channel: "mt-ch", message: "typed", customMessageType: "chat-text")], withinMs: 1_000),
                        .expectJournal(.count(endpoint: "publish", query: ["custom_message_type": "chat-text"], atLeast: 1), withinMs: 0)],
                expected: [.connected, .acknowledgment], timeBudget: budget),
            ConformanceCase(
                "message-types.signal.delivered", "A signal's custom message type arrives with the signal", spec: "modern §6.2",
                steps: [.subscribe(["mt-ch"]), .expect(.connected), SubscribeSuite.longPollInFlight,
                        .perform(.signal(channel: "mt-ch", message: "typing", customMessageType: "typing_on")), ack,
                        .expectMessages([ExpectedMessage(channel: "mt-ch", message: "typing", isSignal: true, customMessageType: "typing_on")],
                                        withinMs: 1_000),
                        .expectJournal(.count(endpoint: "signal", query: ["custom_message_type": "typing_on"], atLeast: 1), withinMs: 0)],
                expected: [.connected, .acknowledgment], timeBudget: budget),
            ConformanceCase(
                "message-types.publish.other-publisher", "A custom message type set by another publisher is reported", spec: "modern §6.2",
                steps: [.subscribe(["mt-ch"]), .expect(.connected), SubscribeSuite.longPollInFlight,
                        .serverRequest(method: "GET", path: "/publish/{pub}/{sub}/0/mt-ch/0/%22from-server%22",
                                       query: ["custom_message_type": "Server-Note_2", "uuid": "other"]),
                        .expectMessages([ExpectedMessage(channel: "mt-ch", message: "from-server", publisher: "other",
                                                         customMessageType: "Server-Note_2")], withinMs: 1_000)],
                expected: [.connected], timeBudget: budget),
            ConformanceCase(
                "message-types.publish.untyped", "A publish without a type sends no custom_message_type", spec: "modern §6.2",
                steps: [.perform(.publish(channel: "mt-ch", message: "plain")), ack,
                        .expectJournal(.count(endpoint: "publish", query: ["custom_message_type": "!"], atLeast: 1), withinMs: 0)],
                expected: [.acknowledgment], timeBudget: budget),
            ConformanceCase(
                "message-types.publish.longest", "A 50-character custom message type is accepted", spec: "modern §6.2",
                steps: [.perform(.publish(channel: "mt-ch", message: "long", customMessageType: String(repeating: "t", count: 50))), ack],
                expected: [.acknowledgment], timeBudget: budget),
            ConformanceCase(
                "message-types.fetch.included", "Fetched history carries each message's custom message type when asked",
                spec: "modern §6.2",
                steps: [.perform(.publish(channel: "mt-ch", message: "typed", customMessageType: "chat-text")), ack,
                        .perform(.publish(channel: "mt-ch", message: "plain")), ack,
                        .perform(.fetchMessages(channels: ["mt-ch"], includeCustomMessageType: true)),
                        .expectResult(.success(["channels": ["mt-ch": [["message": "typed", "customMessageType": "chat-text"],
                                                                       ["message": "plain"]]]])),
                        .expectJournal(.count(endpoint: "fetch-messages", query: ["include_custom_message_type": "true"], atLeast: 1),
                                       withinMs: 0)],
                expected: [.acknowledgment], timeBudget: budget, requires: [.history]),
            refused("message-types.refused.too-short", "A two-character custom message type is refused",
                    .publish(channel: "mt-ch", message: "x", customMessageType: "ab")),
            refused("message-types.refused.too-long", "A 51-character custom message type is refused",
                    .publish(channel: "mt-ch", message: "x", customMessageType: String(repeating: "t", count: 51))),
            refused("message-types.refused.reserved-prefix", "A custom message type starting with pn- is refused",
                    .publish(channel: "mt-ch", message: "x", customMessageType: "pn-internal")),
            refused("message-types.refused.characters", "A custom message type with a dot is refused",
                    .publish(channel: "mt-ch", message: "x", customMessageType: "chat.text")),
            refused("message-types.refused.signal", "A signal with a custom message type starting with - is refused",
                    .signal(channel: "mt-ch", message: "x", customMessageType: "-typing")),
        ]
    }
}
