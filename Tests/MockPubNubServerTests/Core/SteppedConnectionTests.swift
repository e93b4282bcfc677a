// SPDX-License-Identifier: MIT
import CPosix
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Connection behaviour that is not about epoll, run over an in-memory stream with the loop
/// stepped by hand: order, partial writes, buffers, the upgrade hand-over, a peer's close.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct SteppedConnectionTests {
    private static func answer(_ text: String) -> ResponseAction {
        .respond(HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array(text.utf8)))
    }

    private static func wire(_ text: String, keepAlive: Bool = true) -> String {
        "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(text.utf8.count)\r\nConnection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n\(text)"
    }

    /// A watchdog entry its connection moved past (here by closing) counts as cancelled until it
    /// is popped, so that thousands of them (short connections, upgrades) are purged early.
    @Test func aWatchdogLeftBehindCountsAsCancelledUntilItIsPopped() throws {
        let harness = try SteppedConnection(handler: ClosureHandler { _, _, responder in responder.send(Self.answer("a")) },
                                            requestTimeoutNanos: 5_000_000_000, idleTimeoutNanos: 10_000_000_000)
        // From the accept: the request deadline, armed and live.
        #expect(harness.loop.timerCounts.pending == 1)
        #expect(harness.loop.timerCounts.cancelled == 0)
        harness.send("GET /a HTTP/1.1\r\n\r\n")
        #expect(harness.received() == Self.wire("a"))
        // Idle now: the deadline moved later, the armed entry stays (re-armed when it fires early).
        #expect(harness.loop.timerCounts.pending == 1)
        #expect(harness.loop.timerCounts.cancelled == 0)
        // Firing early re-arms once for the idle deadline: still one live entry.
        harness.step(advancingBy: 6_000_000_000)
        #expect(harness.loop.timerCounts.pending == 1)
        #expect(harness.loop.timerCounts.cancelled == 0)
        harness.close()
        #expect(harness.loop.timerCounts.pending == 1)
        #expect(harness.loop.timerCounts.cancelled == 1)
        harness.step(advancingBy: 30_000_000_000)
        #expect(harness.loop.timerCounts.pending == 0)
        #expect(harness.loop.timerCounts.cancelled == 0)
    }

    @Test func pipelinedRequestsAreAnsweredInOrderOneAtATime() throws {
        let parked = ParkedRequests()
        let harness = try SteppedConnection(handler: ClosureHandler { request, _, responder in parked.park(request, responder) })
        defer { harness.close() }
        harness.send("GET /a HTTP/1.1\r\n\r\nGET /b HTTP/1.1\r\n\r\nGET /c HTTP/1.1\r\n\r\n")
        // Only the first is handed out while it is unanswered.
        #expect(parked.count == 1)
        let (first, firstResponder) = try #require(parked.next())
        #expect(first.target == "/a")
        #expect(harness.received() == "")
        firstResponder.send(Self.answer("a"))
        harness.step()
        #expect(harness.received() == Self.wire("a"))
        let (second, secondResponder) = try #require(parked.next())
        #expect(second.target == "/b")
        secondResponder.send(Self.answer("b"))
        harness.step()
        let (third, thirdResponder) = try #require(parked.next())
        #expect(third.target == "/c")
        thirdResponder.send(Self.answer("c"))
        harness.step()
        #expect(harness.received() == Self.wire("b") + Self.wire("c"))
        #expect(parked.count == 0)
    }

    @Test func aPartialWriteResumesWhenWritableAndTheDrainedBufferIsReleased() throws {
        let body = String(repeating: "x", count: 300)
        let harness = try SteppedConnection(handler: ClosureHandler { _, _, responder in responder.send(Self.answer(body)) })
        defer { harness.close() }
        harness.stream.writeBudget = 100
        harness.send("GET /big HTTP/1.1\r\n\r\nGET /next HTTP/1.1\r\n\r\n")
        let channel = harness.connection.channel
        #expect(harness.client.inbound.count == 100)
        #expect(channel.outputPending)
        #expect(channel.holdsOutputStorage)
        #expect(channel.currentInterest & cposix_EPOLLOUT != 0)
        // Still blocked: nothing more goes out, and the next request waits for this answer.
        harness.writable()
        #expect(harness.client.inbound.count == 100)
        harness.stream.writeBudget = nil
        harness.writable()
        #expect(harness.received() == Self.wire(body) + Self.wire(body))
        #expect(!channel.outputPending)
        #expect(!channel.holdsOutputStorage)
        #expect(channel.currentInterest & cposix_EPOLLOUT == 0)
    }

    @Test func anAnsweredConnectionHoldsNoActionListAndTheLoopLendsItsOwn() throws {
        let parked = ParkedRequests()
        let harness = try SteppedConnection(handler: ClosureHandler { request, _, responder in
            if request.target == "/park" { parked.park(request, responder) } else { responder.send(Self.answer("now")) }
        })
        defer { harness.close() }
        harness.send("GET /now HTTP/1.1\r\n\r\nGET /now HTTP/1.1\r\n\r\nGET /park HTTP/1.1\r\n\r\n")
        // (A loop without a thread hands each answer over as a task: one step per request.)
        harness.step()
        harness.step()
        #expect(harness.received() == Self.wire("now") + Self.wire("now"))
        // Parked: the connection keeps no room for actions; the loop has it for the next one.
        #expect(harness.connection.agenda.actions.capacity == 0)
        let loop = harness.connection.loop
        var lent = loop.borrowActionStorage()
        let storage = lent.withUnsafeBufferPointer { $0.baseAddress }
        loop.recycleActionStorage(&lent)
        #expect(lent.capacity == 0)
        var again = loop.borrowActionStorage()
        #expect(again.withUnsafeBufferPointer { $0.baseAddress } == storage)
        loop.recycleActionStorage(&again)
        let (_, responder) = try #require(parked.next())
        responder.send(Self.answer("later"))
        harness.step()
        #expect(harness.received() == Self.wire("later"))
        #expect(harness.connection.agenda.actions.capacity == 0)
    }

    @Test func aWriteThatWantsInputIsRetriedWhenReadable() throws {
        let harness = try SteppedConnection(handler: ClosureHandler { _, _, responder in responder.send(Self.answer("ok")) })
        defer { harness.close() }
        harness.stream.scriptedWrites = [.wantRead]
        harness.send("GET /tls HTTP/1.1\r\n\r\n")
        #expect(harness.received() == "")
        #expect(harness.connection.channel.writeWantsRead)
        #expect(harness.connection.channel.currentInterest & cposix_EPOLLIN != 0)
        harness.readable()
        #expect(harness.received() == Self.wire("ok"))
    }

    @Test func theUpgradeHandsTheChannelOverWithTheBytesBehindTheRequest() throws {
        let log = WebSocketEventLog()
        let harness = try SteppedConnection(
            handler: ClosureHandler { _, _, responder in responder.send(Self.answer("http")) },
            upgradeRouter: ExtensionUpgradeRouter(extensions: [EchoExtension(log: log)]))
        defer { harness.close() }
        let registration = harness.connection.channel.registration
        var encoder = WebSocketFrameEncoder.client(maskSource: FixedMaskSource([WebSocketMaskKey(rawValue: 0x1122_3344)]))
        let head = "GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
        harness.send(Array(head.utf8) + encoder.encodeText("Hello"))
        let bytes = harness.client.receiveAll()
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 101 Switching Protocols\r\n"))
        #expect(text.contains("Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"))
        // The frame that came with the request head was decoded by the WebSocket side and echoed.
        #expect(Array(bytes.suffix(7)) == [0x81, 0x05] + Array("Hello".utf8))
        #expect(log.all.contains(.text("Hello")))
        // Same socket, same registration, now owned by the WebSocket connection.
        #expect(harness.connection.state == .closed)
        #expect(!harness.connection.channel.isReleased)
        #expect(harness.connection.channel.registration == registration)
        #expect(harness.owner is WebSocketConnection)
        harness.send(encoder.encodeText("again"))
        #expect(harness.client.receiveAll() == [0x81, 0x05] + Array("again".utf8))
    }

    @Test func aPeerCloseCancelsAParkedRequestAndReleasesTheSocket() throws {
        let parked = ParkedRequests()
        let harness = try SteppedConnection(handler: ClosureHandler { request, _, responder in parked.park(request, responder) })
        defer { harness.close() }
        harness.send("GET /parked HTTP/1.1\r\n\r\n")
        let (_, responder) = try #require(parked.next())
        harness.client.finish()
        harness.readable()
        #expect(responder.wasCancelled)
        #expect(harness.connection.state == .closed)
        #expect(harness.connection.channel.isReleased)
        #expect(harness.core.openConnections.load(ordering: .relaxed) == 0)
    }

    @Test func aConnectionCloseAnswerEndsWithFINAndADrainThatTheTimerEnds() throws {
        let harness = try SteppedConnection(handler: ClosureHandler { _, _, responder in responder.send(Self.answer("bye")) })
        defer { harness.close() }
        harness.send("GET /last HTTP/1.1\r\nConnection: close\r\n\r\n")
        #expect(harness.received() == Self.wire("bye", keepAlive: false))
        #expect(harness.client.peerFinished)
        #expect(harness.connection.state == .draining)
        // Input is discarded while draining; the drain timeout (2 s here) closes.
        harness.send("GET /ignored HTTP/1.1\r\n\r\n")
        #expect(harness.received() == "")
        harness.step(advancingBy: 3_000_000_000)
        #expect(harness.connection.state == .closed)
        #expect(harness.connection.channel.isReleased)
    }
}
