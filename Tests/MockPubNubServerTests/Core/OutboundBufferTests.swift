// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import HarnessServerCore

/// A stream that takes at most `limit` bytes per write call (one piece at a time: the protocol's
/// default gather write) and records them; `blocked` makes it answer `wantWrite`.
final class TricklingSink: StreamIO {
    var limit: Int
    var blocked = false
    var written: [UInt8] = []
    var calls = 0

    init(limit: Int) { self.limit = limit }

    func handshake() -> IOResult { .bytes(0) }
    func read(into buffer: UnsafeMutableRawBufferPointer) -> IOResult { .wantRead }
    func write(_ bytes: UnsafeRawBufferPointer) -> IOResult {
        calls += 1
        if blocked { return .wantWrite }
        let count = min(limit, bytes.count)
        written.append(contentsOf: bytes.prefix(count))
        return .bytes(count)
    }
    func shutdownWrite() {}
}

/// The outbound buffer keeps the pieces it is given (shared, in order), resumes partial writes
/// and holds no storage once drained; plain TCP sends its pieces in one gather write.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct OutboundBufferTests {
    private func drain(_ buffer: inout OutboundBuffer, into sink: TricklingSink) {
        var rounds = 0
        while !buffer.isEmpty && rounds < 1000 {
            rounds += 1
            _ = buffer.writeOut { sink.write(gathering: $0) }
        }
    }

    @Test func piecesLeaveInOrderThroughPartialWrites() {
        var buffer = OutboundBuffer()
        let pieces: [[UInt8]] = [Array("HTTP/1.1 200 OK\r\n\r\n".utf8), Array("body".utf8), Array("-tail".utf8), Array("+more".utf8)]
        for piece in pieces { buffer.append(piece) }
        buffer.append([])
        #expect(buffer.pendingCount == pieces.reduce(0) { $0 + $1.count })
        let sink = TricklingSink(limit: 3)
        drain(&buffer, into: sink)
        #expect(sink.written == pieces.flatMap { $0 })
        #expect(buffer.isEmpty)
        #expect(buffer.pendingCount == 0)
    }

    @Test func aBlockedWriteConsumesNothingAndResumesWhereItStopped() {
        var buffer = OutboundBuffer()
        buffer.append(Array("abcdef".utf8))
        buffer.append(Array("ghij".utf8))
        let sink = TricklingSink(limit: 4)
        #expect(buffer.writeOut { sink.write(gathering: $0) } == .bytes(4))
        sink.blocked = true
        #expect(buffer.writeOut { sink.write(gathering: $0) } == .wantWrite)
        #expect(buffer.pendingCount == 6)
        sink.blocked = false
        sink.limit = 100
        // The default gather write goes on with the next piece after a complete one.
        #expect(buffer.writeOut { sink.write(gathering: $0) } == .bytes(6))
        #expect(sink.written == Array("abcdefghij".utf8))
        #expect(buffer.isEmpty)
    }

    @Test func theFirstPieceIsTheCallersArrayNotACopy() {
        let body = [UInt8](repeating: 7, count: 4096)
        var buffer = OutboundBuffer()
        buffer.append(body)
        var seen: UnsafeRawPointer?
        _ = buffer.writeOut { pieces in
            seen = pieces.first?.baseAddress
            return .wantWrite
        }
        #expect(seen == body.withUnsafeBytes { $0.baseAddress })
    }

    @Test func plainTCPSendsHeadAndBodyInOneGatherWrite() throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer {
            close(pair[0])
            close(pair[1])
        }
        let stream = PlainStream(fd: pair[0])
        var buffer = OutboundBuffer()
        buffer.append(Array("head\r\n\r\n".utf8))
        buffer.append(Array("shared body".utf8))
        buffer.append(Array("next".utf8))
        #expect(buffer.writeOut { stream.write(gathering: $0) } == .bytes(23))
        #expect(buffer.isEmpty)
        var received = [UInt8](repeating: 0, count: 64)
        let count = read(pair[1], &received, received.count)
        #expect(Array(received.prefix(max(count, 0))) == Array("head\r\n\r\nshared bodynext".utf8))
    }
}
