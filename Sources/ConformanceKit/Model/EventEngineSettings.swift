// SPDX-License-Identifier: MIT
import HarnessJSON

/// The event-engine settings of a case (driver protocol 9, capability `eventEngine`): the client
/// runs its event engine with this retry policy. Sent in `configure` as `eventEngine: true`,
/// `retryPolicy` and `suppressLeaveEvents` (docs/driver-protocol.md, "Event engine").
public struct EventEngineSettings: Sendable, Hashable {
    /// How delays grow: `none`, `linear` or `exponential`.
    public var kind: String
    /// The (first) delay before a retry.
    public var delayMs: Int
    /// The longest delay of an exponential policy.
    public var maximumDelayMs: Int
    /// Retries after the first attempt before the client gives up.
    public var maximumRetries: Int
    /// Endpoints never retried: `subscribe`, `heartbeat`, `leave`, `publish`, `history`, `presence`, `time`.
    public var excluded: [String]
    /// No leave request on unsubscribe.
    public var suppressLeaveEvents: Bool

    public init(kind: String = "linear", delayMs: Int = 200, maximumDelayMs: Int = 2_000, maximumRetries: Int = 2,
                excluded: [String] = [], suppressLeaveEvents: Bool = false) {
        self.kind = kind
        self.delayMs = delayMs
        self.maximumDelayMs = maximumDelayMs
        self.maximumRetries = maximumRetries
        self.excluded = excluded
        self.suppressLeaveEvents = suppressLeaveEvents
    }

    /// The `retryPolicy` object of `configure`.
    public var retryPolicyJSON: JSONValue {
        .object(JSONObject([
            ("kind", .string(kind)), ("delayMs", .int(delayMs)), ("maximumDelayMs", .int(maximumDelayMs)),
            ("maximumRetries", .int(maximumRetries)), ("excluded", .array(excluded.map { .string($0) })),
        ]))
    }
}
