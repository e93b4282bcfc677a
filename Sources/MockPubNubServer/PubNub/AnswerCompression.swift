// SPDX-License-Identifier: MIT
internal import CZlib

/// When the mock compresses an answer, as the live service does: only for a client that offered
/// gzip (`Accept-Encoding`), only on the endpoints the live service was seen compressing, and
/// only bodies of at least `thresholdBytes` (the live threshold is UNVERIFIED; see
/// docs/endpoints.md "Compression").
public struct CompressionSettings: Sendable, Hashable {
    /// Whether answers are compressed at all (`serve --no-compression` turns it off).
    public var enabled: Bool
    /// The smallest body that is compressed, in bytes (UNVERIFIED default: 1024).
    public var thresholdBytes: Int

    /// The default threshold (UNVERIFIED: every recording is consistent with it).
    public static let defaultThresholdBytes = 1024

    public init(enabled: Bool = true, thresholdBytes: Int = CompressionSettings.defaultThresholdBytes) {
        self.enabled = enabled
        self.thresholdBytes = thresholdBytes
    }
}

/// Gzip for answers (pure apart from zlib): deciding, compressing, and the gzip faults' bytes.
package enum AnswerCompression {
    /// Whether the live service answers `endpoint` compressed (recorded: Access Manager v3,
    /// history v2, subscribe, fetch/delete v3, fetch with actions, generate-upload-url). A switch,
    /// not a set: hashing the endpoint's raw value would cost every request a string hash.
    static func compresses(_ endpoint: PubNubEndpoint) -> Bool {
        switch endpoint {
        case .grantToken, .revokeToken, .history, .subscribe, .fetchMessages, .deleteMessages,
            .fetchMessagesWithActions, .generateUploadURL:
            true
        default: false
        }
    }

    /// Whether `request` offered gzip (`Accept-Encoding` names `gzip` or `*` without `q=0`).
    static func offersGzip(_ request: HTTPRequest) -> Bool {
        for value in request.headers.values(for: "Accept-Encoding") {
            for item in value.split(separator: ",") {
                let parts = item.split(separator: ";").map { $0.trimmingHTTPWhitespace().lowercased() }
                guard let coding = parts.first, coding == "gzip" || coding == "x-gzip" || coding == "*" else { continue }
                let refused = parts.dropFirst().contains { parameter in
                    parameter.hasPrefix("q=") && Double(parameter.dropFirst(2)) == 0
                }
                if !refused { return true }
            }
        }
        return false
    }

    /// The answer with its body gzip-compressed when it is a well-framed answer of at least
    /// `threshold` bytes not encoded already; anything else unchanged (through `.delay`).
    static func compress(_ action: ResponseAction, threshold: Int) -> ResponseAction {
        switch action {
        case .delay(let delay, let inner): return .delay(delay, then: compress(inner, threshold: threshold))
        case .respond(let response) where response.body.count >= threshold && response.headers["Content-Encoding"] == nil:
            guard let compressed = gzipped(response) else { return action }
            return .respond(compressed)
        default: return action
        }
    }

    /// `response` with its body gzip-compressed, `Content-Encoding: gzip` and `Vary: Accept-Encoding`
    /// (nil when zlib fails, which it does only without memory).
    static func gzipped(_ response: HTTPResponse) -> HTTPResponse? {
        guard let body = gzip(response.body) else { return nil }
        var changed = response
        changed.body = body
        changed.headers.set("Content-Encoding", "gzip")
        changed.headers.set("Vary", "Accept-Encoding")
        return changed
    }

    /// `response` without a gzip coding the mock applied (inflated again), else as it is.
    static func identity(_ response: HTTPResponse) -> HTTPResponse {
        guard response.headers["Content-Encoding"] == "gzip",
            case .success(let body) = ContentDecoding.inflate(response.body, limit: 64 << 20)
        else { return response }
        var plain = response
        plain.body = body
        plain.headers.remove("Content-Encoding")
        plain.headers.remove("Vary")
        return plain
    }

    /// One gzip member holding `bytes` (zlib's default level), or nil when zlib fails.
    package static func gzip(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard czlib_deflate_init_gzip(&stream, Z_DEFAULT_COMPRESSION) == Z_OK else { return nil }
        defer { deflateEnd(&stream) }
        // The bound of one deflate call plus the gzip header and trailer.
        let capacity = Int(deflateBound(&stream, UInt(bytes.count))) + 32
        var output = [UInt8](repeating: 0, count: capacity)
        var input = bytes
        let status = input.withUnsafeMutableBufferPointer { source -> Int32 in
            output.withUnsafeMutableBufferPointer { out -> Int32 in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = out.baseAddress
                stream.avail_out = UInt32(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeLast(Int(stream.avail_out))
        return output
    }

    /// The offset of the first deflate byte in what `gzip(_:)` writes (a 10-byte header, no name).
    static let deflateOffset = 10
}
