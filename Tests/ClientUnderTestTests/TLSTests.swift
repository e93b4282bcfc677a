// SPDX-License-Identifier: MIT
import Testing
@testable import ClientUnderTest

/// TLS through the client's own OpenSSL transport: trust failures by verify result, other handshake
/// failures, and success with SNI/hostname checks.
@Suite(.serialized) struct TLSTests {

    private func outcome(cert name: String, host: String = "127.0.0.1", trustedCA: PubNubTrustedCA? = nil)
        async throws -> Result<PNTimeResult, PNStatus>
    {
        let certs = try await TestCertificates.shared.value
        let server = try TLSTestServer(.tls(cert: certs.cert(name), key: certs.key(name)))
        defer { server.stop() }
        return try await time(host: host, port: server.port, trustedCA: trustedCA ?? .file(certs.caFile))
    }

    private func time(host: String, port: Int, trustedCA: PubNubTrustedCA) async throws -> Result<PNTimeResult, PNStatus> {
        let client = try makeClient(origin: "\(host):\(port)") {
            $0.tlsEnabled = true
            $0.trustedCA = trustedCA
        }
        do throws(PNStatus) {
            return .success(try await client.time())
        } catch {
            return .failure(error)
        }
    }

    private func untrusted(_ outcome: Result<PNTimeResult, PNStatus>) -> Int? {
        guard case .failure(let status) = outcome, status.category == .tlsUntrustedCertificate,
            case .tlsUntrustedCertificate(let code, _)? = status.errorData?.transportError
        else { return nil }
        return code
    }

    @Test func trustedCertificateByIPAndName() async throws {
        #expect(try await outcome(cert: "good").successValue == PNTimeResult(timetoken: 17_000_000_000_000_000))
        #expect(try await outcome(cert: "good", host: "localhost").successValue == PNTimeResult(timetoken: 17_000_000_000_000_000))
    }

    @Test func trustFromPEMText() async throws {
        let certs = try await TestCertificates.shared.value
        let pem = try String(contentsOfFile: certs.caFile, encoding: .utf8)
        let server = try TLSTestServer(.tls(cert: certs.cert("good"), key: certs.key("good")))
        defer { server.stop() }
        #expect(try await time(host: "127.0.0.1", port: server.port, trustedCA: .pem(pem)).successValue == PNTimeResult(timetoken: 17_000_000_000_000_000))
    }

    @Test func selfSignedIsUntrusted() async throws {
        #expect(untrusted(try await outcome(cert: "selfsigned")) == 18)
    }

    @Test func unknownIssuerIsUntrusted() async throws {
        #expect(untrusted(try await outcome(cert: "unknownca")) == 20)
    }

    @Test func expiredIsUntrusted() async throws {
        #expect(untrusted(try await outcome(cert: "expired")) == 10)
    }

    @Test func wrongHostIsUntrusted() async throws {
        #expect(untrusted(try await outcome(cert: "wronghost", host: "localhost")) == 62)
        #expect(untrusted(try await outcome(cert: "wronghost", host: "127.0.0.1")) == 64)
    }

    @Test func plainHTTPServerIsConnectionFailed() async throws {
        let certs = try await TestCertificates.shared.value
        let server = try TLSTestServer(.raw(Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8)))
        defer { server.stop() }
        let result = try await time(host: "127.0.0.1", port: server.port, trustedCA: .file(certs.caFile))
        guard case .failure(let status) = result else { Issue.record("expected failure"); return }
        #expect(status.category == .tlsConnectionFailed)
        #expect(status.errorData?.information.contains("wrong version number") == true)
    }

    @Test func closeDuringHandshakeIsConnectionFailed() async throws {
        let certs = try await TestCertificates.shared.value
        let server = try TLSTestServer(.hangUp)
        defer { server.stop() }
        let result = try await time(host: "127.0.0.1", port: server.port, trustedCA: .file(certs.caFile))
        guard case .failure(let status) = result else { Issue.record("expected failure"); return }
        #expect(status.category == .tlsConnectionFailed)
    }

    @Test func silentServerTimesOutDuringHandshake() async throws {
        let certs = try await TestCertificates.shared.value
        let server = try TLSTestServer(.raw([]))
        defer { server.stop() }
        let client = try makeClient(origin: "127.0.0.1:\(server.port)") {
            $0.tlsEnabled = true
            $0.trustedCA = .file(certs.caFile)
            $0.nonSubscribeRequestTimeout = 0.5
        }
        do throws(PNStatus) {
            _ = try await client.time()
            Issue.record("expected failure")
        } catch {
            // The raw server never answers the ClientHello: the deadline passes during the handshake.
            #expect(error.category == .timeout)
            #expect(error.errorData?.transportError == .timedOut(phase: "TLS handshake"))
        }
    }
}

extension Result {
    var successValue: Success? { if case .success(let value) = self { value } else { nil } }
}
