// SPDX-License-Identifier: MIT
import HarnessTesting
import HarnessWebSocket
import MockPusher
import PusherServer
import Testing

/// Broken frames and payloads, byte for byte.
@Suite("Pusher faults: malformed", .serialized, .offPool, .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct PusherMalformedFaultTests {
    static let established = #"{"event":"pusher:connection_established","data":"{\"socket_id\":\"166477.91849561\",\"activity_timeout\":120}"}"#

    static func plan(_ form: String, target: String? = nil) -> String {
        let targetField = target.map { #","target":"\#($0)""# } ?? ""
        return #"{"rules":[{"fault":{"kind":"malformed","form":"\#(form)"\#(targetField)}}]}"#
    }

    @Test(arguments: [
        ("invalid-json", #"{"event":"pusher:connection_established","data":"{\"soc"#),
        ("object-data", #"{"event":"pusher:connection_established","data":{"socket_id":"166477.91849561","activity_timeout":120}}"#),
        ("reordered-keys", #"{"data":"{\"socket_id\":\"166477.91849561\",\"activity_timeout\":120}","event":"pusher:connection_established"}"#),
        ("missing-activity-timeout", #"{"event":"pusher:connection_established","data":"{\"socket_id\":\"166477.91849561\"}"}"#),
        ("bad-socket-id", #"{"event":"pusher:connection_established","data":"{\"socket_id\":\"not-a-socket-id\",\"activity_timeout\":120}"}"#),
    ])
    func brokenConnectionEstablishedPayload(form: String, expected: String) throws {
        try withPusherServer { server in
            try server.installPlan(Self.plan(form))
            let socket = try server.connect()
            #expect(try socket.nextText() == expected)
        }
    }

    @Test func onlyTheFirstTargetMessageIsBroken() throws {
        try withPusherServer { server in
            try server.installPlan(Self.plan("object-data", target: "pusher_internal:subscription_succeeded"))
            let (socket, _) = try server.established()
            #expect(try socket.subscribe("a") == #"{"event":"pusher_internal:subscription_succeeded","data":{},"channel":"a"}"#)
            #expect(try socket.subscribe("b") == #"{"event":"pusher_internal:subscription_succeeded","data":"{}","channel":"b"}"#)
        }
    }

    @Test func splitIntoThreeFrames() throws {
        try withPusherServer { server in
            try server.installPlan(Self.plan("split-frames"))
            let socket = try server.connect()
            let frames = try (0..<3).map { _ in try socket.nextFrame() }
            #expect(frames.map(\.opcode) == [.text, .continuation, .continuation])
            #expect(frames.map(\.fin) == [false, false, true])
            #expect(String(decoding: frames.flatMap(\.payload), as: UTF8.self) == Self.established)
        }
    }

    @Test func invalidUTF8InATextFrame() throws {
        try withPusherServer { server in
            try server.installPlan(Self.plan("bad-utf8"))
            let socket = try server.connect()
            let frame = try socket.nextFrame()
            #expect(frame.opcode == .text)
            expectSameElements(frame.payload, Array(Self.established.utf8) + [0xC3, 0x28])
        }
    }

    @Test func reservedBitSet() throws {
        try withPusherServer { server in
            try server.installPlan(Self.plan("reserved-bits"))
            // A raw handshake: the test client's frame decoder would refuse the frame.
            let client = try WebSocketTestClient(port: server.port)
            let request = WebSocketClientHandshake(
                host: "127.0.0.1", target: "/app/test-key?protocol=7", keyBytes: Array("the sample nonce".utf8))
            client.send(request.requestHead)
            let payload = Array(Self.established.utf8)
            var all: [UInt8] = []
            for _ in 0..<100 {
                guard case .success(let bytes) = client.readOnce() else { break }
                all += bytes
                if let end = Self.headEnd(all), all.count >= end + payload.count + 2 { break }
            }
            let received = Self.headEnd(all).map { Array(all[$0...]) } ?? []
            // FIN + RSV1 + text, unmasked, a 7-bit length.
            expectSameElements(received, [0xC1, UInt8(payload.count)] + payload)
        }
    }

    /// The index behind the blank line that ends an HTTP head.
    static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        return (0...(bytes.count - 4)).first { bytes[$0..<($0 + 4)].elementsEqual([13, 10, 13, 10]) }.map { $0 + 4 }
    }
}
