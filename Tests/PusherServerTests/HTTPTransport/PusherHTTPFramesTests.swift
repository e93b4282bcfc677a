// SPDX-License-Identifier: MIT
import HarnessTesting
import MockPusher
import PusherServer
import Testing

/// The HTTP fallback transports' framing and paths, byte for byte as the client parses them.
@Suite("Pusher HTTP transports: frames and paths", .timeLimit(.minutes(TestTime.limitMinutes(1))))
struct PusherHTTPFramesTests {
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test func framesAreOneLineEach() {
        #expect(Self.text(PusherHTTPFrames.open) == "o\n")
        #expect(Self.text(PusherHTTPFrames.heartbeat) == "h\n")
        #expect(Self.text(PusherHTTPFrames.close(code: 4001, reason: "No \"app\"")) == #"c[4001,"No \"app\""]"# + "\n")
        // Each message is a string element: its quotes escaped, one array per line.
        #expect(Self.text(PusherHTTPFrames.array([#"{"event":"e","data":"{\"a\":1}"}"#, "x"]))
            == #"a["{\"event\":\"e\",\"data\":\"{\\\"a\\\":1}\"}","x"]"# + "\n")
    }

    @Test func preludeIs2048HeartbeatBytesAndANewline() {
        #expect(PusherHTTPFrames.streamingPrelude.count == 2049)
        #expect(PusherHTTPFrames.streamingPrelude.dropLast().allSatisfy { $0 == UInt8(ascii: "h") })
        #expect(PusherHTTPFrames.streamingPrelude.last == 0x0A)
    }

    @Test func sentBodiesAreArraysOfStrings() {
        #expect(PusherHTTPFrames.sentMessages(Array(#"["{\"event\":\"pusher:ping\",\"data\":{}}"]"#.utf8)) == [#"{"event":"pusher:ping","data":{}}"#])
        #expect(PusherHTTPFrames.sentMessages(Array("[]".utf8)) == [])
        #expect(PusherHTTPFrames.sentMessages(Array("[1]".utf8)) == nil)
        #expect(PusherHTTPFrames.sentMessages(Array(#"{"a":"b"}"#.utf8)) == nil)
        #expect(PusherHTTPFrames.sentMessages(Array("[\"x\"".utf8)) == nil)
        #expect(PusherHTTPFrames.sentMessages([0xFF, 0xFE]) == nil)
    }

    @Test func pathsNameTheKeySessionAndKind() throws {
        #expect(try PusherHTTPPath.parse("/pusher/app/key1/123/ab3d9x0q/xhr_streaming").get()
            == PusherHTTPPath(appKey: "key1", session: "123/ab3d9x0q", kind: .streaming))
        #expect(try PusherHTTPPath.parse("/pusher/app/key1/7/s/xhr").get().kind == .polling)
        #expect(try PusherHTTPPath.parse("/pusher/app/key1/7/s/xhr_send").get().kind == .send)
        #expect(PusherHTTPPath.parse("/pusher/app/key1/7/s/eventsource") == .failure(.unknownKind("eventsource")))
        for bad in ["/pusher/app/key1/7/xhr", "/pusher/app/key1//s/xhr", "/pusher/app/key1/7/s/xhr/more", "/pusher/app/k/../s/xhr", "/app/k/1/s/xhr"] {
            #expect(PusherHTTPPath.parse(bad) == .failure(.shape), "\(bad)")
        }
    }
}
