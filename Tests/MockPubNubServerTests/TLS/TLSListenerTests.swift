// SPDX-License-Identifier: MIT
import COpenSSL
import Glibc
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// The TLS catalog through the real server: `HTTPServer` listeners with `StreamFactory.tls`, per
/// port and per connection, observed by an OpenSSL client over loopback.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct TLSListenerTests {
    static let request = Array("GET /time/0 HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8)

    /// Starts a server with a TLS listener (`fault` per port), queues `perConnection` faults, and
    /// runs one client per entry of `clients`, in order. Everything blocking runs on a dedicated thread.
    private func observe(
        port fault: ListenerFault, perConnection: [ListenerFault] = [],
        clients: @escaping @Sendable (TLSMaterial) -> [TLSClientOptions]
    ) async throws -> [TLSClientReport] {
        let result: Result<[TLSClientReport], any Error> = await TestSockets.onDedicatedThread {
            Result {
                let material = try TLSMaterial.generate()
                let server = HTTPServer(configuration: HTTPServerConfiguration(eventLoopCount: 1), handler: echoHandler)
                try server.start()
                defer { server.stop() }
                let address = try server.addListener(
                    host: "127.0.0.1", port: 0, fault: fault, streamFactory: .tls(material: material))
                server.queueConnectionFaults(perConnection, port: address.port)
                return clients(material).map { TLSTestClient.connect(port: UInt16(address.port), options: $0) }
            }
        }
        return try result.get()
    }

    private static func trusting(_ material: TLSMaterial, request: [UInt8]? = nil, timeoutMilliseconds: Int = Int(TestTime.budgetMs(5_000)))
        -> TLSClientOptions {
        var options = TLSClientOptions(trustedCAPEM: material.certificateAuthorityPEM)
        options.request = request
        options.timeoutMilliseconds = timeoutMilliseconds
        return options
    }

    @Test(arguments: [ListenerFault.none, .tlsTrusted])
    func trustedPortServesHTTPOverTLS(fault: ListenerFault) async throws {
        let reports = try await observe(port: fault) { [Self.trusting($0, request: Self.request)] }
        let client = try #require(reports.first)
        #expect(client.handshakeSucceeded)
        #expect(client.verifyResult == Int(X509_V_OK))
        #expect(String(decoding: client.response, as: UTF8.self) == okResponse("GET /time/0 ", close: true))
        #expect(client.sawEOF)
    }

    @Test func pipelinedRequestsInSeparateRecordsAreAllAnswered() async throws {
        // Three requests, each in its own TLS record, written back to back: every SSL_read hands
        // over one record, and the pipeline must answer all three, in order, then close.
        let one = "GET /a HTTP/1.1\r\nHost: localhost\r\n\r\n"
        let two = "GET /b HTTP/1.1\r\nHost: localhost\r\n\r\n"
        let three = "GET /c HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n"
        let requests = Array((one + two + three).utf8)
        let reports = try await observe(port: .tlsTrusted) { material in
            var options = Self.trusting(material, request: requests)
            options.recordSize = one.utf8.count
            return [options]
        }
        let client = try #require(reports.first)
        #expect(String(decoding: client.response, as: UTF8.self)
            == okResponse("GET /a ") + okResponse("GET /b ") + okResponse("GET /c ", close: true))
        #expect(client.sawEOF)
    }

    @Test func alpnOfferingH2GetsHTTP11() async throws {
        let reports = try await observe(port: .tlsTrusted) { material in
            var options = Self.trusting(material)
            options.alpn = ["h2", "http/1.1"]
            return [options]
        }
        #expect(reports.first?.selectedALPN == "http/1.1")
    }

    struct PortCase: Sendable, CustomTestStringConvertible {
        let fault: ListenerFault
        var verifyResult: Int32 = X509_V_OK
        var sslError: Int32
        var errno: Int32 = 0
        var reasons: [String]
        var testDescription: String { fault.rawValue }
    }

    @Test(arguments: [
        PortCase(fault: .tlsSelfSigned, verifyResult: X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT, sslError: SSL_ERROR_SSL,
                 reasons: ["certificate verify failed"]),
        PortCase(fault: .tlsUntrustedCA, verifyResult: X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
                 sslError: SSL_ERROR_SSL, reasons: ["certificate verify failed"]),
        PortCase(fault: .tlsExpired, verifyResult: X509_V_ERR_CERT_HAS_EXPIRED, sslError: SSL_ERROR_SSL,
                 reasons: ["certificate verify failed"]),
        PortCase(fault: .tlsNotYetValid, verifyResult: X509_V_ERR_CERT_NOT_YET_VALID, sslError: SSL_ERROR_SSL,
                 reasons: ["certificate verify failed"]),
        PortCase(fault: .tlsWrongHost, verifyResult: X509_V_ERR_HOSTNAME_MISMATCH, sslError: SSL_ERROR_SSL,
                 reasons: ["certificate verify failed"]),
        PortCase(fault: .tlsVersionMismatch, sslError: SSL_ERROR_SSL, reasons: ["tlsv1 alert protocol version"]),
        PortCase(fault: .tlsNoSharedCipher, sslError: SSL_ERROR_SSL, reasons: ["sslv3 alert handshake failure"]),
        PortCase(fault: .tlsAbortAfterClientHello, sslError: SSL_ERROR_SSL, reasons: ["unexpected eof while reading"]),
        PortCase(fault: .tlsResetDuringHandshake, sslError: SSL_ERROR_SYSCALL, errno: ECONNRESET, reasons: []),
        PortCase(fault: .tlsPlainHTTP, sslError: SSL_ERROR_SSL, reasons: ["wrong version number"]),
        PortCase(fault: .tlsStallHandshake, sslError: SSL_ERROR_WANT_READ, errno: EAGAIN, reasons: []),
    ])
    func everyFaultPerPort(_ expected: PortCase) async throws {
        // The stall ends only by the client's timeout (200 ms, the timing checked); others get a budget.
        let timeout = expected.fault == .tlsStallHandshake ? 200 : Int(TestTime.budgetMs(5_000))
        let reports = try await observe(port: expected.fault) { [Self.trusting($0, timeoutMilliseconds: timeout)] }
        let client = try #require(reports.first)
        #expect(client.setupFailure == nil)
        #expect(!client.handshakeSucceeded)
        #expect(client.verifyResult == Int(expected.verifyResult))
        #expect(client.sslError == expected.sslError)
        #expect(client.errno == expected.errno)
        #expect(client.handshakeErrors == expected.reasons)
    }

    @Test func queuedFaultsApplyToTheNextConnectionsThenThePortFault() async throws {
        let reports = try await observe(port: .tlsTrusted, perConnection: [.tlsExpired, .tlsWrongHost]) { material in
            Array(repeating: Self.trusting(material), count: 3)
        }
        #expect(reports.map(\.verifyResult) == [
            Int(X509_V_ERR_CERT_HAS_EXPIRED), Int(X509_V_ERR_HOSTNAME_MISMATCH), Int(X509_V_OK),
        ])
        #expect(reports.map(\.handshakeSucceeded) == [false, false, true])
    }

    @Test(arguments: [ListenerFault.tlsAbortAfterClientHello, .tlsResetDuringHandshake, .tlsStallHandshake, .tlsPlainHTTP,
                      .closeOnAccept, .resetOnAccept, .stallOnAccept])
    func factoryRefusesFaultsThatTheListenerCarriesOut(_ fault: ListenerFault) throws {
        let factory = try StreamFactory.tls(material: TLSMaterial.generate())
        #expect(factory.isTLS)
        #expect(throws: TLSError.noContextForFault(fault)) { _ = try factory.make(-1, fault) }
    }
}
