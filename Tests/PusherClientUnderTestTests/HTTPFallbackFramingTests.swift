// SPDX-License-Identifier: MIT
import Testing
@testable import PusherClientUnderTest

/// The client's reading of the HTTP fallback transports: answers framed by length or in chunks,
/// and their lines as frames (pure).
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(1)))) struct HTTPFallbackFramingTests {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func framesOfEveryKind() throws {
        var parser = PusherHTTPFrameParser()
        let body = String(repeating: "h", count: 2048) + "\no\na[\"{\\\"event\\\":\\\"e\\\"}\",\"x\"]\nh\nc[4001,\"no app\"]\n"
        // Fed in two pieces cut inside a line: the line waits for its newline.
        let cut = body.utf8.count / 2 + 1100
        let frames = try parser.feed(Array(body.utf8.prefix(cut))) + parser.feed(Array(body.utf8.dropFirst(cut)))
        #expect(frames == [.heartbeat, .open, .messages([#"{"event":"e"}"#, "x"]), .heartbeat, .close(code: 4001, reason: "no app")])
        #expect(try PusherHTTPFrameParser.frame("") == nil)
        #expect(try PusherHTTPFrameParser.frame("z whatever") == nil)
        #expect(throws: PusherHTTPFrameParser.Malformed.self) { try PusherHTTPFrameParser.frame("a[broken") }
    }

    @Test func chunkedAnswersAcrossReads() throws {
        var reader = PusherHTTPResponseReader()
        let wire = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\no\n\r\n6;ext=1\r\na[\"x\"]\r\n0\r\n\r\n"
        var body: [UInt8] = []
        for byte in Self.bytes(wire) { body += try reader.feed([byte]) }
        #expect(reader.head?.status == 200)
        #expect(body == Self.bytes("o\na[\"x\"]"))
        #expect(reader.complete)
    }

    @Test func lengthFramedAnswersComplete() throws {
        var reader = PusherHTTPResponseReader()
        #expect(try reader.feed(Self.bytes("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\no")) == Self.bytes("o"))
        #expect(!reader.complete)
        #expect(try reader.feed(Self.bytes("\n")) == Self.bytes("\n"))
        #expect(reader.complete)
        var refused = PusherHTTPResponseReader()
        _ = try refused.feed(Self.bytes("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n"))
        #expect(refused.head?.status == 503)
        #expect(refused.complete)
    }

    @Test func badChunkSizesAreErrors() {
        var reader = PusherHTTPResponseReader()
        #expect(throws: PusherHTTPResponseReader.Malformed.self) {
            _ = try reader.feed(Self.bytes("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"))
        }
    }
}
