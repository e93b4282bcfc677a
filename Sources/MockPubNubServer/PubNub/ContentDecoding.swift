// SPDX-License-Identifier: MIT
internal import CZlib

/// Request bodies sent with `Content-Encoding: gzip` (ObjC compressed publish) or zlib-wrapped
/// deflate (Python's `zlib.compress` under the same header), inflated with zlib.
package enum ContentDecoding {
    package enum Failure: Error, Equatable {
        /// Not a complete gzip or zlib stream.
        case corrupt
        /// Inflates to more than the limit.
        case tooLarge
    }

    /// The body of `request` with its content coding removed; bodies without a coding, or with
    /// `identity`, are returned as they are. Unknown codings are passed through unchanged.
    static func body(of request: HTTPRequest, limit: Int) -> Result<[UInt8], Failure> {
        guard let coding = request.headers["Content-Encoding"]?.lowercased().trimmingSpaces,
            coding == "gzip" || coding == "x-gzip" || coding == "deflate"
        else { return .success(request.body) }
        return inflate(request.body, limit: limit)
    }

    /// Inflates one gzip or zlib stream (framing detected from its header), at most `limit` bytes out.
    package static func inflate(_ input: [UInt8], limit: Int) -> Result<[UInt8], Failure> {
        guard !input.isEmpty else { return .failure(.corrupt) }
        var stream = z_stream()
        guard czlib_inflate_init_auto(&stream) == Z_OK else { return .failure(.corrupt) }
        defer { inflateEnd(&stream) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var input = input
        return input.withUnsafeMutableBufferPointer { source -> Result<[UInt8], Failure> in
            stream.next_in = source.baseAddress
            stream.avail_in = UInt32(source.count)
            // Each round either produces output or ends the stream; bounded by the output limit.
            for _ in 0...(limit / chunk.count + 2) {
                let status = chunk.withUnsafeMutableBufferPointer { out -> Int32 in
                    stream.next_out = out.baseAddress
                    stream.avail_out = UInt32(out.count)
                    return CZlib.inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                output.append(contentsOf: chunk[0..<produced])
                if output.count > limit { return .failure(.tooLarge) }
                switch status {
                case Z_STREAM_END:
                    return stream.avail_in == 0 ? .success(output) : .failure(.corrupt)
                case Z_OK:
                    continue
                default:
                    // Z_BUF_ERROR with no input left is a truncated stream; the rest are corrupt data.
                    return .failure(.corrupt)
                }
            }
            return .failure(.tooLarge)
        }
    }
}

private extension String {
    var trimmingSpaces: String {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return String(text)
    }
}
