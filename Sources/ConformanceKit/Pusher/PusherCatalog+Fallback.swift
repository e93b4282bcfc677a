// SPDX-License-Identifier: MIT
import PusherServer

/// The HTTP fallback transports (docs/pusher.md "HTTP fallback transports"): a proxy that refuses
/// the WebSocket upgrade (the `refuse-websocket` fault), then the stream too (`refuse-streaming`);
/// the client connects over `xhr_streaming` or `xhr_polling` and works as over a WebSocket.
extension PusherCatalog {
    /// Every connection's WebSocket upgrade refused 403, as a blocking proxy would.
    static let noWebSocket = plan(PusherFaultRule(id: "proxy", fault: .refuseTransport(.websocket, status: 403)))
    /// The WebSocket refused, and every `xhr_streaming` session too (503).
    static let noStreaming = plan(
        PusherFaultRule(id: "proxy", fault: .refuseTransport(.websocket, status: 403)),
        PusherFaultRule(id: "no-stream", fault: .refuseTransport(.streaming, status: 503)))

    static let fallback: [PusherCase] = [
        PusherCase("pusher.fallback.websocket-preferred", "nothing refused: the client connects over a WebSocket", spec: "§2.1",
                   steps: [.connect, .expectConnected(withinMs: 1_000), .expectJournal(.usedTransport(connection: 1, "ws"), withinMs: 500)],
                   requires: [.httpFallback]),
    ] + transportCases("streaming", transport: "xhr_streaming", plan: noWebSocket)
        + transportCases("polling", transport: "xhr_polling", plan: noStreaming) + closeCases

    /// How long a client may take to fall back: pusher-js starts its HTTP transports 5 s after the
    /// WebSocket attempt without TLS (2 s with it), and the polling transport 4 s after the stream
    /// (src/runtimes/isomorphic/default_strategy.ts, web/default_strategy.ts); a client that falls
    /// back at once (the built-in one) passes in milliseconds.
    static let streamingFallbackMs = 7_000
    static let pollingFallbackMs = 11_000

    /// The close codes of spec §5 carried by a `c[code,"reason"]` frame.
    static let closeCases: [PusherCase] = [
        PusherCase("pusher.fallback.streaming-close-4009", "over xhr_streaming, a close 4009 (a c frame) is final: no reconnect", spec: "§5",
                   steps: [.connect, .expectConnected(withinMs: streamingFallbackMs), .closeConnection(code: 4009, reason: "close 4009"),
                           .expectDisconnected(code: 4009, withinMs: 800), .expectNoReconnect(forMs: 500)],
                   requires: [.httpFallback], faultPlan: noWebSocket),
        PusherCase("pusher.fallback.streaming-close-4200", "over xhr_streaming, a close 4200 (a c frame) makes the client reconnect at once",
                   spec: "§5", client: slowDelay,
                   steps: [.connect, .expectConnected(withinMs: streamingFallbackMs), .closeConnection(code: 4200, reason: "close 4200"),
                           .expectDisconnected(code: 4200, withinMs: 700), .expectImmediateReconnect(beforeMs: 1_000)],
                   requires: [.httpFallback, .reconnection], faultPlan: noWebSocket),
    ]

    /// Connecting, a triggered event, a private channel's client event, over `transport`.
    private static func transportCases(_ name: String, transport: String, plan: PusherFaultPlan) -> [PusherCase] {
        let connected: [PusherStep] = [.connect, .expectConnected(withinMs: transport == "xhr_polling" ? pollingFallbackMs : streamingFallbackMs)]
        let refused = name == "streaming" ? "the WebSocket upgrade refused" : "the WebSocket upgrade and the stream refused"
        return [
            PusherCase("pusher.fallback.\(name)-connects", "\(refused): the client connects over \(transport)", spec: "§2.1",
                       steps: connected + [.expectJournal(.usedTransport(connection: 1, transport), withinMs: 500)],
                       requires: [.httpFallback], faultPlan: plan),
            PusherCase("pusher.fallback.\(name)-events", "over \(transport): subscribed to a public channel, a triggered event arrives",
                       spec: "§3.1, §3.5",
                       steps: connected + [.subscribe("news"), .expectSubscribed("news", withinMs: 500),
                                           .trigger("news", "headline", #"{"n":1}"#),
                                           .expectEvent(channel: "news", event: "headline", data: ["n": 1], withinMs: 500)],
                       requires: [.httpFallback], faultPlan: plan),
            PusherCase("pusher.fallback.\(name)-client-event", "over \(transport): a private channel's client event reaches the other subscriber",
                       spec: "§3.3, §3.6",
                       steps: connected + [.peerSubscribe(ann, channel: "private-chat"), .subscribe("private-chat"),
                                           .expectSubscribed("private-chat", withinMs: 500),
                                           .clientEvent(channel: "private-chat", event: "client-typing", data: ["n": 1]),
                                           .expectPeerEvent(ann, channel: "private-chat", event: "client-typing", data: ["n": 1], withinMs: 500)],
                       requires: [.httpFallback, .privateChannels, .clientEvents], faultPlan: plan),
        ]
    }
}
