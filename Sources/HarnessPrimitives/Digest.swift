// SPDX-License-Identifier: MIT
internal import COpenSSL

/// One-shot message digests on libcrypto: the one place in the package that hashes. A digest that
/// libcrypto cannot compute (allocation failure, an algorithm disabled by policy) comes back empty.
public enum Digest {
    /// SHA-1 (20 bytes), as the WebSocket handshake's `Sec-WebSocket-Accept` needs it.
    public static func sha1(_ bytes: some Collection<UInt8>) -> [UInt8] { digest(bytes, EVP_sha1()) }

    /// SHA-256 (32 bytes).
    public static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8] { digest(bytes, EVP_sha256()) }

    /// MD5 (16 bytes), as Pusher's `body_md5` needs it (not for security).
    public static func md5(_ bytes: some Collection<UInt8>) -> [UInt8] { digest(bytes, EVP_md5()) }

    private static func digest(_ bytes: some Collection<UInt8>, _ type: OpaquePointer?) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let input = Array(bytes)
        let status = input.withUnsafeBufferPointer { source in
            EVP_Digest(source.baseAddress, source.count, &output, &length, type, nil)
        }
        // EVP_Digest fails only when libcrypto cannot allocate or the digest is unavailable (e.g. MD5 in FIPS mode).
        return status == 1 ? Array(output.prefix(Int(length))) : []
    }
}

/// Keyed message authentication on libcrypto: the one HMAC call site in the package (empty when
/// libcrypto fails).
public enum HMAC {
    /// HMAC-SHA256 of `data` under `key` (32 bytes).
    public static func sha256(key: some Collection<UInt8>, data: some Collection<UInt8>) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let keyBytes = Array(key)
        let dataBytes = Array(data)
        let result = keyBytes.withUnsafeBufferPointer { keyBuffer in
            dataBytes.withUnsafeBufferPointer { dataBuffer in
                COpenSSL.HMAC(
                    EVP_sha256(), keyBuffer.baseAddress, Int32(keyBuffer.count), dataBuffer.baseAddress, dataBuffer.count,
                    &output, &length)
            }
        }
        return result == nil ? [] : Array(output.prefix(Int(length)))
    }

    /// HMAC-SHA256 of the UTF-8 of `message` under the UTF-8 of `key`.
    public static func sha256(key: String, message: String) -> [UInt8] {
        sha256(key: Array(key.utf8), data: Array(message.utf8))
    }
}

/// Whether `lhs` and `rhs` hold the same bytes, in time independent of where they differ (for
/// signatures and MACs); a length mismatch returns at once (lengths are not secret).
public func constantTimeEqual(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
    let a = Array(lhs)
    let b = Array(rhs)
    guard a.count == b.count else { return false }
    var difference: UInt8 = 0
    for index in a.indices { difference |= a[index] ^ b[index] }
    return difference == 0
}

/// ``constantTimeEqual(_:_:)-(Collection<UInt8>,_)`` of the UTF-8 of two strings.
public func constantTimeEqual(_ lhs: String, _ rhs: String) -> Bool { constantTimeEqual(Array(lhs.utf8), Array(rhs.utf8)) }
