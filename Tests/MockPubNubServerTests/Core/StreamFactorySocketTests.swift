// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// A stream whose "handshake" reads one `H` byte and answers `h`, then behaves like plain TCP.
/// It stands in for a TLS stream to check the seam: handshake first, wantRead, isTLS, fault passing.
final class GreetingStream: StreamIO {
    let plain: PlainStream
    let fd: Int32
    var greeted = false

    init(fd: Int32) {
        self.fd = fd
        plain = PlainStream(fd: fd)
    }

    func handshake() -> IOResult {
        if greeted { return .bytes(0) }
        var byte: UInt8 = 0
        let n = recv(fd, &byte, 1, 0)
        if n == 0 { return .eof }
        if n < 0 { return errno == EAGAIN ? .wantRead : .failed(errno: errno, detail: "recv") }
        guard byte == UInt8(ascii: "H") else { return .failed(errno: 0, detail: "bad greeting") }
        var answer = UInt8(ascii: "h")
        _ = send(fd, &answer, 1, Int32(MSG_NOSIGNAL))
        greeted = true
        return .bytes(0)
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> IOResult { plain.read(into: buffer) }
    func write(_ bytes: UnsafeRawBufferPointer) -> IOResult { plain.write(bytes) }
    func shutdownWrite() { plain.shutdownWrite() }
}

extension CoreSocketTests {
    @Suite(.offPool, .timeLimit(.minutes(TestTime.limitMinutes(5)))) struct StreamFactories {
        @Test func customStreamHandshakesFirstAndMarksRequestsAsTLS() throws {
            let faults = Mutex<[ListenerFault]>([])
            let factory = StreamFactory(isTLS: true) { fd, fault in
                faults.withLock { $0.append(fault) }
                return GreetingStream(fd: fd)
            }
            let handler = ClosureHandler { request, context, responder in
                responder.send(.respond(HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"],
                    body: Array("tls=\(context.isTLS) port=\(context.localPort == 0 ? "?" : "ok")".utf8))))
            }
            try withServer(handler: handler) { server, _ in
                let address = try server.addListener(host: "127.0.0.1", port: 0, fault: .tlsTrusted, streamFactory: factory)
                server.queueConnectionFaults([.tlsExpired], port: address.port)
                let client = try BlockingTestClient(port: address.port)
                // The server waits for the handshake.
                #expect(client.readOnce(timeoutMs: 50) == .failure(.init(end: .timedOut)))
                let second = try BlockingTestClient(port: address.port)
                second.send("H")
                #expect(second.read(count: 1) == Array("h".utf8))
                second.send("GET /x HTTP/1.1\r\n\r\n")
                #expect(second.readResponse() == okResponse("tls=true port=ok"))
                // A request instead of the greeting fails the handshake: the connection is closed.
                client.send("GET /early HTTP/1.1\r\n\r\n")
                let early = client.readToEnd()
                #expect(early.bytes == [])
                #expect(early.end != .timedOut)
                #expect(faults.withLock { $0 } == [.tlsExpired, .tlsTrusted])
            }
        }
    }
}
