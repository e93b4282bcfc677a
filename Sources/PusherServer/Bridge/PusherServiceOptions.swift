// SPDX-License-Identifier: MIT
import MockPusher

/// How a `PusherService` is built: where socket ids and time come from, where webhook events go.
public struct PusherServiceOptions: Sendable {
    /// The socket ids handed out, in order (a fixed seed lets tests predict them).
    public var socketIDs: PusherSocketIDGenerator
    /// The monotonic clock every input is stamped with.
    public var clock: PusherClock
    /// Receives every webhook event the core emits, with its app id; batching, signing and delivery
    /// are the receiver's. Default: events are dropped.
    public var webhookSink: @Sendable (_ appID: String, _ event: PusherWebhookEvent) -> Void
    /// The HTTP fallback transports' timing and framing.
    public var httpSessions = PusherHTTPSessionSettings()
    /// Answer every WebSocket upgrade on `/app/KEY` with this status (a proxy blocking WebSockets); nil: upgrades are served.
    public var webSocketRefusalStatus: Int?

    public init(
        socketIDs: PusherSocketIDGenerator = PusherSocketIDGenerator(seed: 0x5075_7368_6572),
        clock: PusherClock = .monotonic(),
        webhookSink: @escaping @Sendable (_ appID: String, _ event: PusherWebhookEvent) -> Void = { _, _ in }
    ) {
        self.socketIDs = socketIDs
        self.clock = clock
        self.webhookSink = webhookSink
    }
}
