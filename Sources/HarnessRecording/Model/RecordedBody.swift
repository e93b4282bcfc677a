// SPDX-License-Identifier: MIT
import HarnessPrimitives
import MockPubNubServer

/// How bodies are kept in a recording: UTF-8 text as text, anything else in base64, without the
/// content coding they travelled with (a gzip answer is stored inflated).
enum RecordedBody {
    /// The largest body inflated (64 MiB, the HTTP client's own limit).
    static let inflateLimit = 64 << 20

    /// The bytes of a `body` / `body_base64` pair (empty when neither is there or the base64 is broken).
    static func bytes(text: String?, base64: String?) -> [UInt8] {
        if let text { return Array(text.utf8) }
        if let base64, let bytes = try? ByteEncoding.bytes(fromBase64: base64) { return bytes }
        return []
    }

    /// The `body` / `body_base64` pair of `bytes`: text when it is UTF-8, base64 otherwise, neither when empty.
    static func fields(_ bytes: [UInt8]) -> (text: String?, base64: String?) {
        guard !bytes.isEmpty else { return (nil, nil) }
        if let text = String(validating: bytes, as: UTF8.self) { return (text, nil) }
        return (nil, ByteEncoding.base64(bytes))
    }

    /// `body` without a gzip or deflate coding named by `contentEncoding` (as it is when the coding
    /// is another one, or the bytes do not inflate).
    static func decoded(_ body: [UInt8], contentEncoding: String?) -> [UInt8] {
        guard let coding = contentEncoding?.lowercased().trimmingHTTPWhitespace(),
            coding == "gzip" || coding == "x-gzip" || coding == "deflate",
            case .success(let plain) = ContentDecoding.inflate(body, limit: inflateLimit)
        else { return body }
        return plain
    }
}
