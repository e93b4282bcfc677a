// SPDX-License-Identifier: MIT
import HarnessHTTPClient

/// The event-engine mode of the subscribe loop (today's SDKs: JS `src/event-engine`, Python
/// asyncio `pubnub/event_engine`): retries by policy, give-up, a list change that keeps the cursor,
/// `disconnect` and `reconnect`.
extension Subscriber {
    /// After a failed handshake or long-poll: waits the policy's delay and answers true (send it
    /// again), or gives up and answers false. A refusal no retry can cure (403, 414, 481) stops the
    /// loop with its own category, as in the 4.x loop.
    func retryAfterFailure(_ status: PNStatus, handshake: Bool, policy: RetryPolicy, generation gen: Int) async -> Bool {
        switch status.category {
        case .accessDenied, .requestURITooLong, .malformedFilterExpression:
            failedAttempts = 0
            handleStop(status)
            return false
        default: break
        }
        failedAttempts += 1
        switch policy.decision(afterAttempts: failedAttempts, of: .subscribe, failure: status) {
        case .retry(let seconds):
            do {
                try await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded())))
            } catch {
                return false
            }
            return gen == generation
        case .giveUp:
            failedAttempts = 0
            gaveUp(status, handshake: handshake)
            return false
        }
    }

    /// The last attempt failed: `PNConnectionErrorCategory` for a handshake,
    /// `PNDisconnectedUnexpectedlyCategory` for a long-poll; the cursor is kept for `reconnect`.
    private func gaveUp(_ status: PNStatus, handshake: Bool) {
        if let cursor, cursor.timetoken != 0 { lastCursor = cursor }
        phase = .failed
        heartbeatTask?.cancel()
        heartbeatTask = nil
        report(handshake ? .connectionError : .disconnectedUnexpectedly, statusCode: status.statusCode, errorData: status.errorData)
    }

    /// A list change while receiving (event-engine mode, no timetoken asked for): the loop goes on
    /// with the same cursor and the new list, without a handshake (`PNSubscriptionChangedCategory`).
    /// False when the change needs a handshake (then `restart` does it).
    func changeWhileReceiving() -> Bool {
        guard let client, client.configuration.enableEventEngine, phase == .receiving, userTimetoken == nil,
              let cursor, cursor.timetoken != 0 else { return false }
        stopTasks()
        generation += 1
        let gen = generation
        failedAttempts = 0
        loopTask = Task { await self.runLoop(generation: gen) }
        startHeartbeat()
        report(.subscriptionChanged, statusCode: 200)
        return true
    }

    /// Stops the loop, keeping the channels and the cursor (`PNDisconnectedCategory`); `reconnect`
    /// resumes it.
    func disconnect() {
        guard !set.isEmpty, phase != .paused else { return }
        if let cursor, cursor.timetoken != 0 { lastCursor = cursor }
        stopTasks()
        generation += 1
        phase = .paused
        report(.disconnected)
    }

    /// Resumes a loop that gave up or was disconnected: a handshake, then the long-polls from the
    /// kept cursor (or from `timetoken`), reported as `PNReconnectedCategory`.
    func reconnect(timetoken: UInt64?) {
        guard !set.isEmpty, phase == .failed || phase == .paused || phase == .disconnectedUnexpectedly else { return }
        if let timetoken, timetoken != 0 { lastCursor = SubscribeCursor(timetoken: timetoken, region: lastCursor?.region) }
        stopTasks()
        generation += 1
        restoring = true
        failedAttempts = 0
        phase = .handshaking
        let gen = generation
        loopTask = Task { await self.runLoop(generation: gen) }
        startHeartbeat()
    }
}
