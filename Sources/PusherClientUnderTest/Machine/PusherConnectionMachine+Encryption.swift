// SPDX-License-Identifier: MIT
import HarnessJSON
import PusherCrypto

/// Events on `private-encrypted-` channels (spec §4.3), as pusher-js's `encrypted_channel.ts` treats
/// them: the data `{"nonce","ciphertext"}` is opened with the channel's shared secret; when it does
/// not open, the channel's authorization is asked for once more (a new key), the event retried with
/// it and dropped if it still does not open. Events that arrive while that request is out wait for
/// the same answer (one request per burst, not one per event). A payload of the wrong shape is
/// dropped at once. Dropped events are reported as ``PusherClientEvent/decryptionFailed(channel:event:reason:)``.
extension PusherConnectionMachine {
    /// A channel event (not `pusher:` or `pusher_internal:`) on an encrypted channel.
    func isEncryptedChannelEvent(_ message: PusherEventMessage) -> Bool {
        guard let channel = message.channel, PusherChannelType.isEncrypted(channel) else { return false }
        return !message.name.hasPrefix("pusher:") && !message.name.hasPrefix("pusher_internal:")
    }

    mutating func encryptedEvent(_ message: PusherEventMessage) -> [PusherClientAction] {
        guard let name = message.channel, let position = index(name) else { return [] }
        guard let secret = channels[position].sharedSecret else {
            return [.emit(.decryptionFailed(channel: name, event: message.name, reason: "no shared secret yet"))]
        }
        switch Self.open(message, with: secret) {
        case .success(let plain):
            return [.emit(.event(plain))]
        case .failure(.malformed(let why)):
            return [.emit(.decryptionFailed(channel: name, event: message.name, reason: why))]
        case .failure(.wrongKeyOrTampered):
            guard case .connected(let socketID) = state else { return [] }
            let asked = !channels[position].awaitingKey.isEmpty
            channels[position].awaitingKey.append(message)
            return asked ? [] : [.authorize(PusherAuthorizationRequest(channelName: name, socketID: socketID, refreshesKey: true))]
        }
    }

    /// The answer to a key refresh: the waiting events are retried with the new key, or dropped.
    mutating func keyRefreshed(_ request: PusherAuthorizationRequest,
                               _ result: Result<PusherChannelAuthorization, PusherAuthorizationError>) -> [PusherClientAction]
    {
        guard case .connected(let socketID) = state, socketID == request.socketID, let position = index(request.channelName) else { return [] }
        let waiting = channels[position].awaitingKey
        channels[position].awaitingKey = []
        let name = request.channelName
        guard case .success(let authorization) = result, let secret = authorization.sharedSecret else {
            let why: String
            switch result {
            case .failure(let error): why = "could not fetch a new shared secret: \(error)"
            case .success: why = "could not fetch a new shared secret: \(PusherAuthorizationError.missingSharedSecret(channel: name))"
            }
            return waiting.map { .emit(.decryptionFailed(channel: name, event: $0.name, reason: why)) }
        }
        channels[position].sharedSecret = secret
        return waiting.map { message in
            switch Self.open(message, with: secret) {
            case .success(let plain): .emit(.event(plain))
            case .failure(let failure): .emit(.decryptionFailed(channel: name, event: message.name, reason: "with a new shared secret: \(failure)"))
            }
        }
    }

    /// The message with its data decrypted (read as libPusher reads event data).
    static func open(_ message: PusherEventMessage, with secret: [UInt8]) -> Result<PusherEventMessage, PusherEncryptedPayload.Failure> {
        guard let data = message.rawData.map(JSONValue.string) ?? message.data else { return .failure(.malformed("no data")) }
        switch PusherEncryptedPayload.decrypt(data, sharedSecret: secret) {
        case .failure(let failure):
            return .failure(failure)
        case .success(let bytes):
            let text = String(decoding: bytes, as: UTF8.self)
            var plain = message
            plain.data = PusherWire.decodeData(text)
            plain.rawData = text
            return .success(plain)
        }
    }
}
