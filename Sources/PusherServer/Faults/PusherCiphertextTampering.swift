// SPDX-License-Identifier: MIT
import HarnessJSON
import HarnessPrimitives

/// The `tamper-ciphertext` fault's change: the last byte of the base64 `ciphertext` inside an
/// event's string `data` flipped (XOR 0x01), everything else as it was. The server never decrypts;
/// it only knows the payload's shape (spec §4.3).
enum PusherCiphertextTampering {
    /// The message re-encoded with the changed ciphertext; nil when its data is not an encrypted payload.
    static func tampered(_ message: PusherOutboundMessage) -> String? {
        guard var members = message.members, let inner = members["data"]?.stringValue,
              let payload = (try? JSONValue.parse(inner))?.objectValue, let cipherText = payload["ciphertext"]?.stringValue,
              var bytes = try? ByteEncoding.bytes(fromBase64: cipherText), !bytes.isEmpty
        else { return nil }
        bytes[bytes.count - 1] ^= 0x01
        let changed = payload.map { ($0.key, $0.key == "ciphertext" ? JSONValue.string(ByteEncoding.base64(bytes)) : $0.value) }
        members["data"] = .string(JSONValue.object(JSONObject(changed)).jsonText)
        return JSONValue.object(members).jsonText
    }
}
