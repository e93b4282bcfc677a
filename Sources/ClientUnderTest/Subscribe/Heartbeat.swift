// SPDX-License-Identifier: MIT

extension Subscriber {
    /// Presence heartbeats every `presenceHeartbeatInterval` seconds while subscribed; failures are
    /// reported to the listeners as `PNHeartbeatOperation` statuses.
    func startHeartbeat() {
        heartbeatTask?.cancel()
        heartbeatTask = nil
        guard let config = client?.configuration, let interval = config.effectiveHeartbeatInterval else { return }
        let gen = generation
        heartbeatTask = Task { await self.heartbeatLoop(generation: gen, interval: interval) }
    }

    /// The 4.x loop waits an interval before the first heartbeat (the subscribe request announces
    /// the client); the event-engine mode sends one at once, then one per interval, and retries a
    /// failed one by the retry policy (a delayed heartbeat) before reporting it.
    private func heartbeatLoop(generation gen: Int, interval: Double) async {
        var first = true
        while gen == generation, !Task.isCancelled {
            let eventEngine = client?.configuration.enableEventEngine ?? false
            if !(first && eventEngine) {
                guard await pause(seconds: interval) else { return }
            }
            first = false
            guard gen == generation, let client, !set.isEmpty else { return }
            let config = client.configuration
            let request = SubscribeEndpoints.heartbeat(subscribeKey: config.subscribeKey, channels: set.channels,
                                                       groups: set.groups, heartbeat: config.presenceHeartbeatValue,
                                                       state: set.stateForRequest, eventEngine: config.enableEventEngine)
            var attempts = 0
            while case .failure(let status) = await client.send(request), gen == generation, status.category != .cancelled {
                attempts += 1
                guard config.enableEventEngine,
                      case .retry(let seconds) = config.retryPolicy.decision(afterAttempts: attempts, of: .heartbeat, failure: status)
                else {
                    client.emit(.status(status))
                    break
                }
                guard await pause(seconds: seconds), gen == generation else { return }
            }
        }
    }

    /// Sleeps `seconds`; false when the task was cancelled.
    private func pause(seconds: Double) async -> Bool {
        do {
            try await Task.sleep(for: .milliseconds(Int64((seconds * 1000).rounded())))
            return true
        } catch {
            return false
        }
    }
}
