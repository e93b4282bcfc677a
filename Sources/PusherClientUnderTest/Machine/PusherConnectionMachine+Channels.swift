// SPDX-License-Identifier: MIT
import HarnessJSON

/// Channel inputs of the machine: subscribing, authorizing, client events.
extension PusherConnectionMachine {
    mutating func subscribe(_ name: String) -> [PusherClientAction] {
        guard index(name) == nil else { return [] }
        channels.append(PusherChannelRecord(name: name))
        guard case .connected(let socketID) = state else { return [] }
        return startSubscription(channels.count - 1, socketID: socketID)
    }

    mutating func unsubscribe(_ name: String) -> [PusherClientAction] {
        guard let position = index(name) else { return [] }
        let removed = channels.remove(at: position)
        guard case .connected = state else { return [] }
        switch removed.status {
        case .subscribing, .subscribed: return [.send(PusherWire.unsubscribe(channel: name))]
        case .pending, .authorizing, .failed: return []
        }
    }

    mutating func trigger(_ event: String, _ data: JSONValue, on name: String) -> [PusherClientAction] {
        guard let position = index(name), channels[position].kind.acceptsClientEvents, !PusherChannelType.isEncrypted(name) else { return [] }
        if channels[position].status == .subscribed, case .connected = state {
            return [.send(PusherWire.clientEvent(name: event, data: data, channel: name))]
        }
        if channels[position].queued.count < settings.maximumQueuedClientEvents {
            channels[position].queued.append(QueuedClientEvent(name: event, data: data))
        }
        return []
    }

    /// Sends `pusher:subscribe` for a public channel, or asks for an authorization with this socket id.
    mutating func startSubscription(_ position: Int, socketID: String) -> [PusherClientAction] {
        let name = channels[position].name
        if channels[position].kind.needsAuthorization {
            channels[position].status = .authorizing
            return [.authorize(PusherAuthorizationRequest(channelName: name, socketID: socketID))]
        }
        channels[position].status = .subscribing
        return [.send(PusherWire.subscribe(channel: name, authorization: nil))]
    }

    mutating func authorized(_ request: PusherAuthorizationRequest,
                                     _ result: Result<PusherChannelAuthorization, PusherAuthorizationError>) -> [PusherClientAction]
    {
        if request.refreshesKey { return keyRefreshed(request, result) }
        // An answer for an earlier connection's socket id is stale: the new one was asked for already.
        guard case .connected(let socketID) = state, socketID == request.socketID,
              let position = index(request.channelName), channels[position].status == .authorizing else { return [] }
        switch result {
        case .success(let authorization):
            if PusherChannelType.isEncrypted(request.channelName) {
                guard let secret = authorization.sharedSecret else {
                    channels[position].status = .failed
                    return [.emit(.subscriptionFailed(channel: request.channelName, error: .missingSharedSecret(channel: request.channelName)))]
                }
                channels[position].sharedSecret = secret
            }
            channels[position].status = .subscribing
            channels[position].myUserID = authorization.channelData
                .flatMap { try? JSONValue.parse($0) }?["user_id"].flatMap(PusherWire.identifier)
            return [.send(PusherWire.subscribe(channel: request.channelName, authorization: authorization))]
        case .failure(let error):
            channels[position].status = .failed
            return [.emit(.subscriptionFailed(channel: request.channelName, error: error))]
        }
    }

    mutating func subscriptionSucceeded(_ message: PusherEventMessage) -> [PusherClientAction] {
        guard case .connected = state, let name = message.channel, let position = index(name) else { return [] }
        channels[position].status = .subscribed
        if channels[position].kind == .presence { channels[position].setMembers(fromSubscriptionData: message.data) }
        var actions: [PusherClientAction] = [.emit(.subscribed(channel: name))]
        for event in channels[position].queued {
            actions.append(.send(PusherWire.clientEvent(name: event.name, data: event.data, channel: name)))
        }
        channels[position].queued = []
        return actions
    }
}
