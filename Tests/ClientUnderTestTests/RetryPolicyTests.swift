// SPDX-License-Identifier: MIT
import HarnessTesting
import Testing
@testable import ClientUnderTest

/// The event-engine retry policy alone (pure): delays, the last attempt, excluded endpoints,
/// `Retry-After`, and which failures are worth a retry.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct RetryPolicyTests {
    static let network = PNStatus(category: .networkIssues, operation: .subscribe)
    static let serverError = PNStatus(category: .unknown, operation: .subscribe, statusCode: 502)

    static func tooMany(retryAfter: Int?) -> PNStatus {
        PNStatus(category: .unknown, operation: .subscribe, statusCode: 429,
                 errorData: PNErrorData(information: "Too Many Requests", retryAfterSeconds: retryAfter))
    }

    @Test func linearRetriesAtTheSameDelayThenGivesUp() {
        let policy = RetryPolicy(kind: .linear, delay: 0.2, maximumRetries: 2)
        #expect(policy.decision(afterAttempts: 1, of: .subscribe, failure: Self.network) == .retry(after: 0.2))
        #expect(policy.decision(afterAttempts: 2, of: .subscribe, failure: Self.serverError) == .retry(after: 0.2))
        #expect(policy.decision(afterAttempts: 3, of: .subscribe, failure: Self.network) == .giveUp)
    }

    @Test func exponentialDoublesUpToItsMaximum() {
        let policy = RetryPolicy(kind: .exponential, delay: 2, maximumDelay: 5, maximumRetries: 6)
        let delays = (1...4).map { policy.decision(afterAttempts: $0, of: .heartbeat, failure: Self.network) }
        #expect(delays == [.retry(after: 2), .retry(after: 4), .retry(after: 5), .retry(after: 5)])
    }

    @Test func retryAfterReplacesTheDelayOfA429() {
        let policy = RetryPolicy(kind: .linear, delay: 0.2, maximumRetries: 2)
        #expect(policy.decision(afterAttempts: 1, of: .subscribe, failure: Self.tooMany(retryAfter: 3)) == .retry(after: 3))
        #expect(policy.decision(afterAttempts: 1, of: .subscribe, failure: Self.tooMany(retryAfter: nil)) == .retry(after: 0.2))
    }

    @Test func excludedEndpointsAndNoneNeverRetry() {
        let excluding = RetryPolicy(kind: .linear, delay: 0.2, maximumRetries: 2, excluded: [.subscribe])
        #expect(excluding.decision(afterAttempts: 1, of: .subscribe, failure: Self.network) == .giveUp)
        #expect(excluding.decision(afterAttempts: 1, of: .heartbeat, failure: Self.network) == .retry(after: 0.2))
        #expect(RetryPolicy.none.decision(afterAttempts: 1, of: .subscribe, failure: Self.network) == .giveUp)
    }

    @Test func refusalsAreNotRetried() {
        let policy = RetryPolicy(kind: .linear, delay: 0.2, maximumRetries: 2)
        for category in [PNStatusCategory.accessDenied, .badRequest, .requestURITooLong, .malformedFilterExpression, .cancelled] {
            let status = PNStatus(category: category, operation: .subscribe, statusCode: 400)
            #expect(policy.decision(afterAttempts: 1, of: .subscribe, failure: status) == .giveUp, "\(category)")
        }
        #expect(policy.decision(afterAttempts: 1, of: .subscribe,
                                failure: PNStatus(category: .unknown, operation: .subscribe, statusCode: 404)) == .giveUp)
    }

    @Test func invalidPoliciesAreRefusedByTheConfiguration() throws {
        var config = PubNubConfiguration(publishKey: "p", subscribeKey: "s", uuid: "u")
        config.retryPolicy = RetryPolicy(kind: .linear, delay: -1)
        #expect(throws: ConfigurationError.self) { try config.validate() }
    }
}
