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

    private func heartbeatLoop(generation gen: Int, interval: Double) async {
        while gen == generation, !Task.isCancelled {
            do {
                try await Task.sleep(for: .milliseconds(Int64((interval * 1000).rounded())))
            } catch {
                return
            }
            guard gen == generation, let client, !set.isEmpty else { return }
            let config = client.configuration
            let request = SubscribeEndpoints.heartbeat(subscribeKey: config.subscribeKey, channels: set.channels,
                                                       groups: set.groups, heartbeat: config.presenceHeartbeatValue,
                                                       state: set.stateForRequest)
            if case .failure(let status) = await client.send(request), gen == generation, status.category != .cancelled {
                client.emit(.status(status))
            }
        }
    }
}
