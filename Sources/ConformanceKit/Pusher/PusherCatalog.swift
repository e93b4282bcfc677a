// SPDX-License-Identifier: MIT
import HarnessJSON
import MockPusher
import PusherServer

/// The `pusher` suite family: cases `pusher.<group>.<name>` checking a Pusher Channels client
/// against `shared/spec/pusher-protocol.md` (docs/conformance.md, "Pusher family").
public enum PusherCatalog {
    /// The groups, in catalog order.
    public static let groups = ["connection", "channels", "auth", "presence", "client-events", "close-codes", "activity", "http-api", "faults", "cache", "subscription-count", "encrypted", "fallback", "signin", "watchlist"]

    public static func all() -> [PusherCase] {
        connection + channels + auth + presence + clientEvents + closeCodes + activity + httpAPI + faults + cache + subscriptionCount + encrypted + fallback
            + signin + watchlist
    }

    /// Cases of the given groups (`pusher`, `pusher.GROUP` or `GROUP`) and ids; both empty = all.
    /// Unknown names are an error.
    public static func select(_ cases: [PusherCase], groups: [String], ids: [String]) throws(SelectionError) -> [PusherCase] {
        if groups.isEmpty && ids.isEmpty { return cases }
        let wanted = Set(groups.map { $0.hasPrefix("pusher.") ? String($0.dropFirst(7)) : $0 })
        for group in wanted where group != "pusher" && !cases.contains(where: { $0.group == group }) {
            throw SelectionError.unknownSuite(group, known: ["pusher"] + Self.groups.map { "pusher.\($0)" })
        }
        for id in ids where !cases.contains(where: { $0.id == id }) { throw SelectionError.unknownCase(id) }
        return cases.filter { wanted.contains("pusher") || wanted.contains($0.group) || ids.contains($0.id) }
    }

    static let ann = PusherPeer("ann")
    static let bob = PusherPeer("bob")
    static let client = PusherCaseExecutor.clientUserID

    static let connected: [PusherStep] = [.connect, .expectConnected(withinMs: 2_000)]

    // MARK: connection

