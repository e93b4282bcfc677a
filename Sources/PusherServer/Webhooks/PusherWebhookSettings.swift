// SPDX-License-Identifier: MIT

/// How webhooks are delivered. Defaults are the service's documented behaviour, shortened where a
/// test harness needs it.
public struct PusherWebhookSettings: Sendable, Hashable {
    /// How long a failing webhook is retried before it is given up. The service retries for 5 minutes
    /// [doc] §7; the mock's default is 30 s so a test run does not hang on a dead receiver.
    public var retryWindow: Duration = .seconds(30)
    /// The first wait after a failure; each next wait doubles, up to `maxBackoff`.
    public var initialBackoff: Duration = .milliseconds(250)
    public var maxBackoff: Duration = .seconds(4)
    /// Deadline of one POST.
    public var requestTimeout: Duration = .seconds(5)
    /// Events waiting at most; more are dropped and counted (memory stays bounded).
    public var queueCapacity = 10_000
    /// The hold of `channel_vacated`/`member_removed` (the service: up to 3 s, suppressed when the
    /// client comes back). Off (nil) by default: every webhook goes out at once, in order, which is what
    /// a test wants to assert on; `.seconds(3)` models the service.
    public var vacateDelay: Duration? = nil
    /// How long an app's batch collects events before its POST (spec §7 and Pusher's support docs:
    /// "batched for a maximum of 250ms or until 20 webhook events"); nil sends one event per POST,
    /// the form of an app without the dashboard's "batch webhooks" setting.
    public var batchWindow: Duration? = .milliseconds(250)
    /// Events in one POST at most (the service: 20).
    public var batchLimit = 20

    public init() {}
}
