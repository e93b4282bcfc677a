// SPDX-License-Identifier: MIT
import MockPusher
import PusherCrypto

/// What an app server's HTTP library does to a trigger's data before sending it (pusher-http-python
/// `pusher/crypto.py`, pusher-http-node): on a `private-encrypted-` channel the data becomes
/// `{"nonce":…,"ciphertext":…}` sealed with the channel's shared secret (spec §4.3). The harness's
/// server-side triggers go through it, in process and against `serve` alike.
public enum PusherTriggerEncryption {
    static let encryptedPrefix = "private-encrypted-"

    /// `data` as the library sends it to `channels`; the libraries refuse a trigger to several
    /// channels when one is encrypted (each channel has its own key), and one without a master key.
    public static func data(_ data: String, app: PusherApp, channels: [String]) throws(PusherSuiteError) -> String {
        guard channels.contains(where: { $0.hasPrefix(encryptedPrefix) }) else { return data }
        guard channels.count == 1 else {
            throw PusherSuiteError("a trigger to an encrypted channel must name that channel only (got \(channels.count) channels)")
        }
        guard let masterKey = app.options.encryptionMasterKey else {
            throw PusherSuiteError("app \(app.id) has no encryption master key for \(channels[0])")
        }
        let secret = PusherSignatures.sharedSecret(channel: channels[0], masterKey: masterKey)
        guard let payload = PusherEncryptedPayload.encrypt(data, sharedSecret: secret) else {
            throw PusherSuiteError("could not encrypt for \(channels[0])")
        }
        return payload
    }
}
