// SPDX-License-Identifier: MIT
import Foundation
import HarnessHTTP

/// Reads one HTTP/1.1 answer incrementally (pure): its head, then its body as it arrives, framed
/// by `Content-Length` or `Transfer-Encoding: chunked` (else up to the end of the connection).
struct PusherHTTPResponseReader {
    private var buffer: [UInt8] = []
    /// The head, once complete.
    private(set) var head: HTTPResponseHead?
    /// The whole body has arrived.
    private(set) var complete = false
    private var framing = Framing.untilClose

    private enum Framing {
        case length(remaining: Int)
        case chunked(ChunkState)
        case untilClose
    }

    private enum ChunkState {
        /// Reading the size line.
        case size
        /// Reading `remaining` data bytes of a chunk.
        case data(remaining: Int)
        /// The CRLF after a chunk's data.
        case dataEnd
        /// The trailer after the last chunk, up to the empty line.
        case trailer
    }

    struct Malformed: Error, Hashable { var reason: String }

    /// Feeds received bytes; the body bytes they complete (the head is kept in `head`).
    mutating func feed(_ bytes: [UInt8]) throws(Malformed) -> [UInt8] {
        buffer += bytes
        if head == nil {
            let parsed: (head: HTTPResponseHead, consumed: Int)?
            do { parsed = try HTTPResponseHead.parse(buffer) } catch { throw Malformed(reason: "malformed response head") }
            guard let parsed else { return [] }
            head = parsed.head
            buffer.removeFirst(parsed.consumed)
            if parsed.head.headers["Transfer-Encoding"]?.lowercased().contains("chunked") == true {
                framing = .chunked(.size)
            } else if let length = parsed.head.headers["Content-Length"].flatMap({ Int($0.trimmingCharacters(in: .whitespaces)) }) {
                framing = .length(remaining: length)
                complete = length == 0
            }
        }
        return try body()
    }

    private mutating func body() throws(Malformed) -> [UInt8] {
        var out: [UInt8] = []
        while !complete {
            switch framing {
            case .untilClose:
                out += buffer
                buffer = []
                return out
            case .length(let remaining):
                let take = min(remaining, buffer.count)
                out += buffer.prefix(take)
                buffer.removeFirst(take)
                framing = .length(remaining: remaining - take)
                complete = remaining - take == 0
                return out
            case .chunked(let state):
                switch state {
                case .size:
                    guard let line = takeLine() else { return out }
                    let digits = line.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
                    guard let size = Int(digits.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                        throw Malformed(reason: "bad chunk size \"\(line.prefix(20))\"")
                    }
                    framing = .chunked(size == 0 ? .trailer : .data(remaining: size))
                case .data(let remaining):
                    guard !buffer.isEmpty else { return out }
                    let take = min(remaining, buffer.count)
                    out += buffer.prefix(take)
                    buffer.removeFirst(take)
                    framing = .chunked(remaining == take ? .dataEnd : .data(remaining: remaining - take))
                case .dataEnd:
                    guard let line = takeLine() else { return out }
                    guard line.isEmpty else { throw Malformed(reason: "chunk data longer than its size") }
                    framing = .chunked(.size)
                case .trailer:
                    guard let line = takeLine() else { return out }
                    if line.isEmpty { complete = true }
                }
            }
        }
        return out
    }

    /// One CRLF-ended line taken from the buffer (without its CRLF); nil until it is complete.
    private mutating func takeLine() -> String? {
        guard let index = buffer.indices.dropLast().first(where: { buffer[$0] == 0x0D && buffer[$0 + 1] == 0x0A }) else { return nil }
        let line = String(decoding: buffer[..<index], as: UTF8.self)
        buffer.removeFirst(index + 2)
        return line
    }

    /// Bytes received beyond the answer (none are expected: one answer per request).
    var leftover: [UInt8] { complete ? buffer : [] }
}
