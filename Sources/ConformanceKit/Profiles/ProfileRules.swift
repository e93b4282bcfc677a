// SPDX-License-Identifier: MIT

/// The split between what the protocol requires and what legitimately differs between SDK
/// families: every case not named here is required of every correct client; the cases named
/// here check a behaviour a ``ClientProfile`` may declare differently, and this table says what a
/// declared variant means for them (pure).
public enum ProfileRules {
    /// What a declared variant does to a case.
    public enum Effect: Sendable, Hashable {
        /// The case checks the reference behaviour itself: it does not apply.
        case skip(String)
        /// The variant's outcome is allowed (the case ends non-strict when it happens).
        case accept(Alternative)
        /// The case keeps its checks with every wait window and its budget multiplied (timing
        /// that the protocol leaves to the client, e.g. a randomised retry delay).
        case stretch(Int, String)
        /// Nothing changes for this value.
        case keep
    }

    /// A rule: case ids (a trailing `*` matches a prefix), the aspect, the values it is for
    /// (empty = any non-reference value) and its effect for a value.
    public struct Rule: Sendable {
        public var cases: [String]
        public var aspect: BehaviourAspect
        public var values: Set<String>
        public var effect: @Sendable (String) -> Effect

        func matches(_ id: String) -> Bool {
            cases.contains { $0.hasSuffix("*") ? id.hasPrefix(String($0.dropLast())) : id == $0 }
        }
    }

    /// What a profile means for one case.
    public enum Applicability: Sendable, Hashable {
        case applies(ConformanceCase)
        case skipped(String)
    }

    /// A case that checks one declared variant itself (the variant's counterpart of a reference
    /// case): it applies only to a client declaring one of `values` for `aspect`.
    public struct VariantCase: Sendable {
        public var cases: [String]
        public var aspect: BehaviourAspect
        public var values: Set<String>
        /// What the variant is, for the skip reason.
        public var variant: String
    }

    /// The variant-only cases. The retry-policy cases are the counterparts of
    /// `reconnect.restore.on` / `reconnect.catch-up.on`, which time `/time/0` pings.
    public static let variantCases: [VariantCase] = [
        VariantCase(cases: retryPolicyCases, aspect: .reconnection, values: ["retry-policy"],
                    variant: "reconnection by retrying the subscribe under a retry policy"),
    ]

    static let retryPolicyCases = ["reconnect.retry.restore", "reconnect.retry.catch-up"]

    /// Cases whose pace is set by request timeouts that must happen.
    static let timeoutPaced: Set<String> = [
        "faults.subscribe.long-poll-times-out-twice", "faults.subscribe.delay-long", "faults.subscribe.hang",
        "faults.request.delay-long", "faults.request.hang", "faults.request.time-hang",
        "transport.request.stall-on-accept", "transport.subscribe.stall-on-accept",
        "tls.request.tls-stall-handshake", "tls.subscribe.tls-stall-handshake",
    ]

    static let timingCases = ["reconnect.ping.interval", "reconnect.ping.reconnected", "reconnect.ping.keeps-pinging",
                              "reconnect.restore.on", "reconnect.catch-up.on", "reconnect.catch-up.off"]

    public static let rules: [Rule] = [
        Rule(cases: timingCases, aspect: .reconnection, values: ["time-ping-jittered"]) { _ in
            .stretch(4, "reconnection pings follow a retry policy with up to 1 s of random jitter per attempt (§12.1)")
        },
        Rule(cases: timingCases, aspect: .reconnection, values: ["retry-policy", "none"]) { value in
            .skip("checks /time/0 reachability pings; this client's reconnection is \(value) (§12)")
        },
        Rule(cases: ["subscribe.unsubscribe.all-disconnected"], aspect: .unsubscribeAllStatus, values: []) { value in
            .accept(Alternative(categories(value), reason: "unsubscribing from everything is announced as \(value) in this SDK family (§11.3)"))
        },
        Rule(cases: ["subscribe.channels.add"], aspect: .listChangeStatus, values: []) { value in
            .skip("checks the 4.x new handshake and second PNConnectedCategory on a list change; this client announces \(value) and keeps its cursor (§11.3)")
        },
        Rule(cases: ["subscribe.channels.remove", "subscribe.channels.add-delivers", "subscribe.list-change.*"], aspect: .listChangeStatus, values: []) { value in
            value == "none" ? .keep : .accept(Alternative(categories(value), reason: "a channel-list change is announced as \(value) (§11.3 event engine)"))
        },
        Rule(cases: ["faults.subscribe.delay-long", "faults.subscribe.hang",
                     "tls.subscribe.tls-stall-handshake", "transport.subscribe.stall-on-accept"],
             aspect: .subscribeTimeout, values: ["silent-restart"]) { _ in
            .accept(Alternative([], reason: "a subscribe timeout silently reissues the request, nothing is announced (§11.3, §12.1)"))
        },
        Rule(cases: ["faults.subscribe.*", "tls.subscribe.*", "transport.subscribe.*"], aspect: .subscribeFaultStatus, values: []) { value in
            value == "none"
                ? .accept(Alternative([], reason: "the loop retries a failed request under its retry policy without announcing it (§12.1 event engine)"))
                : .accept(Alternative(categories(value), reason: "the loop announces the failed request's own status (\(value)) before reconnecting (§12.1)"))
        },
        Rule(cases: ["subscribe.presence.heartbeat-value"], aspect: .heartbeat, values: ["separate-request"]) { _ in
            .skip("checks heartbeat= on the subscribe request; this client sends presence heartbeats as separate /heartbeat calls (§6.1)")
        },
    ]

