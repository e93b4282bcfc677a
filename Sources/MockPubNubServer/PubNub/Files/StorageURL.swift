// SPDX-License-Identifier: MIT
import HarnessPrimitives
internal import PubNubCrypto

/// URLs of the mock's file storage, on the listener a request came in on: `http` or `https` by the
/// connection, and the host the client addressed (its `Host` header), so a client behind TLS, an
/// IPv6 literal or a port mapping reaches the storage the way it reached the service.
enum StorageURL {
    /// `scheme://host[:port]` for `request` on `context`.
    static func base(request: HTTPRequest, context: RequestContext) -> String {
        let scheme = context.isTLS ? "https" : "http"
        if let host = request.headers["Host"], isPlausibleAuthority(host) { return scheme + "://" + host }
        return scheme + "://127.0.0.1:" + String(context.localPort)
    }

    /// The upload path of a channel's files.
    static func uploadPath(subscribeKey: String, channel: String) -> String {
        FileRoutes.storagePrefix + PercentDecoding.encode(subscribeKey) + "/" + PercentDecoding.encode(channel)
    }

    /// The download path of one file.
    static func downloadPath(subscribeKey: String, channel: String, id: String, name: String) -> String {
        uploadPath(subscribeKey: subscribeKey, channel: channel) + "/" + PercentDecoding.encode(id) + "/" + PercentDecoding.encode(name)
    }

    /// A `Host` value made of authority characters only (no spaces, slashes or `@`), at most 255 bytes.
    static func isPlausibleAuthority(_ host: String) -> Bool {
        !host.isEmpty && host.utf8.count <= 255 && host.utf8.allSatisfy { byte in
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
            case UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "_"): true
            default: false
            }
        }
    }

    /// A request id for storage error documents (16 upper-case hex digits, like the storage's).
    static func requestID() -> String {
        var generator = SystemRandomNumberGenerator()
        return ByteEncoding.hex((0..<8).map { _ in UInt8.random(in: 0...255, using: &generator) }).uppercased()
    }
}

/// Rules of file messages and the list's page tokens.
enum FileMessages {
    /// The refusal text of an invalid `custom_message_type` (UNVERIFIED: spec §9 item 5, body not recorded).
    static let invalidCustomMessageType = "Invalid custom message type"

    /// `custom_message_type` rules (spec §6.2): 3-50 characters of `[A-Za-z0-9_-]`, not starting
    /// with `-` or `_`, and not with the reserved `pn-` / `pn_` prefixes.
    static func isValidCustomMessageType(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard (3...50).contains(bytes.count), bytes.allSatisfy({ byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }) else { return false }
        guard bytes[0] != UInt8(ascii: "-"), bytes[0] != UInt8(ascii: "_") else { return false }
        let prefix = String(decoding: bytes.prefix(3), as: UTF8.self).lowercased()
        return prefix != "pn-" && prefix != "pn_"
    }

    /// An opaque page token for the list (base64url of `files:<offset>`; UNVERIFIED: the live token is
    /// longer and opaque, clients only echo it).
    static func pageToken(offset: Int) -> String {
        ByteEncoding.base64URL(Array(("files:" + String(offset)).utf8))
    }

    /// The offset a token from `pageToken` names, or `nil` for anything else.
    static func offset(fromPageToken token: String) -> Int? {
        var text = token.replacingDashes()
        while text.utf8.count % 4 != 0 { text += "=" }
        guard let bytes = try? ByteEncoding.bytes(fromBase64: text), let decoded = String(validating: bytes, as: UTF8.self),
            decoded.hasPrefix("files:"), let offset = Int(decoded.dropFirst(6)), offset >= 0
        else { return nil }
        return offset
    }
}

extension String {
    /// base64url → base64 alphabet.
    fileprivate func replacingDashes() -> String {
        String(String.UnicodeScalarView(unicodeScalars.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 }))
    }
}
