// SPDX-License-Identifier: MIT
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// `WebSocketBatch`: one encoded frame for many connections on both loops, in order per connection.
@Suite(.serialized, .offPool, .timeLimit(.minutes(TestTime.limitMinutes(5))))
struct WebSocketBatchSocketTests {
    @Test func aBatchDeliversEachConnectionItsFramesInOrderBeforeWhatFollowsTheFlush() throws {
        try withWebSocketServer { server, log in
            let clients = try (0..<5).map { _ in try WebSocketTestClient(port: server.address!.port) }
            for client in clients { _ = try client.handshake(target: "/ws") }
            #expect(eventually { log.allHandles.count == 5 })
            let handles = log.allHandles
            let shared = WebSocketHandle.encodedTextFrame("to everyone")
            var batch = WebSocketBatch()
            #expect(batch.isEmpty)
            for handle in handles { batch.send(encodedFrame: shared, on: handle) }
            batch.send(encodedFrame: WebSocketHandle.encodedTextFrame("second"), on: handles[0])
            batch.flush()
            #expect(batch.isEmpty)
            // After the flush: a close goes out behind the batch's frame.
            handles[1].close(code: WebSocketCloseCode(4001), reason: "after")
            for (index, client) in clients.enumerated() {
                #expect(try client.readFrame().get() == WebSocketFrame(opcode: .text, payload: Array("to everyone".utf8)))
                if index == 0 {
                    #expect(try client.readFrame().get() == WebSocketFrame(opcode: .text, payload: Array("second".utf8)))
                }
                if index == 1 {
                    #expect(try client.readFrame().get() == WebSocketFrame(opcode: .close, payload: [0x0F, 0xA1] + Array("after".utf8)))
                }
            }
            // The connections go on as before: an echo on the first.
            clients[0].send(text: "hello")
            #expect(try clients[0].readFrame().get() == WebSocketFrame(opcode: .text, payload: Array("hello".utf8)))
        }
    }
}
