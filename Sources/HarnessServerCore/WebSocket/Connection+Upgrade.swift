// SPDX-License-Identifier: MIT

/// The switch from HTTP to WebSocket on one connection.
extension Connection {
    /// Routes an upgrade request being dispatched (it is `current`). Returns true when the request
    /// was consumed here (refused, or the socket now belongs to a `WebSocketConnection`); false
    /// when it is an ordinary request for the handler.
    func routeUpgrade(_ request: HTTPRequest, context: RequestContext) -> Bool {
        upgradeHold = false
        guard let router = core.upgradeRouter, let outcome = router.route(request, context: context) else {
            // Not an upgrade anyone takes: what follows it is HTTP again.
            parseRequests()
            return false
        }
        switch outcome {
        case .refuse(let response):
            // The bytes behind the request may be frames: answer, then close.
            upgradeHold = true
            sequence += 1
            current?.keepAlive = false
            current?.pendingAction = .respond(response)
            return true
        case .switchProtocols(let head, let handler):
            let leftover = detachForUpgrade()
            WebSocketConnection(channel: channel, handler: handler).start(responseHead: head, leftover: leftover)
            return true
        }
    }

    /// Leaves the socket to its next owner: stops the timers and the watchdog and returns the bytes
    /// read after the request head. The channel (descriptor, registration, counted as open) goes
    /// on under the new owner.
    private func detachForUpgrade() -> [UInt8] {
        state = .closed
        for timer in timers { timer.cancel() }
        timers.removeAll()
        watchTimer?.cancel()
        watchTimer = nil
        watchPhase = .none
        current = nil
        queue.removeAll()
        queueHead = 0
        // A request is dispatched only once the previous answer is written: no output is pending.
        return parser.takeBufferedBytes()
    }
}
