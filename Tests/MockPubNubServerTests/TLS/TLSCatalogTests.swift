// SPDX-License-Identifier: MIT
import COpenSSL
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Each certificate / protocol entry of the TLS fault catalog, observed from a real OpenSSL client
/// over loopback.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct TLSCatalogTests {
    @Test func trustedLeafCompletesHandshakeAndServesARequest() async throws {
        let material = try TLSMaterial.generate()
        let (client, server) = try await TLSHandshakeHarness.run(.tlsTrusted, material: material) {
            var options = TLSHandshakeHarness.trustingClient($0)
            options.request = TLSHandshakeHarness.request
            return options
        }
        #expect(client.setupFailure == nil)
        #expect(client.handshakeSucceeded)
        #expect(client.verifyResult == Int(X509_V_OK))
        #expect(client.protocolVersion == "TLSv1.3")
        expectSameElements(client.response, TLSHandshakeHarness.response)
        #expect(client.sawEOF)
        #expect(server.handshake == .bytes(0))
        #expect(server.request == TLSHandshakeHarness.request)
        #expect(server.finalRead == .eof)  // the client closed after reading the response
    }

    @Test func noneOnATLSPortServesTheTrustedLeaf() async throws {
        let material = try TLSMaterial.generate()
        let (client, _) = try await TLSHandshakeHarness.run(.none, material: material, client: TLSHandshakeHarness.trustingClient)
        #expect(client.handshakeSucceeded)
        #expect(client.verifyResult == Int(X509_V_OK))
    }

    @Test func trustedLeafAlsoVerifiesForTheIPAddress() async throws {
        let material = try TLSMaterial.generate()
        let (client, _) = try await TLSHandshakeHarness.run(.tlsTrusted, material: material) {
            var options = TLSHandshakeHarness.trustingClient($0)
            options.host = "127.0.0.1"  // SSL_set1_host with an IP literal checks the iPAddress SAN
            return options
        }
        #expect(client.handshakeSucceeded)
        #expect(client.verifyResult == Int(X509_V_OK))
    }

    @Test func tlsTwelveOnlyClientNegotiatesTLSTwelve() async throws {
        let material = try TLSMaterial.generate()
        let (client, server) = try await TLSHandshakeHarness.run(.tlsTrusted, material: material) {
            var options = TLSHandshakeHarness.trustingClient($0)
            options.maxVersion = TLS1_2_VERSION
            return options
        }
        #expect(client.handshakeSucceeded)
        #expect(client.protocolVersion == "TLSv1.2")
        #expect(server.protocolVersion == "TLSv1.2")
    }

    struct TrustCase: Sendable, CustomTestStringConvertible {
        let fault: ListenerFault
        let verifyResult: Int32
        let alertSeenByServer: String
        var testDescription: String { fault.rawValue }
    }

    @Test(arguments: [
        TrustCase(fault: .tlsSelfSigned, verifyResult: X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT,
                  alertSeenByServer: "tlsv1 alert unknown ca"),
        TrustCase(fault: .tlsUntrustedCA, verifyResult: X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY,
                  alertSeenByServer: "tlsv1 alert unknown ca"),
        TrustCase(fault: .tlsExpired, verifyResult: X509_V_ERR_CERT_HAS_EXPIRED,
                  alertSeenByServer: "sslv3 alert certificate expired"),
        TrustCase(fault: .tlsNotYetValid, verifyResult: X509_V_ERR_CERT_NOT_YET_VALID,
                  alertSeenByServer: "sslv3 alert bad certificate"),
        TrustCase(fault: .tlsWrongHost, verifyResult: X509_V_ERR_HOSTNAME_MISMATCH,
                  alertSeenByServer: "sslv3 alert bad certificate"),
    ])
    func certificateFaultFailsVerification(_ trust: TrustCase) async throws {
        let material = try TLSMaterial.generate()
        let (client, server) = try await TLSHandshakeHarness.run(trust.fault, material: material,
                                                                 client: TLSHandshakeHarness.trustingClient)
        #expect(client.setupFailure == nil)
        #expect(!client.handshakeSucceeded)
        #expect(client.verifyResult == Int(trust.verifyResult))
        #expect(client.handshakeErrors.contains("certificate verify failed"))
        #expect(server.handshake != .bytes(0))
        // The client's alert, as the server's ServerTLSStream reports it.
        let expected = "TLS handshake failed (errno 0): SSL routines: \(trust.alertSeenByServer)"
        #expect(server.handshake == .failed(errno: 0, detail: expected))
    }

    @Test func certificateFaultsPassWithoutVerification() async throws {
        // Control: the same leaf is accepted when the client does not check it, so the failure
        // above is the verification result and not a broken context.
        let material = try TLSMaterial.generate()
        let (client, _) = try await TLSHandshakeHarness.run(.tlsExpired, material: material) {
            TLSClientOptions(trustedCAPEM: $0.certificateAuthorityPEM, verifyPeer: false)
        }
        #expect(client.handshakeSucceeded)
        #expect(client.verifyResult == Int(X509_V_ERR_CERT_HAS_EXPIRED))
    }

    @Test func versionMismatchSendsAProtocolVersionAlert() async throws {
        let material = try TLSMaterial.generate()
        let (client, server) = try await TLSHandshakeHarness.run(.tlsVersionMismatch, material: material,
                                                                 client: TLSHandshakeHarness.trustingClient)
        #expect(!client.handshakeSucceeded)
        #expect(client.handshakeErrors.contains("tlsv1 alert protocol version"))
        #expect(server.detail?.contains("unsupported protocol") == true)
    }

    @Test func versionMismatchServerSpeaksTLSOneOne() async throws {
        // Control: a client that allows old versions does complete the handshake, at TLS 1.1.
        let material = try TLSMaterial.generate()
        let (client, _) = try await TLSHandshakeHarness.run(.tlsVersionMismatch, material: material) {
            var options = TLSHandshakeHarness.trustingClient($0)
            options.minVersion = TLS1_VERSION
            options.cipherList = "DEFAULT:@SECLEVEL=0"
            options.securityLevel = 0
            return options
        }
        #expect(client.handshakeSucceeded)
        #expect(client.protocolVersion == "TLSv1.1")
    }

    @Test func noSharedCipherSendsAHandshakeFailureAlert() async throws {
        let material = try TLSMaterial.generate()
        let (client, server) = try await TLSHandshakeHarness.run(.tlsNoSharedCipher, material: material,
                                                                 client: TLSHandshakeHarness.trustingClient)
        #expect(!client.handshakeSucceeded)
        #expect(client.handshakeErrors.contains("sslv3 alert handshake failure"))
        #expect(server.detail?.contains("no shared cipher") == true)
    }
}
