// SPDX-License-Identifier: MIT
import HarnessTesting
import MockPusher
import PusherServer
import Testing

/// The session state machine of the HTTP fallback transports: what goes to which receiver, when.
@Suite("Pusher HTTP transports: session", .timeLimit(.minutes(TestTime.limitMinutes(1))))
struct PusherHTTPSessionTests {
    typealias Output = PusherHTTPSession.Output
    static let settings = PusherHTTPSessionSettings(heartbeatMilliseconds: 1_000, disconnectMilliseconds: 500, streamingPrelude: false)
    static func at(_ ms: Int64) -> PusherInstant { PusherInstant(milliseconds: ms) }
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    static func array(_ messages: String...) -> [UInt8] { PusherHTTPFrames.array(messages) }

    @Test func streamOpensOnceThenCarriesMessagesAsTheyCome() {
        var session = PusherHTTPSession(settings: Self.settings, now: Self.at(0))
        #expect(session.receive(.streaming, id: 1, now: Self.at(0)) == [.startStream(receiver: 1, bytes: Self.bytes("o\n"))])
        #expect(session.enqueue("m1", now: Self.at(10)) == [.streamChunk(receiver: 1, bytes: Self.array("m1"))])
        // A new stream (the client's buffer was full) replaces the old one; `o` is not sent again.
        #expect(session.enqueue("m2", now: Self.at(20)).count == 1)
        #expect(session.receive(.streaming, id: 2, now: Self.at(30)) == [.endStream(receiver: 1), .startStream(receiver: 2, bytes: [])])
        #expect(session.receiver == .streaming(2))
    }

    @Test func thePreludeGoesFirstWhenConfigured() {
        var session = PusherHTTPSession(settings: PusherHTTPSessionSettings(), now: Self.at(0))
        #expect(session.receive(.streaming, id: 1, now: Self.at(0)) == [.startStream(receiver: 1, bytes: PusherHTTPFrames.streamingPrelude + Self.bytes("o\n"))])
    }

    @Test func pollsTakeOneAnswerEach() {
        var session = PusherHTTPSession(settings: Self.settings, now: Self.at(0))
        #expect(session.receive(.polling, id: 1, now: Self.at(0)) == [.answerPoll(receiver: 1, bytes: Self.bytes("o\n"))])
        // Messages between polls wait in the outbox and go out together.
        #expect(session.enqueue("m1", now: Self.at(1)).isEmpty)
        #expect(session.enqueue("m2", now: Self.at(2)).isEmpty)
        #expect(session.receive(.polling, id: 2, now: Self.at(3)) == [.answerPoll(receiver: 2, bytes: Self.array("m1", "m2"))])
        // Nothing waiting: the poll is held until a message comes.
        #expect(session.receive(.polling, id: 3, now: Self.at(4)).isEmpty)
        #expect(session.receiver == .polling(3))
        #expect(session.enqueue("m3", now: Self.at(5)) == [.answerPoll(receiver: 3, bytes: Self.array("m3"))])
        #expect(session.receiver == nil)
    }

    @Test func heldReceiversGetHeartbeats() {
        var session = PusherHTTPSession(settings: Self.settings, now: Self.at(0))
        _ = session.receive(.polling, id: 1, now: Self.at(0))
        _ = session.receive(.polling, id: 2, now: Self.at(100))
        #expect(session.nextDeadline == Self.at(1_100))
        #expect(session.tick(now: Self.at(1_099)).isEmpty)
        #expect(session.tick(now: Self.at(1_100)) == [.answerPoll(receiver: 2, bytes: PusherHTTPFrames.heartbeat)])
        _ = session.receive(.streaming, id: 3, now: Self.at(1_200))
        #expect(session.tick(now: Self.at(2_200)) == [.streamChunk(receiver: 3, bytes: PusherHTTPFrames.heartbeat)])
        // The core's probe of an idle connection is a heartbeat too.
        #expect(session.heartbeat(now: Self.at(2_300)) == [.streamChunk(receiver: 3, bytes: PusherHTTPFrames.heartbeat)])
    }

    @Test func closeGoesToTheReceiverNowOrToTheNextOne() {
        var streaming = PusherHTTPSession(settings: Self.settings, now: Self.at(0))
        _ = streaming.receive(.streaming, id: 1, now: Self.at(0))
        #expect(streaming.close(code: 4009, reason: "bye", now: Self.at(5)) == [
            .streamChunk(receiver: 1, bytes: PusherHTTPFrames.close(code: 4009, reason: "bye")), .endStream(receiver: 1),
        ])
        #expect(streaming.enqueue("late", now: Self.at(6)).isEmpty)

        var polling = PusherHTTPSession(settings: Self.settings, now: Self.at(0))
        _ = polling.receive(.polling, id: 1, now: Self.at(0))
        _ = polling.enqueue("error", now: Self.at(1))
        #expect(polling.close(code: 4001, reason: "no app", now: Self.at(2)).isEmpty)
        #expect(polling.receive(.polling, id: 2, now: Self.at(3)) == [
            .answerPoll(receiver: 2, bytes: Self.array("error") + PusherHTTPFrames.close(code: 4001, reason: "no app")),
        ])
        // A stream after the close gets the close and ends.
        #expect(polling.receive(.streaming, id: 3, now: Self.at(4)) == [
            .startStream(receiver: 3, bytes: PusherHTTPFrames.close(code: 4001, reason: "no app")), .endStream(receiver: 3),
        ])
    }

    @Test func aSessionWithoutReceiverExpires() {
        var session = PusherHTTPSession(settings: Self.settings, now: Self.at(0))
        _ = session.receive(.streaming, id: 1, now: Self.at(0))
        session.receiverGone(7, now: Self.at(10))
        #expect(session.receiver == .streaming(1))
        session.receiverGone(1, now: Self.at(20))
        #expect(session.nextDeadline == Self.at(520))
        #expect(session.tick(now: Self.at(519)).isEmpty)
        #expect(session.tick(now: Self.at(520)) == [.expired])
        #expect(session.nextDeadline == nil)
        #expect(session.receive(.polling, id: 2, now: Self.at(600)).isEmpty)
    }
}
