// SPDX-License-Identifier: MIT
import HarnessHTTPClient

extension Subscriber {
    /// Reports `PNUnexpectedDisconnectCategory`; with `restoreSubscription` starts pinging `/time/0`
    /// every `reconnectionPingInterval` seconds, otherwise forgets the channels and reports
    /// `PNDisconnectedCategory`.
    func disconnectedUnexpectedly(_ cause: PNStatus, generation gen: Int) {
        guard let config = client?.configuration else { return }
        if let cursor, cursor.timetoken != 0, config.catchUpOnSubscriptionRestore {
            lastCursor = cursor
        } else if !config.catchUpOnSubscriptionRestore {
            lastCursor = nil
        }
        phase = .disconnectedUnexpectedly
        heartbeatTask?.cancel()
        heartbeatTask = nil
        report(.unexpectedDisconnect, statusCode: cause.statusCode, errorData: cause.errorData,
               willRetry: config.restoreSubscription)
        guard config.restoreSubscription else {
            set.removeAll()
            stop(resetCursor: true)
            report(.disconnected)
            return
        }
        pingTask = Task { await self.pingUntilReachable(generation: gen, interval: config.reconnectionPingInterval) }
    }

    private func pingUntilReachable(generation gen: Int, interval: Double) async {
        while gen == generation, !Task.isCancelled {
            do {
                try await Task.sleep(for: .milliseconds(Int64((interval * 1000).rounded())))
            } catch {
                return
            }
            guard gen == generation, let client else { return }
            let cancel = CancellationSignal()
            currentCancel = cancel
            let outcome = await client.send(SubscribeEndpoints.time(), cancel: cancel)
            guard gen == generation else { return }
            if case .success(let body) = outcome, body[0]?.timetokenValue != nil {
                resumeAfterPing(generation: gen)
                return
            }
        }
    }

    private func resumeAfterPing(generation gen: Int) {
        restoring = true
        phase = .handshaking
        pingTask = nil
        loopTask = Task { await self.runLoop(generation: gen) }
        startHeartbeat()
    }
}
