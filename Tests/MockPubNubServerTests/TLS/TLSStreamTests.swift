// SPDX-License-Identifier: MIT
import COpenSSL
import Glibc
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// ServerTLSStream behaviour: ALPN policy, large writes through WANT_WRITE, and failures a listener sees.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct TLSStreamTests {
    @Test(arguments: [
        (["h2", "http/1.1"], "http/1.1"),
        (["http/1.1"], "http/1.1"),
        (["h2"], nil),
    ] as [([String], String?)])
    func alpnNeverSelectsHTTP2(offered: [String], expected: String?) async throws {
        let material = try TLSMaterial.generate()
        let (client, server) = try await TLSHandshakeHarness.run(.tlsTrusted, material: material) {
            var options = TLSHandshakeHarness.trustingClient($0)
            options.alpn = offered
            return options
        }
        #expect(client.handshakeSucceeded)
        #expect(client.selectedALPN == expected)
        #expect(server.selectedALPN == expected)
    }

    @Test func largeResponseArrivesIntactAcrossPartialWrites() async throws {
        let material = try TLSMaterial.generate()
        let body = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
        let (client, server) = try await TLSHandshakeHarness.run(.tlsTrusted, material: material, response: head + body) {
            var options = TLSHandshakeHarness.trustingClient($0)
            options.request = TLSHandshakeHarness.request
            return options
        }
        #expect(server.request == TLSHandshakeHarness.request)
        expectSameElements(client.response, head + body)
        #expect(client.sawEOF)
    }

    @Test func plainHTTPToTheTLSPortFailsTheServerHandshake() async throws {
        let material = try TLSMaterial.generate()
        let server = try TLSTestServer(context: TLSServerContext(material: material, fault: .tlsTrusted), response: [])
        let outcome = StartedThread { server.serveOne() }
        let port = server.port
        let reply = await TestSockets.onDedicatedThread { PlainClient.exchange(port: port, send: TLSHandshakeHarness.request) }
        let seen = await outcome.value
        #expect(seen.detail?.contains("http request") == true)
        guard case .failed(let code, _) = seen.handshake else {
            Issue.record("handshake did not fail: \(String(describing: seen.handshake))")
            return
        }
        #expect(code == 0)
        // OpenSSL rejects the first record header without sending an alert; the rest of the request
        // is unread when the server closes, so the client sees a reset and no bytes.
        #expect(reply.bytes == [])
        #expect(reply.errno == ECONNRESET)
    }

    @Test func clientClosingMidHandshakeIsAFailureNotAHang() async throws {
        let material = try TLSMaterial.generate()
        let server = try TLSTestServer(context: TLSServerContext(material: material, fault: .tlsTrusted), response: [])
        let outcome = StartedThread { server.serveOne() }
        let port = server.port
        _ = await TestSockets.onDedicatedThread { PlainClient.exchange(port: port, send: [0x16, 0x03, 0x01]) }
        let seen = await outcome.value
        // With SSL_OP_IGNORE_UNEXPECTED_EOF a bare FIN reads as end of stream, also mid-handshake.
        #expect(seen.handshake == .eof)
        #expect(seen.detail == nil)
    }
}

/// Sends bytes on a plain TCP connection, half-closes, and reads until EOF (bounded by SO_RCVTIMEO).
enum PlainClient {
    struct Reply: Sendable {
        var bytes: [UInt8] = []
        /// errno of the recv that ended the exchange (0 for a clean EOF).
        var errno: Int32 = 0
    }

    static func exchange(port: UInt16, send bytes: [UInt8]) -> Reply {
        var reply = Reply()
        let fd = TestSockets.connectLoopback(port: port, timeoutMilliseconds: Int(TestTime.budgetMs(5_000)))
        guard fd >= 0 else {
            reply.errno = -fd
            return reply
        }
        defer { close(fd) }
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        _ = shutdown(fd, Int32(SHUT_WR))
        var buffer = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<1_000 {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 { reply.errno = Glibc.errno }
            if n <= 0 { break }
            reply.bytes.append(contentsOf: buffer[0..<n])
        }
        return reply
    }
}
