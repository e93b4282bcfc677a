// SPDX-License-Identifier: MIT
internal import COpenSSL
internal import PubNubCrypto

/// The HMAC-SHA256 signatures of Pusher (spec §4.2, §6.2, §7), for the core and for anyone who signs
/// like an app server (tests, the Swift client's auth endpoint). All digests are lowercase hex.
public enum PusherSignatures {
    /// `hex(HMAC-SHA256(secret, message))`.
    public static func hmacSHA256Hex(secret: String, message: String) -> String {
        hex(hmacSHA256(key: Array(secret.utf8), data: Array(message.utf8)))
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

    /// `hex(MD5(bytes))`, the HTTP API's `body_md5`.
    public static func md5Hex(_ bytes: some Collection<UInt8>) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let input = Array(bytes)
        input.withUnsafeBufferPointer { buffer in
            _ = EVP_Digest(buffer.baseAddress, buffer.count, &digest, &length, EVP_md5(), nil)
        }
        return hex(digest.prefix(Int(length)))
    }

    /// Compares two signatures in time independent of where they differ.
    public static func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool {
        let a = Array(lhs.utf8)
        let b = Array(rhs.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }

    static func hmacSHA256(key: [UInt8], data: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        key.withUnsafeBufferPointer { keyBuffer in
            data.withUnsafeBufferPointer { dataBuffer in
                _ = HMAC(EVP_sha256(), keyBuffer.baseAddress, Int32(keyBuffer.count), dataBuffer.baseAddress, dataBuffer.count, &digest, &length)
            }
        }
        return Array(digest.prefix(Int(length)))
    }

    static func hex(_ bytes: some Sequence<UInt8>) -> String { ByteEncoding.hex(bytes) }
}
