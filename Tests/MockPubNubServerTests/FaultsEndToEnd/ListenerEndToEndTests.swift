// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import COpenSSL
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Listener faults and the TLS catalog through `MockServer` (its TLS port, `openListener`,
/// `queueConnectionFaults`, `refusedPort`), observed by raw TCP and OpenSSL clients.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct ListenerEndToEndTests {
    @Test func refusedPortRefusesConnections() async throws {
        let code = try await EndToEnd.run { server, _ in
            let refused = try server.refusedPort()
            return TestSockets.connectLoopback(port: UInt16(refused.port), timeoutMilliseconds: 500)
        }
        #expect(code == -ECONNREFUSED)
    }

    @Test(arguments: [
        (ListenerFault.closeOnAccept, BlockingTestClient.End.eof), (.resetOnAccept, .error(ECONNRESET)), (.stallOnAccept, .timedOut),
    ])
    func acceptFaultsOnAnOpenedListener(fault: ListenerFault, expected: BlockingTestClient.End) async throws {
        let seen = try await EndToEnd.run { server, _ in
            let address = try server.openListener(fault: fault)
            let client = try BlockingTestClient(port: address.port)
            // A request written after the server's FIN/RST would race with it (an RST answering the
            // late bytes, or the reset's error consumed by the send): only the stall gets one.
            if fault == .stallOnAccept { client.send(EndToEnd.get("/time/0")) }
            return client.readToEnd(timeoutMs: 300)
        }
        #expect(seen.bytes == [])
        #expect(seen.end == expected)
    }

    @Test func queuedConnectionFaultHitsOnlyTheNextConnection() async throws {
        let (first, second) = try await EndToEnd.run { server, port in
            server.queueConnectionFaults([.resetOnAccept], port: port)
            let first = try BlockingTestClient(port: port).readToEnd(timeoutMs: TestTime.budgetMs(2000))  // no request: see above
            return (first, try status(port, "/time/0"))
        }
        #expect(first.bytes == [])
        #expect(first.end == .error(ECONNRESET))
        #expect(second == 200)
    }

    @Test func trustedTLSPortServesPubNub() async throws {
        let report = try await EndToEnd.run(tls: true) { server, _ in
            let tls = try #require(server.tlsAddress)
            var options = TLSClientOptions(trustedCAPEM: server.certificateAuthorityPEM)
            options.alpn = ["h2", "http/1.1"]
            options.request = Array("GET /time/0 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)
            return TLSTestClient.connect(port: UInt16(tls.port), options: options)
        }
        #expect(report.handshakeSucceeded)
        #expect(report.verifyResult == Int(X509_V_OK))
        #expect(report.selectedALPN == "http/1.1")  // h2 offered first, never chosen
        let response = HTTPResponseText(report.response)
        #expect(response.statusLine == "HTTP/1.1 200 OK")
        #expect(response.bodyText.hasPrefix("[") && response.body.count == 19)
    }

    struct TrustCase: Sendable, CustomTestStringConvertible {
        let fault: ListenerFault
        let verifyResult: Int32
        var testDescription: String { fault.rawValue }
    }

    @Test(arguments: [
        TrustCase(fault: .tlsSelfSigned, verifyResult: X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT),
        TrustCase(fault: .tlsUntrustedCA, verifyResult: X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY),
        TrustCase(fault: .tlsExpired, verifyResult: X509_V_ERR_CERT_HAS_EXPIRED),
        TrustCase(fault: .tlsNotYetValid, verifyResult: X509_V_ERR_CERT_NOT_YET_VALID),
        TrustCase(fault: .tlsWrongHost, verifyResult: X509_V_ERR_HOSTNAME_MISMATCH),
    ])
    func certificateFaultsFailVerification(trust: TrustCase) async throws {
        let report = try await tlsClient(trust.fault)
        #expect(!report.handshakeSucceeded)
        #expect(report.verifyResult == Int(trust.verifyResult))
        #expect(report.handshakeErrors.contains("certificate verify failed"))
    }

    @Test func expiredOnTheServersTLSPort() async throws {
        let report = try await EndToEnd.run(tls: true, configure: { $0.tlsFault = .tlsExpired }) { server, _ in
            let tls = try #require(server.tlsAddress)
            return TLSTestClient.connect(port: UInt16(tls.port), options: TLSClientOptions(trustedCAPEM: server.certificateAuthorityPEM))
        }
        #expect(!report.handshakeSucceeded)
        #expect(report.verifyResult == Int(X509_V_ERR_CERT_HAS_EXPIRED))
    }

    @Test func versionMismatchAndNoSharedCipherAreHandshakeAlerts() async throws {
        let version = try await tlsClient(.tlsVersionMismatch)
        #expect(!version.handshakeSucceeded)
        #expect(version.handshakeErrors.contains("tlsv1 alert protocol version"))
        let cipher = try await tlsClient(.tlsNoSharedCipher)
        #expect(!cipher.handshakeSucceeded)
        #expect(cipher.handshakeErrors.contains("sslv3 alert handshake failure"))
    }

    @Test func handshakeTransportFaults() async throws {
        let aborted = try await tlsClient(.tlsAbortAfterClientHello)
        #expect(!aborted.handshakeSucceeded)
        #expect(aborted.sslError == SSL_ERROR_SSL)
        #expect(aborted.handshakeErrors == ["unexpected eof while reading"])
        let reset = try await tlsClient(.tlsResetDuringHandshake)
        #expect(!reset.handshakeSucceeded)
        #expect(reset.errno == ECONNRESET)
        let stalled = try await tlsClient(.tlsStallHandshake, timeoutMs: 300)
        #expect(!stalled.handshakeSucceeded)
        #expect(stalled.errno == EAGAIN)
        let plain = try await tlsClient(.tlsPlainHTTP)
        #expect(!plain.handshakeSucceeded)
        #expect(plain.handshakeErrors.contains("wrong version number"))
    }

    private func tlsClient(_ fault: ListenerFault, timeoutMs: Int = 3000) async throws -> TLSClientReport {
        try await EndToEnd.run(tls: true) { server, _ in
            let address = try server.openListener(fault: fault)
            var options = TLSClientOptions(trustedCAPEM: server.certificateAuthorityPEM)
            options.timeoutMilliseconds = timeoutMs
            return TLSTestClient.connect(port: UInt16(address.port), options: options)
        }
    }
}
