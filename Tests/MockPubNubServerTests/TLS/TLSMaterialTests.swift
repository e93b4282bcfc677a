// SPDX-License-Identifier: MIT
import COpenSSL
import Foundation
import Testing
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// The minted certificates, read back with libcrypto.
@Suite(.timeLimit(.minutes(TestTime.limitMinutes(5)))) struct TLSMaterialTests {
    /// Parses `pem` and runs `body` with the X509 pointer while the owner is alive.
    private func withCertificate<T>(_ pem: String, _ body: (OpaquePointer) throws -> T) throws -> T {
        let owner = try PEMReader.certificate(pem, what: "test")
        return try withExtendedLifetime(owner) { try body(owner.pointer) }
    }

    /// -1 if the time is before `reference`, 1 if after.
    private func compare(_ time: UnsafePointer<ASN1_TIME>?, to reference: Int) -> Int32 {
        var t = time_t(reference)
        return X509_cmp_time(time, &t)
    }

    @Test func pemShapes() throws {
        let material = try TLSMaterial.generate()
        #expect(material.certificateAuthorityPEM.hasPrefix("-----BEGIN CERTIFICATE-----\n"))
        #expect(material.certificateAuthorityPEM.hasSuffix("-----END CERTIFICATE-----\n"))
        #expect(material.trustedLeaf.privateKeyPEM.hasPrefix("-----BEGIN PRIVATE KEY-----\n"))
        #expect(material.certificateAuthorityPEM == material.certificateAuthority.certificatePEM)
    }

    @Test func authoritiesAreCAsAndLeavesAreNot() throws {
        let material = try TLSMaterial.generate()
        for ca in [material.certificateAuthority, material.untrustedCertificateAuthority] {
            #expect(try withCertificate(ca.certificatePEM) { X509_check_ca($0) } == 1)
        }
        for leaf in [material.trustedLeaf, material.selfSignedLeaf, material.untrustedLeaf, material.expiredLeaf,
                     material.notYetValidLeaf, material.wrongHostLeaf] {
            #expect(try withCertificate(leaf.certificatePEM) { X509_check_ca($0) } == 0)
        }
    }

    @Test func leafNames() throws {
        let material = try TLSMaterial.generate()
        try withCertificate(material.trustedLeaf.certificatePEM) { trusted in
            #expect(X509_check_host(trusted, "localhost", 9, 0, nil) == 1)
            #expect(X509_check_ip_asc(trusted, "127.0.0.1", 0) == 1)
            #expect(X509_check_ip_asc(trusted, "::1", 0) == 1)
            #expect(X509_check_host(trusted, "wrong.host.invalid", 18, 0, nil) == 0)
        }
        try withCertificate(material.wrongHostLeaf.certificatePEM) { wrong in
            #expect(X509_check_host(wrong, "wrong.host.invalid", 18, 0, nil) == 1)
            #expect(X509_check_host(wrong, "localhost", 9, 0, nil) == 0)
            #expect(X509_check_ip_asc(wrong, "127.0.0.1", 0) == 0)
        }
    }

    @Test func validityPeriodsAreRelativeToTheGivenTime() throws {
        let now = 2_000_000_000
        let material = try TLSMaterial.generate(now: now)
        try withCertificate(material.trustedLeaf.certificatePEM) { trusted in
            #expect(compare(X509_get0_notBefore(trusted), to: now) == -1)
            #expect(compare(X509_get0_notAfter(trusted), to: now) == 1)
        }
        try withCertificate(material.expiredLeaf.certificatePEM) { expired in
            #expect(compare(X509_get0_notBefore(expired), to: now - 30 * 86_400 - 1) == 1)
            #expect(compare(X509_get0_notAfter(expired), to: now) == -1)
        }
        try withCertificate(material.notYetValidLeaf.certificatePEM) { future in
            #expect(compare(X509_get0_notBefore(future), to: now) == 1)
            #expect(compare(X509_get0_notBefore(future), to: now + 86_400 + 1) == -1)
        }
    }

    @Test func leavesAreSignedByTheirIssuer() throws {
        let material = try TLSMaterial.generate()
        let caKey = try PEMReader.privateKey(material.certificateAuthority.privateKeyPEM, what: "ca key")
        let otherKey = try PEMReader.privateKey(material.untrustedCertificateAuthority.privateKeyPEM, what: "other key")
        try withExtendedLifetime((caKey, otherKey)) {
            for leaf in [material.trustedLeaf, material.expiredLeaf, material.notYetValidLeaf, material.wrongHostLeaf] {
                try withCertificate(leaf.certificatePEM) { x in
                    #expect(X509_verify(x, caKey.pointer) == 1)
                    #expect(X509_verify(x, otherKey.pointer) == 0)
                }
            }
            try withCertificate(material.untrustedLeaf.certificatePEM) { untrusted in
                #expect(X509_verify(untrusted, otherKey.pointer) == 1)
                #expect(X509_verify(untrusted, caKey.pointer) == 0)
            }
        }
        ERR_clear_error()
        try withCertificate(material.selfSignedLeaf.certificatePEM) { selfSigned in
            #expect(X509_verify(selfSigned, X509_get0_pubkey(selfSigned)) == 1)
        }
    }

    @Test func everyRunMintsANewAuthority() throws {
        let first = try TLSMaterial.generate()
        let second = try TLSMaterial.generate()
        #expect(first.certificateAuthorityPEM != second.certificateAuthorityPEM)
        #expect(first.certificateAuthority.privateKeyPEM != second.certificateAuthority.privateKeyPEM)
    }

    @Test func writesTheAuthorityFile() throws {
        let material = try TLSMaterial.generate()
        let path = NSTemporaryDirectory() + "tls-ca-\(UUID().uuidString).pem"
        defer { try? FileManager.default.removeItem(atPath: path) }
        try material.writeCertificateAuthority(toFile: path)
        let written = try String(contentsOfFile: path, encoding: .utf8)
        #expect(written == material.certificateAuthorityPEM)
    }

    @Test func writingIntoAMissingDirectoryIsATypedError() throws {
        let material = try TLSMaterial.generate()
        let path = "/nonexistent-\(UUID().uuidString)/ca.pem"
        #expect(throws: TLSError.fileWrite(path: path, errno: ENOENT)) {
            try material.writeCertificateAuthority(toFile: path)
        }
    }

    @Test func invalidPEMIsATypedError() {
        #expect {
            _ = try PEMReader.certificate("-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n", what: "junk")
        } throws: { error in
            guard case .invalidPEM(let what, let errors)? = error as? TLSError else { return false }
            return what == "junk" && !errors.isEmpty
        }
    }

    @Test(arguments: [ListenerFault.closeOnAccept, .resetOnAccept, .stallOnAccept, .tlsAbortAfterClientHello,
                      .tlsResetDuringHandshake, .tlsStallHandshake, .tlsPlainHTTP])
    func socketFaultsHaveNoContext(_ fault: ListenerFault) throws {
        let material = try TLSMaterial.generate()
        #expect(material.identity(for: fault) == nil)
        #expect(throws: TLSError.noContextForFault(fault)) { _ = try TLSServerContext(material: material, fault: fault) }
    }

    @Test func catalogHasAContextForEveryCertificateAndProtocolFault() throws {
        let catalog = try TLSServerContextCatalog(material: TLSMaterial.generate())
        for fault in ListenerFault.allCases {
            let expected: ListenerFault? = fault == .none ? .tlsTrusted
                : TLSServerContextCatalog.contextFaults.contains(fault) ? fault : nil
            #expect(catalog.context(for: fault)?.fault == expected, "\(fault.rawValue)")
        }
        #expect(TLSServerContextCatalog.contextFaults.count == 8)
    }
}
