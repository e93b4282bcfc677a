// SPDX-License-Identifier: MIT
internal import HarnessPrimitives

/// The HMAC-SHA256 signatures of Pusher (spec §4.2, §6.2, §7), for the core and for anyone who signs
/// like an app server (tests, the Swift client's auth endpoint). All digests are lowercase hex.
public enum PusherSignatures {
    /// `hex(HMAC-SHA256(secret, message))`.
    public static func hmacSHA256Hex(secret: String, message: String) -> String {
        ByteEncoding.hex(HMAC.sha256(key: secret, message: message))
    }

    /// The string signed for a channel subscription: `socket_id:channel[:channel_data]`.
    public static func channelAuthInput(socketID: String, channel: String, channelData: String? = nil) -> String {
        channelData.map { "\(socketID):\(channel):\($0)" } ?? "\(socketID):\(channel)"
    }

    /// The `auth` value an app server returns for a channel: `key:hex(HMAC(secret, socket_id:channel[:channel_data]))`.
    public static func channelAuth(app: PusherApp, socketID: String, channel: String, channelData: String? = nil) -> String {
        app.key + ":" + hmacSHA256Hex(secret: app.secret, message: channelAuthInput(socketID: socketID, channel: channel, channelData: channelData))
    }

    /// The string signed at signin: `socket_id::user::user_data`.
    public static func userAuthInput(socketID: String, userData: String) -> String { "\(socketID)::user::\(userData)" }

    /// The `auth` value an app server returns for `pusher:signin`.
    public static func userAuth(app: PusherApp, socketID: String, userData: String) -> String {
        app.key + ":" + hmacSHA256Hex(secret: app.secret, message: userAuthInput(socketID: socketID, userData: userData))
    }

    /// The key of one encrypted channel: `SHA256(channel_name ‖ master_key)` (spec §4.3); the auth
    /// endpoint answers its base64 as `shared_secret`.
    public static func sharedSecret(channel: String, masterKey: [UInt8]) -> [UInt8] {
        Digest.sha256(Array(channel.utf8) + masterKey)
    }

    /// `base64(sharedSecret(channel:masterKey:))`, the auth answer's `shared_secret`.
    public static func sharedSecretBase64(channel: String, masterKey: [UInt8]) -> String {
        ByteEncoding.base64(sharedSecret(channel: channel, masterKey: masterKey))
    }

    /// `hex(MD5(bytes))`, the HTTP API's `body_md5`.
    public static func md5Hex(_ bytes: some Collection<UInt8>) -> String { ByteEncoding.hex(Digest.md5(bytes)) }

    /// Compares two signatures in time independent of where they differ.
    public static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool { HarnessPrimitives.constantTimeEqual(lhs, rhs) }
}
