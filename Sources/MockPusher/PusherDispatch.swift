// SPDX-License-Identifier: MIT

extension PusherState {
    /// One text message from an established connection.
    mutating func receive(_ text: String, from connection: PusherConnectionID, now: PusherInstant, into actions: inout [PusherAction]) {
        guard connections[connection] != nil else { return }
        noteActivity(connection, now: now)
        let message: PusherClientMessage
        do {
            message = try PusherClientMessage.decode(text)
        } catch {
            // UNVERIFIED: the service's answer to a message that is not a JSON object with an event name.
            actions.append(.send(connection, PusherFrames.error(code: nil, message: "Invalid message: expected a JSON object with an event name")))
            return
        }
        switch message.event {
        case "pusher:ping":
            // Any `data` (object, `""`, none) gets the same answer (spec §3.1).
            actions.append(.send(connection, PusherFrames.pong))
        case "pusher:pong":
            break
        case "pusher:subscribe":
            subscribe(message, from: connection, now: now, into: &actions)
        case "pusher:unsubscribe":
            unsubscribe(message, from: connection, into: &actions)
        case "pusher:signin":
            signin(message, from: connection, into: &actions)
        case let name where name.hasPrefix("client-"):
            clientEvent(message, from: connection, now: now, into: &actions)
        default:
            // UNVERIFIED: other events (unknown `pusher:` ones, names without `client-`) are ignored.
            break
        }
    }

    /// A binary message. UNVERIFIED (spec §2.2): "Binary WebSocket frames are not supported"; the
    /// mock closes 1003 (unsupported data).
    mutating func receiveBinary(from connection: PusherConnectionID, now: PusherInstant, into actions: inout [PusherAction]) {
        guard connections[connection] != nil else { return }
        close(connection, code: 1003, reason: "Binary messages are not supported", into: &actions)
    }
}
