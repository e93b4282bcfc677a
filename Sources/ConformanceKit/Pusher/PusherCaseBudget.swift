// SPDX-License-Identifier: MIT
import PusherServer

/// A Pusher case's time budget derived from what it needs, and its time scaling (pure), in the
/// terms of ``CaseBudget``: base margin, a margin per action, every window it may wait for.
public enum PusherCaseBudget {
    public static func derive(_ testCase: PusherCase) -> Duration {
        var needed = CaseBudget.baseMargin
        for step in testCase.steps {
            switch step {
            case .wait(let ms), .expectNoEvent(_, let ms), .expectNoPeerEvent(_, _, let ms), .expectNoReconnect(let ms), .expectNotSubscribed(_, let ms),
                 .expectImmediateReconnect(let ms):
                needed += .milliseconds(ms)
            case .expectConnected(_, let ms), .expectDisconnected(_, let ms), .expectSubscribed(_, let ms),
                 .expectSubscriptionError(_, let ms), .expectErrorEvent(_, let ms), .expectEvent(_, _, _, _, let ms),
                 .expectMember(_, _, _, let ms), .expectMembers(_, _, let ms), .expectPeerEvent(_, _, _, _, let ms),
                 .expectReconnect(_, let ms), .expectJournal(_, let ms), .expectWebhook(_, _, _, let ms):
                needed += .milliseconds(ms)
            case .connect, .disconnect, .subscribe, .unsubscribe, .clientEvent, .trigger, .closeConnection, .sendErrorEvent,
                 .peerSubscribe, .peerLeave, .peerClientEvent, .clientEventMayBeRefused:
                needed += CaseBudget.actionMargin
            case .signin, .peerSignin, .sendToUser, .terminateUser, .expectSignedIn, .expectUserEvent, .expectNoUserEvent, .expectWatchlist:
                needed += step.userStepWindow.map { .milliseconds($0) } ?? CaseBudget.actionMargin
            }
        }
        needed += .milliseconds(faultMilliseconds(testCase.faultPlan))
        return max(needed, testCase.timeBudget)
    }

    /// The longest delay a fault plan adds.
    static func faultMilliseconds(_ plan: PusherFaultPlan?) -> Int {
        (plan?.rules ?? []).map { rule in
            if case .delaySubscriptionSucceeded(_, let ms) = rule.fault { min(max(ms, 0), 600_000) } else { 0 }
        }.max() ?? 0
    }

    /// The case for a machine `factor` times slower: windows in which something must happen are
    /// stretched; waits, "must not" windows and lower bounds (`atLeastMs`) are the timing under test.
    public static func scaled(_ testCase: PusherCase, by factor: Double) -> PusherCase {
        guard factor.isFinite, factor > 1 else { return testCase }
        func stretch(_ ms: Int) -> Int { Int((Double(ms) * factor).rounded(.up)) }
        var copy = testCase
        copy.timeBudget = testCase.timeBudget * factor
        copy.steps = testCase.steps.map { step in
            switch step {
            case .expectConnected(let count, let ms): .expectConnected(count: count, withinMs: stretch(ms))
            case .expectDisconnected(let code, let ms): .expectDisconnected(code: code, withinMs: stretch(ms))
            case .expectSubscribed(let channel, let ms): .expectSubscribed(channel, withinMs: stretch(ms))
            case .expectSubscriptionError(let channel, let ms): .expectSubscriptionError(channel, withinMs: stretch(ms))
            case .expectErrorEvent(let code, let ms): .expectErrorEvent(code: code, withinMs: stretch(ms))
            case .expectEvent(let channel, let event, let data, let user, let ms):
                .expectEvent(channel: channel, event: event, data: data, userID: user, withinMs: stretch(ms))
            case .expectMember(let channel, let user, let added, let ms): .expectMember(channel: channel, userID: user, added: added, withinMs: stretch(ms))
            case .expectMembers(let channel, let users, let ms): .expectMembers(channel: channel, userIDs: users, withinMs: stretch(ms))
            case .expectPeerEvent(let peer, let channel, let event, let data, let ms):
                .expectPeerEvent(peer, channel: channel, event: event, data: data, withinMs: stretch(ms))
            case .expectReconnect(let least, let ms): .expectReconnect(atLeastMs: least, withinMs: stretch(ms))
            case .expectJournal(let check, let ms): .expectJournal(check, withinMs: stretch(ms))
            case .expectWebhook(let name, let channel, let fields, let ms): .expectWebhook(name: name, channel: channel, fields: fields, withinMs: stretch(ms))
            default: step.userStepStretched(stretch)
            }
        }
        return copy
    }

    public static func effective(_ testCase: PusherCase, scale factor: Double) -> Duration {
        let derived = derive(testCase)
        return factor.isFinite && factor > 1 ? derived * factor : derived
    }
}