    static let connection: [PusherCase] = [
        PusherCase("pusher.connection.established", "connect: connection_established gives the client a socket id", spec: "§3.2",
                   steps: connected + [.expectJournal(.socketIDReported(connection: 1), withinMs: 1_000)]),
        PusherCase("pusher.connection.unknown-key-4001", "an unknown app key is closed 4001 after the upgrade and not retried",
                   spec: "§2.3, §5", client: PusherClientSettings(unknownAppKey: true),
                   steps: [.connect, .expectDisconnected(code: 4001, withinMs: 2_000), .expectNoReconnect(forMs: 2_500)]),
        PusherCase("pusher.connection.wss", "wss: the TLS listener's leaf is trusted through the test CA and the connection works as ws does",
                   spec: "§2.1", client: PusherClientSettings(tls: true),
                   steps: connected + [.expectJournal(.usedTLS(connection: 1), withinMs: 1_000), .subscribe("news"),
                                       .expectSubscribed("news", withinMs: 2_000), .trigger("news", "headline", #"{"tls":true}"#),
                                       .expectEvent(channel: "news", event: "headline", data: ["tls": true], withinMs: 2_000)],
                   requires: [.tls]),
        PusherCase("pusher.connection.disconnect", "disconnect closes the connection and does not reconnect", spec: "§8",
                   steps: connected + [.disconnect, .expectJournal(.connectionEnded(connection: 1), withinMs: 2_000),
                                       .expectNoReconnect(forMs: 1_500)]),
    ]

    // MARK: channels

    static let channels: [PusherCase] = [
        PusherCase("pusher.channels.public", "subscribe to a public channel and receive a server event", spec: "§3.3, §3.5",
                   steps: connected + [.subscribe("news"), .expectSubscribed("news", withinMs: 2_000),
                                       .trigger("news", "headline", #"{"text":"hi"}"#),
                                       .expectEvent(channel: "news", event: "headline", data: ["text": "hi"], withinMs: 2_000)]),
        PusherCase("pusher.channels.subscribe-before-connect", "a subscription made before connecting is sent once connected",
                   spec: "§8", steps: [.subscribe("news"), .connect, .expectConnected(withinMs: 2_000), .expectSubscribed("news", withinMs: 2_000),
                                       .trigger("news", "headline", #"{"n":1}"#),
                                       .expectEvent(channel: "news", event: "headline", data: ["n": 1], withinMs: 2_000)]),
        PusherCase("pusher.channels.unsubscribe", "after unsubscribing no event of the channel is delivered", spec: "§3.3",
                   steps: connected + [.subscribe("news"), .expectSubscribed("news", withinMs: 2_000), .unsubscribe("news"),
                                       .expectJournal(.sentOnConnection(event: "pusher:unsubscribe", channel: "news", connection: 1), withinMs: 2_000),
                                       .trigger("news", "late", #"{"n":2}"#), .expectNoEvent(event: "late", forMs: 500)]),
        PusherCase("pusher.channels.plain-string-data", "event data that is not JSON is delivered as the string sent", spec: "§3.1, §3.5",
                   steps: connected + [.subscribe("news"), .expectSubscribed("news", withinMs: 2_000),
                                       .trigger("news", "note", "plain text"),
                                       .expectEvent(channel: "news", event: "note", data: "plain text", withinMs: 2_000)]),
    ]

    // MARK: auth

    static let auth: [PusherCase] = [
        PusherCase("pusher.auth.private", "a private channel is authorized at the auth endpoint with the socket id and subscribed",
                   spec: "§4.2, §8",
                   steps: connected + [.subscribe("private-room"), .expectSubscribed("private-room", withinMs: 2_000),
                                       .expectJournal(.authorizedForConnection(channel: "private-room", connection: 1), withinMs: 1_000),
                                       .trigger("private-room", "secret", #"{"k":"v"}"#),
                                       .expectEvent(channel: "private-room", event: "secret", data: ["k": "v"], withinMs: 2_000)],
                   requires: [.privateChannels]),
        PusherCase("pusher.auth.private-wss", "over wss a private channel is authorized (http endpoint) and delivers",
                   spec: "§2.1, §4.2", client: PusherClientSettings(tls: true),
                   steps: connected + [.subscribe("private-room"), .expectSubscribed("private-room", withinMs: 2_000),
                                       .expectJournal(.authorizedForConnection(channel: "private-room", connection: 1), withinMs: 1_000),
                                       .trigger("private-room", "secret", #"{"k":"tls"}"#),
                                       .expectEvent(channel: "private-room", event: "secret", data: ["k": "tls"], withinMs: 2_000)],
                   requires: [.privateChannels, .tls]),
        PusherCase("pusher.auth.endpoint-refuses", "an auth endpoint answering 403 is reported as a failed subscription; nothing is subscribed",
                   spec: "§4.2, §8", client: PusherClientSettings(authRefused: true),
                   steps: connected + [.subscribe("private-room"), .expectSubscriptionError("private-room", withinMs: 2_000),
                                       .expectNotSubscribed("private-room", forMs: 300)],
                   requires: [.privateChannels]),
        PusherCase("pusher.auth.reauthorize-after-reconnect",
                   "after a reconnect the private channel is authorized again with the new socket id", spec: "§5, §8",
                   steps: connected + [.subscribe("private-room"), .expectSubscribed("private-room", withinMs: 2_000),
                                       .closeConnection(code: 1006, reason: "dropped"), .expectReconnect(atLeastMs: 0, withinMs: 3_000),
                                       .expectConnected(count: 2, withinMs: 2_000), .expectSubscribed("private-room", withinMs: 2_000),
                                       .expectJournal(.authorizedForConnection(channel: "private-room", connection: 2), withinMs: 1_000)],
                   requires: [.privateChannels, .reconnection],
                   variants: [PusherVariant(.resubscribe, "no-auth", .replaceSteps(
                       connected + [.subscribe("private-room"), .expectSubscribed("private-room", withinMs: 2_000),
                                    .closeConnection(code: 1006, reason: "dropped"), .expectReconnect(atLeastMs: 0, withinMs: 3_000),
                                    .expectConnected(count: 2, withinMs: 2_000),
                                    .expectJournal(.sentOnConnection(event: "pusher:subscribe", channel: "private-room", connection: 2), withinMs: 2_000),
                                    .expectSubscriptionError("private-room", withinMs: 2_000)],
                       reason: "re-subscribes private channels without auth after a reconnect; the server answers Auth info required (spec §5)"))]),
    ]

    // MARK: presence

    static let presence: [PusherCase] = [
        PusherCase("pusher.presence.members", "subscription_succeeded gives the member list, the client included", spec: "§3.4",
                   steps: connected + [.peerSubscribe(ann, channel: "presence-room"), .subscribe("presence-room"),
                                       .expectSubscribed("presence-room", withinMs: 2_000),
                                       .expectMembers(channel: "presence-room", userIDs: ["ann", client], withinMs: 1_000)],
                   requires: [.presence]),
        PusherCase("pusher.presence.member-added-removed", "another member joining and leaving is reported", spec: "§3.4",
                   steps: connected + [.subscribe("presence-room"), .expectSubscribed("presence-room", withinMs: 2_000),
                                       .peerSubscribe(bob, channel: "presence-room"),
                                       .expectMember(channel: "presence-room", userID: "bob", added: true, withinMs: 2_000),
                                       .peerLeave(bob),
                                       .expectMember(channel: "presence-room", userID: "bob", added: false, withinMs: 2_000)],
                   requires: [.presence]),
        PusherCase("pusher.presence.seen-by-others", "the client's channel_data makes it a member others see", spec: "§3.4, §4.2",
                   steps: connected + [.peerSubscribe(ann, channel: "presence-room"), .subscribe("presence-room"),
                                       .expectSubscribed("presence-room", withinMs: 2_000),
                                       .expectPeerEvent(ann, channel: "presence-room", event: "pusher_internal:member_added",
                                                        data: ["user_id": .string(client), "user_info": ["name": .string(client)]], withinMs: 2_000)],
                   requires: [.presence]),
    ]

    // MARK: client events

    static let clientEvents: [PusherCase] = [
        PusherCase("pusher.client-events.delivered", "a client event reaches the other subscribers", spec: "§3.6",
                   steps: connected + [.peerSubscribe(ann, channel: "private-chat"), .subscribe("private-chat"),
                                       .expectSubscribed("private-chat", withinMs: 2_000),
                                       .clientEvent(channel: "private-chat", event: "client-typing", data: ["n": 1]),
                                       .expectPeerEvent(ann, channel: "private-chat", event: "client-typing", data: ["n": 1], withinMs: 2_000)],
                   requires: [.privateChannels, .clientEvents]),
        PusherCase("pusher.client-events.not-echoed", "the sender does not receive its own client event", spec: "§3.6",
                   steps: connected + [.peerSubscribe(ann, channel: "private-chat"), .subscribe("private-chat"),
                                       .expectSubscribed("private-chat", withinMs: 2_000),
                                       .clientEvent(channel: "private-chat", event: "client-typing", data: ["n": 2]),
                                       .expectPeerEvent(ann, channel: "private-chat", event: "client-typing", data: ["n": 2], withinMs: 2_000),
                                       .expectNoEvent(event: "client-typing", forMs: 500)],
                   requires: [.privateChannels, .clientEvents]),
        PusherCase("pusher.client-events.presence-user-id", "a client event on a presence channel carries the sender's user_id",
                   spec: "§3.6", steps: connected + [.peerSubscribe(ann, channel: "presence-chat"), .subscribe("presence-chat"),
                                                     .expectSubscribed("presence-chat", withinMs: 2_000),
                                                     .peerClientEvent(ann, channel: "presence-chat", event: "client-hello", data: #"{"hi":true}"#),
                                                     .expectEvent(channel: "presence-chat", event: "client-hello", data: ["hi": true],
                                                                  userID: "ann", withinMs: 2_000)],
                   requires: [.presence]),
        PusherCase("pusher.client-events.rate-limit-4301", "more than 10 client events a second get pusher:error 4301; the connection stays",
                   spec: "§3.6, §5",
                   steps: connected + [.subscribe("private-chat"), .expectSubscribed("private-chat", withinMs: 2_000)]
                       + (1...11).map { .clientEvent(channel: "private-chat", event: "client-burst", data: ["i": .int($0)]) }
                       + [.expectErrorEvent(code: 4301, withinMs: 2_000),
                          .trigger("private-chat", "after", #"{"ok":true}"#),
                          .expectEvent(channel: "private-chat", event: "after", data: ["ok": true], withinMs: 2_000)],
                   requires: [.privateChannels, .clientEvents]),
    ]

    // MARK: close codes and reconnection (spec §5: 4000–4099 never, 4100–4199 back off, 4200–4299 at once)

    static func closeCase(_ code: Int, _ name: String, _ title: String, _ expectation: [PusherStep],
                          client: PusherClientSettings = PusherClientSettings()) -> PusherCase {
        PusherCase("pusher.close-codes.\(name)", title, spec: "§5", client: client,
                   steps: connected + [.closeConnection(code: code, reason: "close \(code)")] + expectation,
                   requires: [.reconnection])
    }

    /// A reconnect delay (4 s) well above the 2 s that "at once" allows.
    static let slowDelay = PusherClientSettings(reconnectDelaySeconds: 4)

    static let closeCodes: [PusherCase] = [
        closeCase(4004, "4004-no-reconnect", "4000–4099 (over quota): the client does not reconnect",
                  [.expectDisconnected(code: 4004, withinMs: 2_000), .expectNoReconnect(forMs: 3_000)]),
        closeCase(4009, "4009-no-reconnect", "4000–4099 (unauthorized): the client does not reconnect",
                  [.expectDisconnected(code: 4009, withinMs: 2_000), .expectNoReconnect(forMs: 3_000)]),
        closeCase(4100, "4100-backoff", "4100–4199 (over capacity): the client reconnects after backing off at least 1 s",
                  [.expectDisconnected(code: 4100, withinMs: 2_000), .expectReconnect(atLeastMs: 1_000, withinMs: 4_000),
                   .expectConnected(count: 2, withinMs: 2_000)]),
        closeCase(4200, "4200-immediate", "4200–4299 (reconnect now): the client reconnects at once",
                  [.expectDisconnected(code: 4200, withinMs: 2_000), .expectImmediateReconnect(beforeMs: 2_000),
                   .expectConnected(count: 2, withinMs: 2_000)], client: slowDelay),
        closeCase(4201, "4201-immediate", "4201 (pong not received): the client reconnects at once",
                  [.expectDisconnected(code: 4201, withinMs: 2_000), .expectImmediateReconnect(beforeMs: 2_000),
                   .expectConnected(count: 2, withinMs: 2_000)], client: slowDelay),
        closeCase(1000, "1000-reconnect-delay", "1000 from the server: libPusher reconnects after its reconnectDelay (1 s here)",
                  [.expectDisconnected(code: 1000, withinMs: 2_000), .expectReconnect(atLeastMs: 1_000, withinMs: 4_000),
                   .expectConnected(count: 2, withinMs: 2_000)]),
        closeCase(1006, "1006-immediate", "the socket ends without a close frame (1006): libPusher reconnects at once",
                  [.expectDisconnected(code: nil, withinMs: 2_000), .expectImmediateReconnect(beforeMs: 2_000),
                   .expectConnected(count: 2, withinMs: 2_000)], client: slowDelay),
        PusherCase("pusher.close-codes.error-event-4200", "a pusher:error with code 4200 makes the client reconnect at once",
                   spec: "§2.3, §5",
                   client: slowDelay,
                   steps: connected + [.sendErrorEvent(code: 4200, message: "reconnect now"), .expectImmediateReconnect(beforeMs: 2_000),
                                       .expectConnected(count: 2, withinMs: 2_000)],
                   requires: [.reconnection], onlyFor: (.closeCodes, "error-events-only")),
        PusherCase("pusher.close-codes.resubscribe", "after a dropped connection every channel is subscribed again and delivers", spec: "§5, §8",
                   steps: connected + [.subscribe("news"), .expectSubscribed("news", withinMs: 2_000),
                                       .closeConnection(code: 1006, reason: "dropped"), .expectReconnect(atLeastMs: 0, withinMs: 3_000),
                                       .expectConnected(count: 2, withinMs: 2_000), .expectSubscribed("news", withinMs: 2_000),
                                       .trigger("news", "again", #"{"n":3}"#),
                                       .expectEvent(channel: "news", event: "again", data: ["n": 3], withinMs: 2_000)],
                   requires: [.reconnection]),
    ]

    // MARK: activity (spec §3.2, §5: the server's deadline timer on a 1 s activity timeout)

    /// An app probing after 1 s of silence and closing 4201 1 s after an unanswered probe.
    static func shortActivity(_ ping: PusherServerPing) -> PusherAppOptions {
        var options = PusherAppOptions()
        options.activityTimeout = .seconds(1)
        options.pongTimeout = .seconds(1)
        options.serverPing = ping
        return options
    }

    static let activity: [PusherCase] = [
        PusherCase("pusher.activity.websocket-probe-answered",
                   "a silent connection probed with WebSocket pings after 1 s stays open: the client answers (or pings itself)",
                   spec: "§2.2, §5", steps: connected + [.subscribe("news"), .expectSubscribed("news", withinMs: 2_000), .wait(ms: 3_000),
                                                        .expectJournal(.keptAlive(connection: 1), withinMs: 500),
                                                        .trigger("news", "still", #"{"n":1}"#),
                                                        .expectEvent(channel: "news", event: "still", data: ["n": 1], withinMs: 2_000)],
                   appOptions: shortActivity(.webSocketFrame)),
        PusherCase("pusher.activity.pusher-ping-answered",
                   "a silent connection probed with pusher:ping after 1 s stays open: the client answers pusher:pong (or pings itself)",
                   spec: "§3.2, §5", steps: connected + [.subscribe("news"), .expectSubscribed("news", withinMs: 2_000), .wait(ms: 3_000),
                                                        .expectJournal(.keptAlive(connection: 1), withinMs: 500),
                                                        .trigger("news", "still", #"{"n":2}"#),
                                                        .expectEvent(channel: "news", event: "still", data: ["n": 2], withinMs: 2_000)],
                   appOptions: shortActivity(.pusherEvent)),
        PusherCase("pusher.activity.client-ping-answered",
                   "the client's own pusher:ping after 1 s of silence is answered with pusher:pong; the connection stays",
                   spec: "§3.2, §5", client: PusherClientSettings(activityTimeoutSeconds: 1, pongTimeoutSeconds: 1),
                   steps: connected + [.wait(ms: 3_000), .expectJournal(.pinged(connection: 1), withinMs: 500),
                                       .expectJournal(.keptAlive(connection: 1), withinMs: 500)],
                   requires: [.clientPing]),
    ]

    // MARK: HTTP API delivery (the signed events endpoint, as an app server calls it)

    static let httpAPI: [PusherCase] = [
        PusherCase("pusher.http-api.multiple-channels", "one trigger on two channels reaches the client on both", spec: "§3.5, §6.1",
                   steps: connected + [.subscribe("a"), .subscribe("b"), .expectSubscribed("a", withinMs: 2_000), .expectSubscribed("b", withinMs: 2_000),
                                       .trigger(channels: ["a", "b"], event: "both", data: #"{"x":1}"#, excludeClient: false),
                                       .expectEvent(channel: "a", event: "both", data: ["x": 1], withinMs: 2_000),
                                       .expectEvent(channel: "b", event: "both", data: ["x": 1], withinMs: 2_000)]),
        PusherCase("pusher.http-api.socket-id-excluded", "a trigger with the client's socket_id is not delivered to it", spec: "§6.1",
                   steps: connected + [.peerSubscribe(ann, channel: "news"), .subscribe("news"), .expectSubscribed("news", withinMs: 2_000),
                                       .trigger(channels: ["news"], event: "mine", data: #"{"y":2}"#, excludeClient: true),
                                       .expectPeerEvent(ann, channel: "news", event: "mine", data: ["y": 2], withinMs: 2_000),
                                       .expectNoEvent(event: "mine", forMs: 500)]),
        PusherCase("pusher.http-api.nested-json", "nested JSON data arrives intact (double encoding undone once)", spec: "§3.1",
                   steps: connected + [.subscribe("news"), .expectSubscribed("news", withinMs: 2_000),
                                       .trigger("news", "doc", #"{"list":[1,"two",{"three":3}],"quote":"say \"hi\""}"#),
                                       .expectEvent(channel: "news", event: "doc",
                                                    data: ["list": [1, "two", ["three": 3]], "quote": "say \"hi\""], withinMs: 2_000)]),
    ]

    // MARK: faults (the server's Pusher fault plans, docs/fault-plans.md)

    static func plan(_ rules: PusherFaultRule...) -> PusherFaultPlan { PusherFaultPlan(rules: rules) }

    static let faults: [PusherCase] = [
        PusherCase("pusher.faults.close-storm-4200", "three connections in a row closed 4200 right after connection_established: the client keeps reconnecting",
                   spec: "§5", steps: [.connect, .expectConnected(count: 4, withinMs: 5_000), .subscribe("news"),
                                       .expectSubscribed("news", withinMs: 2_000)],
                   requires: [.reconnection],
                   faultPlan: plan(PusherFaultRule(times: 3, fault: .close(code: 4200, reason: "storm", at: .afterEstablished)))),
        // The server's close and the client's timer start within a few ms of each other; 900 ms
        // keeps the ≥ 1 s backoff check clear of that jitter.
        PusherCase("pusher.faults.close-after-subscribe-4100", "4100 right after subscription_succeeded: back off, reconnect, subscribe again",
                   spec: "§5", steps: connected + [.subscribe("news"), .expectSubscribed("news", withinMs: 2_000),
                                                   .expectDisconnected(code: 4100, withinMs: 2_000), .expectReconnect(atLeastMs: 900, withinMs: 4_000),
                                                   .expectSubscribed("news", withinMs: 2_000), .trigger("news", "back", #"{"n":1}"#),
                                                   .expectEvent(channel: "news", event: "back", data: ["n": 1], withinMs: 2_000)],
                   requires: [.reconnection],
                   faultPlan: plan(PusherFaultRule(times: 1, fault: .close(code: 4100, reason: "over capacity", at: .afterSubscribed(channel: "news"))))),
        PusherCase("pusher.faults.split-frames", "connection_established fragmented over several frames is read like one (RFC 6455 §5.4)",
                   spec: "§2.2, §3.2", steps: connected + [.expectJournal(.socketIDReported(connection: 1), withinMs: 1_000)],
                   faultPlan: plan(PusherFaultRule(fault: .malformed(.splitFrames, target: .connectionEstablished)))),
        PusherCase("pusher.faults.reordered-keys", "subscription_succeeded with its members in another order is still understood",
                   spec: "§3.1", steps: connected + [.subscribe("news"), .expectSubscribed("news", withinMs: 2_000)],
                   faultPlan: plan(PusherFaultRule(fault: .malformed(.reorderedKeys, target: .subscriptionSucceeded(channel: "news"))))),
        PusherCase("pusher.faults.object-data", "an event whose data is a JSON object instead of a string is delivered with that data",
                   spec: "§3.1", steps: connected + [.subscribe("news"), .expectSubscribed("news", withinMs: 2_000),
                                                     .trigger("news", "headline", #"{"text":"hi"}"#),
                                                     .expectEvent(channel: "news", event: "headline", data: ["text": "hi"], withinMs: 2_000)],
                   faultPlan: plan(PusherFaultRule(fault: .malformed(.objectData, target: .event("headline"))))),
        PusherCase("pusher.faults.delayed-subscription-succeeded", "a subscription confirmed 1.5 s late is reported only when confirmed",
                   spec: "§3.3", steps: connected + [.subscribe("news"), .expectNotSubscribed("news", forMs: 1_000),
                                                     .expectSubscribed("news", withinMs: 2_000)],
                   faultPlan: plan(PusherFaultRule(fault: .delaySubscriptionSucceeded(channel: "news", milliseconds: 1_500)))),
        PusherCase("pusher.faults.pongs-withheld", "a server that stops answering pings: the client gives up after its pong timeout and reconnects",
                   spec: "§3.2, §5", client: PusherClientSettings(activityTimeoutSeconds: 1, pongTimeoutSeconds: 1),
                   steps: connected + [.expectJournal(.pinged(connection: 1), withinMs: 3_000),
                                       .expectJournal(.connectionEnded(connection: 1), withinMs: 3_000),
                                       .expectConnected(count: 2, withinMs: 3_000)],
                   requires: [.clientPing, .reconnection],
                   faultPlan: plan(PusherFaultRule(times: 1, fault: .withholdPongs(.both)))),
        PusherCase("pusher.faults.dropped-subscription-succeeded", "a subscription never confirmed is never reported subscribed",
                   spec: "§3.3", steps: connected + [.subscribe("news"), .expectNotSubscribed("news", forMs: 1_500)],
                   faultPlan: plan(PusherFaultRule(fault: .dropSubscriptionSucceeded(channel: "news")))),
    ]
}
