// SPDX-License-Identifier: MIT

/// The switch from HTTP to WebSocket on one connection.
extension Connection {
    /// Routes the upgrade request the machine holds (it is in flight): refused, it is answered
    /// and the connection closes; taken, the channel now belongs to a `WebSocketConnection`;
    /// otherwise it goes to the handler as an ordinary request.
    func routeUpgrade(_ request: HTTPRequest, context: RequestContext) {
        guard let router = core.upgradeRouter, let outcome = router.route(request, context: context) else {
            feed(.upgradeDeclined(request, arrival: context.arrivalTime))
            return
        }
        switch outcome {
        case .refuse(let response):
            feed(.upgradeRefused(response))
        case .switchProtocols(let head, let handler):
            let leftover = detachForUpgrade()
            WebSocketConnection(channel: channel, handler: handler).start(responseHead: head, leftover: leftover)
        }
    }

    /// Leaves the socket to its next owner: stops the timers and the watchdog and returns the bytes
    /// read after the request head. The channel (descriptor, registration, counted as open) goes
    /// on under the new owner.
    private func detachForUpgrade() -> [UInt8] {
        for timer in timers { timer.cancel() }
        timers.removeAll()
        disarmWatchTimer()
        watchPhase = .none
        responder = nil
        // A request is dispatched only once the previous answer is written: no output is pending.
        let leftover = agenda.machine.takeBufferedBytes()
        agenda.handleDiscardingActions(.upgradeAccepted)
        return leftover
    }
}