    /// The case as it applies to a client with `profile`.
    public static func adapt(_ testCase: ConformanceCase, to profile: ClientProfile) -> Applicability {
        if let setting = ignoredSetting(testCase, profile) {
            return .skipped("sets \(setting.rawValue), which this client does not have (profile)")
        }
        if let variant = variantCases.first(where: { $0.cases.contains(testCase.id) }),
           !variant.values.contains(profile.value(variant.aspect)) {
            return .skipped("checks \(variant.variant); this client's \(variant.aspect.rawValue) is \(profile.value(variant.aspect)) (profile)")
        }
        if profile.ignoredSettings.contains(.reconnectPingIntervalMs), timingCases.contains(testCase.id) {
            return .skipped("times reconnection pings at the configured interval, which this client cannot be given (profile: reconnectPingIntervalMs ignored)")
        }
        if profile.ignoredSettings.contains(.reconnectPingIntervalMs), retryPolicyCases.contains(testCase.id) {
            return .skipped("times retries at the configured interval, which this client's retry policy cannot be given (profile: reconnectPingIntervalMs ignored)")
        }
        var adapted = testCase
        // Cases that wait for subscribe timeouts to happen, with a timeout below the client's
        // resolution: the same checks over proportionally longer windows.
        if profile.timeoutResolutionMs > 0, timeoutPaced.contains(testCase.id),
           let timeout = [testCase.client.subscribeTimeoutMs, testCase.client.nonSubscribeTimeoutMs].compactMap({ $0 }).min(),
           timeout < profile.timeoutResolutionMs {
            adapted = stretched(adapted, by: (profile.timeoutResolutionMs + timeout - 1) / timeout)
        }
        for rule in rules where rule.matches(testCase.id) && profile.differs(rule.aspect) {
            let value = profile.value(rule.aspect)
            if !rule.values.isEmpty && !rule.values.contains(value) { continue }
            switch rule.effect(value) {
            case .skip(let reason):
                return .skipped("does not apply (\(rule.aspect.rawValue): \(value)): \(reason)")
            case .accept(let alternative):
                adapted.alternatives.append(alternative)
            case .stretch(let factor, _):
                adapted = stretched(adapted, by: factor)
            case .keep:
                break
            }
        }
        return .applies(adapted)
    }

    /// The first setting the case changes from the harness default that the client ignores.
    /// (`reconnectPingIntervalMs` is set by many cases in passing; only the cases that time the
    /// pings depend on it, see `adapt`.)
    static func ignoredSetting(_ testCase: ConformanceCase, _ profile: ClientProfile) -> ClientSetting? {
        let o = testCase.client
        let changed: [(ClientSetting, Bool)] = [
            (.catchUpOnSubscriptionRestore, o.catchUpOnSubscriptionRestore == false),
            (.keepTimeTokenOnListChange, o.keepTimeTokenOnListChange == false),
            (.restoreSubscription, o.restoreSubscription == false),
            (.requestMessageCountThreshold, (o.requestMessageCountThreshold ?? 0) != 0),
            (.presenceHeartbeatIntervalMs, (o.presenceHeartbeatIntervalMs ?? 0) != 0),
        ]
        return changed.first { profile.ignoredSettings.contains($0.0) && $0.1 }?.0
    }

    static func categories(_ value: String) -> [StatusCategory] {
        value == "none" ? [] : [StatusCategory(rawValue: value) ?? .unknown]
    }

    /// `testCase` with its budget and every wait window multiplied by `factor` (not `wait` steps
    /// nor "must not" windows: those state what may not happen in a given time).
    static func stretched(_ testCase: ConformanceCase, by factor: Int) -> ConformanceCase {
        var copy = testCase
        copy.timeBudget = testCase.timeBudget * factor
        copy.steps = testCase.steps.map { step in
            switch step {
            case .expectStatus(let category, let ms): .expectStatus(category, withinMs: ms * factor)
            case .expectMessages(let messages, let ms): .expectMessages(messages, withinMs: ms * factor)
            case .expectMessageCount(let count, let ms): .expectMessageCount(count, withinMs: ms * factor)
            case .expectPresence(let presence, let ms): .expectPresence(presence, withinMs: ms * factor)
            case .expectAppContextEvent(let event, let ms): .expectAppContextEvent(event, withinMs: ms * factor)
            case .expectMessageAction(let event, let ms): .expectMessageAction(event, withinMs: ms * factor)
            case .expectJournal(let expectation, let ms): .expectJournal(expectation, withinMs: ms * factor)
            case .expectObservedPresence(let presence, let ms): .expectObservedPresence(presence, withinMs: ms * factor)
            default: step
            }
        }
        return copy
    }
}
