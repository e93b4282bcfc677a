// SPDX-License-Identifier: MIT

/// The subscribe loop (spec §5, §12): handshake, long-poll, channels, catch-up, list changes,
/// order and duplicates.
enum SubscribeSuite {
    static let longPollInFlight = CaseStep.expectJournal(.count(endpoint: "subscribe", query: PlanBuilder.longPoll, atLeast: 1), withinMs: 1_000)

    static var cases: [ConformanceCase] {
        let ten: [JSONValue] = (1...10).map { .string("m\($0)") }
        return [
            ConformanceCase(
                "subscribe.handshake.connected", "A tt=0 handshake answers with PNConnectedCategory", spec: "§5.2",
                steps: [.subscribe(["ch-a"]), .expect(.connected),
                        .expectJournal(.count(endpoint: "subscribe", query: PlanBuilder.handshake, atLeast: 1, atMost: 1), withinMs: 500)],
                expected: [.connected]),
            ConformanceCase(
                "subscribe.handshake.then-long-poll", "After the handshake the client long-polls with the returned cursor", spec: "§5.3",
                steps: [.subscribe(["ch-a"]), .expect(.connected),
                        .expectJournal(.followedBy(after: "subscribe", afterQuery: PlanBuilder.handshake, endpoint: "subscribe", query: ["tt": "!0", "tr": "*"]), withinMs: 1_000)],
                expected: [.connected]),
            ConformanceCase(
                "subscribe.long-poll.message", "A message published by another user is delivered", spec: "§5.3",
                steps: [.subscribe(["ch-a"]), .expect(.connected), longPollInFlight,
                        .serverPublish(channel: "ch-a", message: "from server"),
                        .expectMessages([ExpectedMessage(channel: "ch-a", message: "from server", publisher: "harness-publisher")], withinMs: 1_000)],
                expected: [.connected]),
            ConformanceCase(
                "subscribe.long-poll.object-message", "An object message is delivered as the same JSON value", spec: "§5.4",
                steps: [.subscribe(["ch-a"]), .expect(.connected), longPollInFlight,
                        .serverPublish(channel: "ch-a", message: ["text": "hi", "n": 2, "list": [1, 2]]),
                        .expectMessage("ch-a", ["text": "hi", "n": 2, "list": [1, 2]])],
                expected: [.connected]),
            ConformanceCase(
                "subscribe.long-poll.own-publish", "A message the client publishes comes back with its own uuid as publisher", spec: "§5.4",
                steps: [.subscribe(["ch-a"]), .expect(.connected), longPollInFlight,
                        .publish("ch-a", "mine"),
                        .expectMessages([ExpectedMessage(channel: "ch-a", message: "mine", publisher: "{uuid}")], withinMs: 1_000)],
                expected: [.connected, .acknowledgment]),
            ConformanceCase(
                "subscribe.long-poll.encoded-channel", "A channel with spaces and non-ASCII characters receives messages", spec: "§2.3",
                steps: [.subscribe(["ch ünï"]), .expect(.connected), longPollInFlight,
                        .serverPublish(channel: "ch ünï", message: "encoded"), .expectMessage("ch ünï", "encoded")],
                expected: [.connected]),
            ConformanceCase(
                "subscribe.long-poll.signal", "A signal is delivered as a signal, not a message", spec: "§5.5",
                steps: [.subscribe(["ch-a"]), .expect(.connected), longPollInFlight,
                        .perform(.signal(channel: "ch-a", message: "sig")),
                        .expectMessages([ExpectedMessage(channel: "ch-a", message: "sig", isSignal: true)], withinMs: 1_000)],
                expected: [.connected, .acknowledgment]),
            ConformanceCase(
                "subscribe.channels.several", "One subscribe to several channels delivers each channel's messages", spec: "§5.1",
                steps: [.subscribe(["ch-a", "ch-b", "ch-c"]), .expect(.connected), longPollInFlight,
                        .expectJournal(.pathContains(endpoint: "subscribe", substring: "ch-a,ch-b,ch-c", true), withinMs: 500),
                        .serverPublish(channel: "ch-c", message: "to c"), .expectMessage("ch-c", "to c"),
                        .serverPublish(channel: "ch-a", message: "to a"), .expectMessage("ch-a", "to a")],
                expected: [.connected]),
            ConformanceCase(
                "subscribe.channels.add", "Adding a channel makes a new handshake, announced again as connected", spec: "§11.3",
                steps: [.subscribe(["ch-a"]), .expect(.connected), longPollInFlight,
                        .subscribe(["ch-b"]), .expect(.connected),
                        .expectJournal(.count(endpoint: "subscribe", query: PlanBuilder.handshake, atLeast: 2), withinMs: 1_000),
                        .expectJournal(.pathContains(endpoint: "subscribe", substring: "ch-a,ch-b", true), withinMs: 1_000),
                        .serverPublish(channel: "ch-b", message: "to b"), .expectMessage("ch-b", "to b")],
                expected: [.connected]),
            // The profile-independent part of the case above (which checks the 4.x handshake and
            // is skipped for clients that restart in place): whichever way the loop takes the new
            // list, its next request names the new channel and both deliver (channel order in the
            // path is the client's own).
            ConformanceCase(
                "subscribe.channels.add-delivers", "After adding a channel the loop subscribes to both and delivers on the new one", spec: "§6.2",
                steps: [.subscribe(["ch-a"]), .expect(.connected), longPollInFlight,
                        .subscribe(["ch-b"]),
                        .expectJournal(.pathContains(endpoint: "subscribe", substring: "ch-b", true), withinMs: 1_000),
                        .serverPublish(channel: "ch-b", message: "to b"), .expectMessage("ch-b", "to b"),
                        .serverPublish(channel: "ch-a", message: "to a"), .expectMessage("ch-a", "to a")],
                expected: [.connected]),
            ConformanceCase(
                "subscribe.channels.remove", "After unsubscribing from a channel its messages are no longer delivered", spec: "§6.2",
                steps: [.subscribe(["ch-a", "ch-b"]), .expect(.connected), longPollInFlight,
                        .perform(.unsubscribe(channels: ["ch-b"])),
                        .expectJournal(.count(endpoint: "leave", atLeast: 1), withinMs: 1_000),
                        .expectJournal(.count(endpoint: "subscribe", query: PlanBuilder.longPoll, atLeast: 2), withinMs: 1_000),
                        .serverPublish(channel: "ch-b", message: "gone"), .serverPublish(channel: "ch-a", message: "kept"),
                        .expectMessage("ch-a", "kept"), .expectNoMoreMessages(forMs: 200)],
                expected: [.connected], tolerated: [.acknowledgment]),
            ConformanceCase(
                "subscribe.presence.channel", "withPresence subscribes to the -pnpres channel too", spec: "§5.6",
                steps: [.subscribe(["ch-a"], withPresence: true), .expect(.connected),
                        .expectJournal(.pathContains(endpoint: "subscribe", substring: "ch-a-pnpres", true), withinMs: 500)],
                expected: [.connected], requires: [.presence]),
            ConformanceCase(
                "subscribe.presence.heartbeat-value", "The subscribe request carries the configured presence heartbeat", spec: "§5.1",
                client: ClientOverrides(presenceHeartbeatValue: 30),
                steps: [.subscribe(["ch-a"]), .expect(.connected),
                        .expectJournal(.count(endpoint: "subscribe", query: ["heartbeat": "30"], atLeast: 1), withinMs: 500)],
                expected: [.connected]),
            ConformanceCase(
                "subscribe.catch-up.explicit-timetoken", "Subscribing with an old timetoken delivers messages published since", spec: "§5.7",
                steps: [.serverPublish(channel: "ch-a", message: "earlier"),
                        .subscribe(["ch-a"], timetoken: "10000000000000000"), .expect(.connected),
                        .expectMessage("ch-a", "earlier")],
                expected: [.connected]),
            ConformanceCase(
                "subscribe.list-change.keep-timetoken", "keepTimeTokenOnListChange on: after a list change the old cursor is reused", spec: "§12.2",
                client: ClientOverrides(keepTimeTokenOnListChange: true),
                steps: [.subscribe(["ch-a"]), .expect(.connected), longPollInFlight, .subscribe(["ch-b"]),
                        .expectJournal(.cursorReused(true), withinMs: 1_000)],
                expected: [.connected]),
            ConformanceCase(
                "subscribe.list-change.new-timetoken", "keepTimeTokenOnListChange off: after a list change the new handshake's cursor is used", spec: "§12.2",
                client: ClientOverrides(keepTimeTokenOnListChange: false),
                steps: [.subscribe(["ch-a"]), .expect(.connected), longPollInFlight, .subscribe(["ch-b"]),
                        .expectJournal(.count(endpoint: "subscribe", query: PlanBuilder.longPoll, atLeast: 2), withinMs: 1_000),
                        .expectJournal(.cursorReused(false), withinMs: 0)],
                expected: [.connected]),
            ConformanceCase(
                "subscribe.order.server-published", "Ten messages arrive in publish order", spec: "§5.3",
                steps: [.subscribe(["ch-a"]), .expect(.connected), longPollInFlight]
                    + ten.map { .serverPublish(channel: "ch-a", message: $0) }
                    + [.expectMessages(ten.map { ExpectedMessage(channel: "ch-a", message: $0) }, withinMs: 1_500)],
                expected: [.connected]),
            ConformanceCase(
                "subscribe.order.client-published", "Five messages published by the client arrive in order", spec: "§5.3",
                steps: [.subscribe(["ch-a"]), .expect(.connected), longPollInFlight]
                    + ten.prefix(5).map { .publish("ch-a", $0) }
                    + [.expectMessages(ten.prefix(5).map { ExpectedMessage(channel: "ch-a", message: $0) }, withinMs: 1_500)],
                expected: [.connected, .acknowledgment]),
            ConformanceCase(
                "subscribe.duplicates.none", "No message is delivered twice across long-polls", spec: "§5.7",
                steps: [.subscribe(["ch-a"]), .expect(.connected), longPollInFlight]
                    + ten.prefix(5).map { .serverPublish(channel: "ch-a", message: $0) }
                    + [.expectMessages(ten.prefix(5).map { ExpectedMessage(channel: "ch-a", message: $0) }, withinMs: 1_500),
                       .expectNoMoreMessages(forMs: 300)],
                expected: [.connected]),
            ConformanceCase(
                "subscribe.unsubscribe.leave", "Unsubscribing sends a leave for the channel", spec: "§6.2",
                steps: [.subscribe(["ch-a"]), .expect(.connected), .perform(.unsubscribe(channels: ["ch-a"])),
                        .expectJournal(.count(endpoint: "leave", atLeast: 1, atMost: 1), withinMs: 1_000)],
                expected: [.connected], tolerated: [.acknowledgment, .disconnected]),
            ConformanceCase(
                "subscribe.unsubscribe.all-disconnected", "Unsubscribing from everything reports PNDisconnectedCategory", spec: "§11.3",
                steps: [.subscribe(["ch-a", "ch-b"]), .expect(.connected), .perform(.unsubscribeAll), .expect(.disconnected)],
                expected: [.connected, .disconnected], tolerated: [.acknowledgment]),
        ]
    }
}
