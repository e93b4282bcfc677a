// SPDX-License-Identifier: MIT
import HarnessJSON

extension Subscriber {
    /// Delivers a file envelope (`e`=4): `d` is `{message?, file:{id,name}}`, or its ciphertext
    /// as a JSON string when the publisher had a cipher.
    func deliverFile(_ envelope: SubscribeEnvelope, config: PubNubConfiguration, client: PubNubClient) {
        var content = envelope.payload
        if content.stringValue != nil {
            let (decrypted, failed) = MessageCrypto.decrypt(content, cipher: config.cipher)
            if failed {
                report(.decryptionError, statusCode: 200,
                       errorData: PNErrorData(information: "file message on \(envelope.channel) at \(envelope.timetoken) could not be decrypted",
                                              channels: [envelope.channel], body: envelope.payload))
                return
            }
            content = decrypted
        }
        guard let id = content["file"]?["id"]?.stringValue, let name = content["file"]?["name"]?.stringValue else {
            report(.malformedResponse, statusCode: 200,
                   errorData: PNErrorData(information: "file message without file id and name", channels: [envelope.channel], body: content))
            return
        }
        client.emit(.file(PNFileEvent(
            channel: envelope.channel, subscription: envelope.subscription, timetoken: envelope.timetoken, publisher: envelope.publisher,
            fileID: id, fileName: name, fileURL: client.fileURL(channel: envelope.channel, fileID: id, fileName: name),
            message: content["message"], userMetadata: envelope.userMetadata, customMessageType: envelope.customMessageType)))
    }
}
