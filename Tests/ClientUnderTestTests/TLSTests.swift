// SPDX-License-Identifier: MIT
import Foundation
import MockPubNubServer
import Testing
@testable import ClientUnderTest

/// TLS through the client's own OpenSSL transport against the mock server's TLS listener catalog,
/// trusting the server's test CA: trust failures by verify result, other handshake failures, and
/// success with SNI/hostname checks.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct TLSTests {
    private func tlsPublish(_ fault: ListenerFault, host: String = "127.0.0.1", timeout: Double = TestTime.budget(5),
                            trust: ((MockServer) throws -> PubNubTrustedCA)? = nil) async throws -> Result<PNPublishResult, PNStatus>
    {
        let mock = try MockServerHarness.start()
        defer { mock.stop() }
        let listener = try mock.server.openListener(fault: fault)
        let trustedCA = try trust?(mock.server) ?? .pem(mock.server.certificateAuthorityPEM)
        let client = try makeClient(origin: "\(host):\(listener.port)") {
            $0.tlsEnabled = true
            $0.trustedCA = trustedCA
            $0.nonSubscribeRequestTimeout = timeout
        }
        do throws(PNStatus) {
            return .success(try await client.publish(1, channel: "room"))
        } catch {
            return .failure(error)
        }
    }

    private func failure(_ outcome: Result<PNPublishResult, PNStatus>) -> PNStatus? {
        if case .failure(let status) = outcome { status } else { nil }
    }

    @Test(arguments: ["127.0.0.1", "localhost"])
    func trustedCertificateByPEM(host: String) async throws {
        let outcome = try await tlsPublish(.tlsTrusted, host: host)
        #expect(try outcome.get().timetoken > 0)
    }

    @Test func trustedCertificateByFile() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("client-ca-\(UUID().uuidString).pem").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = try await tlsPublish(.tlsTrusted) { server in
            try server.tlsMaterial.writeCertificateAuthority(toFile: path)
            return .file(path)
        }
        #expect(try outcome.get().timetoken > 0)
    }

    @Test(arguments: [
        (ListenerFault.tlsSelfSigned, "127.0.0.1", 18),
        (.tlsUntrustedCA, "127.0.0.1", 20),
        (.tlsExpired, "127.0.0.1", 10),
        (.tlsNotYetValid, "127.0.0.1", 9),
        (.tlsWrongHost, "127.0.0.1", 64),
        (.tlsWrongHost, "localhost", 62),
    ])
    func untrustedCertificates(fault: ListenerFault, host: String, verifyResult: Int) async throws {
        let status = try #require(failure(try await tlsPublish(fault, host: host)))
        #expect(status.category == .tlsUntrustedCertificate)
        #expect(status.statusCode == 0)
        guard case .tlsUntrustedCertificate(let code, _)? = status.errorData?.transportError else {
            Issue.record("transport error \(String(describing: status.errorData?.transportError))")
            return
        }
        #expect(code == verifyResult)
    }

    @Test func theSystemStoreDoesNotTrustTheTestCA() async throws {
        let status = try #require(failure(try await tlsPublish(.tlsTrusted) { _ in .system }))
        #expect(status.category == .tlsUntrustedCertificate)
    }

    @Test(arguments: [
        ListenerFault.tlsAbortAfterClientHello, .tlsResetDuringHandshake, .tlsPlainHTTP,
        .tlsVersionMismatch, .tlsNoSharedCipher,
    ])
    func handshakeFailures(fault: ListenerFault) async throws {
        let status = try #require(failure(try await tlsPublish(fault)))
        #expect(status.category == .tlsConnectionFailed)
        if fault == .tlsPlainHTTP {
            #expect(status.errorData?.information.contains("wrong version number") == true)
        }
    }

    @Test func stalledHandshakeTimesOut() async throws {
        let status = try #require(failure(try await tlsPublish(.tlsStallHandshake, timeout: 0.3)))
        #expect(status.category == .timeout)
        #expect(status.errorData?.transportError == .timedOut(phase: "TLS handshake"))
    }
}
