// SPDX-License-Identifier: MIT

extension Subscriber {
    /// Delivers one response's envelopes: the message-count status first (when the threshold is
    /// reached), then each envelope not delivered before, decrypted when a cipher is set.
    func deliver(_ envelopes: [SubscribeEnvelope], config: PubNubConfiguration, client: PubNubClient) {
        let threshold = config.requestMessageCountThreshold
        if threshold > 0, envelopes.count >= threshold {
            report(.requestMessageCountExceeded, statusCode: 200,
                   errorData: PNErrorData(information: "\(envelopes.count) messages in one response (threshold \(threshold))"))
        }
        for envelope in envelopes {
            guard delivered.insert(timetoken: envelope.timetoken, channel: envelope.channel) else { continue }
            switch envelope.type {
            case 99:
                if let event = SubscribeResponseParser.presenceEvent(from: envelope) { client.emit(.presence(event)) }
            case 2:
                if let event = AppContextEndpoints.event(from: envelope) { client.emit(.appContext(event)) }
            case 3:
                if let event = MessageActionEndpoints.event(from: envelope) { client.emit(.messageAction(event)) }
            case 1:
                client.emit(.signal(messageEvent(envelope, message: envelope.payload, failed: false)))
            case 4:
                deliverFile(envelope, config: config, client: client)
            default:
                let (message, failed) = MessageCrypto.decrypt(envelope.payload, cipher: config.cipher)
                let event = messageEvent(envelope, message: message, failed: failed)
                if failed {
                    report(.decryptionError, statusCode: 200,
                           errorData: PNErrorData(information: "message on \(envelope.channel) at \(envelope.timetoken) could not be decrypted",
                                                  channels: [envelope.channel], body: envelope.payload))
                }
                client.emit(.message(event))
            }
        }
    }

    private func messageEvent(_ envelope: SubscribeEnvelope, message: JSONValue, failed: Bool) -> PNMessageEvent {
        PNMessageEvent(channel: envelope.channel, subscription: envelope.subscription, timetoken: envelope.timetoken,
                       publisher: envelope.publisher, message: message, userMetadata: envelope.userMetadata,
                       decryptionFailed: failed, customMessageType: envelope.customMessageType)
    }
}

/// Encryption glue: payloads are encrypted as JSON text and carried as a JSON string of base64.
enum MessageCrypto {
    /// Decrypts a payload; returns it unchanged with `failed = true` when it cannot be decrypted.
    /// Decrypted text that is not JSON is delivered as a string (crypto spec §1 step 4: try
    /// JSON-parse, fall back to the raw string; e.g. the `yay!` known answer).
    static func decrypt(_ payload: JSONValue, cipher: (any PubNubMessageCipher)?) -> (JSONValue, failed: Bool) {
        guard let cipher else { return (payload, false) }
        guard let base64 = payload.stringValue, let text = try? cipher.decrypt(base64: base64) else { return (payload, true) }
        return ((try? JSONValue.parse(text)) ?? .string(text), false)
    }

    /// The JSON text to send for a message: encrypted to `"<base64>"` when a cipher is set.
    static func encryptedText(_ message: JSONValue, cipher: (any PubNubMessageCipher)?) throws -> String {
        guard let cipher else { return message.jsonText }
        return JSONValue.string(try cipher.encrypt(jsonText: message.jsonText)).jsonText
    }
}
