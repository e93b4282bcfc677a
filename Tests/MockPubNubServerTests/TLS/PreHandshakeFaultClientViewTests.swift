// SPDX-License-Identifier: MIT
import COpenSSL
import Glibc
import Testing
@testable import MockPubNubServer

/// What an OpenSSL client observes for the pre-handshake TLS faults (played here by a raw peer;
/// the listener implements them on its sockets). These pin down the facts docs/tls.md states.
@Suite(.timeLimit(.minutes(1))) struct PreHandshakeFaultClientViewTests {
    private func run(_ behaviour: RawHandshakePeer.Behaviour, timeoutMilliseconds: Int = 5_000)
        async throws -> (client: TLSClientReport, hello: [UInt8]) {
        let material = try TLSMaterial.generate()
        let peer = try RawHandshakePeer(behaviour)
        async let hello = TestSockets.onDedicatedThread { peer.serveOne() }
        let port = peer.port
        var options = TLSHandshakeHarness.trustingClient(material)
        options.timeoutMilliseconds = timeoutMilliseconds
        let clientOptions = options
        let report = await TestSockets.onDedicatedThread { TLSTestClient.connect(port: port, options: clientOptions) }
        return (report, await hello)
    }

    @Test func abortAfterClientHelloIsAnUnexpectedEOF() async throws {
        let (client, hello) = try await run(.closeAfterClientHello)
        #expect(hello.first == 0x16)  // a handshake record: the ClientHello was sent
        #expect(!client.handshakeSucceeded)
        // OpenSSL 3 reports a FIN in the middle of the handshake as SSL_ERROR_SSL with this reason.
        #expect(client.sslError == SSL_ERROR_SSL)
        #expect(client.errno == 0)
        #expect(client.handshakeErrors == ["unexpected eof while reading"])
    }

    @Test func resetDuringHandshakeIsECONNRESET() async throws {
        let (client, hello) = try await run(.resetAfterClientHello)
        #expect(hello.first == 0x16)
        #expect(!client.handshakeSucceeded)
        #expect(client.sslError == SSL_ERROR_SYSCALL)
        #expect(client.errno == ECONNRESET)
    }

    @Test func stalledHandshakeEndsOnlyByTheClientsTimeout() async throws {
        let (client, hello) = try await run(.stall, timeoutMilliseconds: 200)
        #expect(hello.first == 0x16)
        #expect(!client.handshakeSucceeded)
        // SO_RCVTIMEO expired while waiting for the ServerHello: OpenSSL reports WANT_READ on a blocking socket.
        #expect(client.sslError == SSL_ERROR_WANT_READ)
        #expect(client.errno == EAGAIN)
    }

    @Test func plainHTTPOnTheTLSPortIsAWrongVersionNumber() async throws {
        let http = Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
        let (client, hello) = try await run(.answer(http))
        #expect(hello.first == 0x16)
        #expect(!client.handshakeSucceeded)
        #expect(client.handshakeErrors == ["wrong version number"])
    }
}
