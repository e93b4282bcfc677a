// SPDX-License-Identifier: MIT

/// How the event-engine mode retries a failed request (pure: an attempt and its failure in, a
/// decision out). Modelled on today's SDKs (the JS SDK's `src/core/components/retry-policy.ts`,
/// the Python asyncio `PNReconnectionPolicy`): a linear or an exponential delay, a maximum number
/// of retries, endpoints excluded from retrying; a 429's `Retry-After` is honoured.
public struct RetryPolicy: Sendable, Hashable {
    /// How delays grow.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// No retry at all: the first failure gives up.
        case none
        /// The same delay before every retry.
        case linear
        /// `delay` doubled per retry, capped at `maximumDelay`.
        case exponential
    }

    /// The endpoints a policy can exclude (the names of the JS SDK's `Endpoint` groups, in lower case).
    public enum Endpoint: String, Sendable, Hashable, CaseIterable {
        case subscribe, heartbeat, leave, publish, history, presence, time
    }

    public var kind: Kind
    /// The (first) delay before a retry, in seconds.
    public var delay: Double
    /// The longest delay of an exponential policy, in seconds.
    public var maximumDelay: Double
    /// How many retries follow the first attempt before the client gives up.
    public var maximumRetries: Int
    /// Requests to these endpoints are never retried.
    public var excluded: Set<Endpoint>

    public init(kind: Kind, delay: Double = 2, maximumDelay: Double = 150, maximumRetries: Int = 6, excluded: Set<Endpoint> = []) {
        self.kind = kind
        self.delay = delay
        self.maximumDelay = maximumDelay
        self.maximumRetries = maximumRetries
        self.excluded = excluded
    }

    /// No retries.
    public static let none = RetryPolicy(kind: .none, maximumRetries: 0)

    /// What to do after a failure.
    public enum Decision: Sendable, Equatable {
        /// Send the request again after this many seconds.
        case retry(after: Double)
        /// Stop: report the failure.
        case giveUp
    }

    /// The decision after `failedAttempts` attempts (1 = the first one failed) of a request to
    /// `endpoint` that ended with `failure`. Only network errors, timeouts, 5xx and 429 are worth
    /// a retry; a `Retry-After` replaces the policy's delay.
    public func decision(afterAttempts failedAttempts: Int, of endpoint: Endpoint, failure: PNStatus) -> Decision {
        guard kind != .none, !excluded.contains(endpoint), failedAttempts <= maximumRetries, Self.isRetryable(failure) else {
            return .giveUp
        }
        if failure.statusCode == 429, let seconds = failure.errorData?.retryAfterSeconds, seconds >= 0 {
            return .retry(after: Double(seconds))
        }
        switch kind {
        case .none: return .giveUp
        case .linear: return .retry(after: delay)
        case .exponential:
            let factor = Double(1 << min(failedAttempts - 1, 30))
            return .retry(after: min(delay * factor, maximumDelay))
        }
    }

    /// Whether `failure` is one a retry can cure: no answer (network, timeout) or 429 and 5xx.
    public static func isRetryable(_ failure: PNStatus) -> Bool {
        switch failure.category {
        case .networkIssues, .timeout, .tlsConnectionFailed: return true
        case .cancelled, .accessDenied, .badRequest, .requestURITooLong, .malformedFilterExpression: return false
        default: return failure.statusCode == 429 || (500...599).contains(failure.statusCode)
        }
    }

    /// The configuration error of this policy, if any.
    func validationError() -> String? {
        if delay < 0 || maximumDelay < 0 { return "delays must be ≥ 0" }
        if maximumRetries < 0 { return "maximumRetries must be ≥ 0" }
        return nil
    }
}
