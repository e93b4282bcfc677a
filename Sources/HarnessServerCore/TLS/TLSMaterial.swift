// SPDX-License-Identifier: MIT
internal import COpenSSL
import Glibc

/// A certificate and its private key, both PEM-encoded.
public struct TLSIdentity: Sendable, Hashable {
    /// The certificate, `-----BEGIN CERTIFICATE-----` PEM.
    public let certificatePEM: String
    /// The PKCS#8 private key, `-----BEGIN PRIVATE KEY-----` PEM. Generated in memory, never stored in the repository.
    public let privateKeyPEM: String
}

/// Every certificate the TLS fault catalog needs, minted once per server at start-up.
///
/// All keys are EC P-256. The leaves carry serverAuth and are for `localhost`, `127.0.0.1` and
/// `::1`, except `wrongHostLeaf` (`wrong.host.invalid` only). Clients trust the run's CA through
/// ``certificateAuthorityPEM`` or a file written by ``writeCertificateAuthority(toFile:)``.
public struct TLSMaterial: Sendable, Hashable {
    /// The run's test CA (CA:TRUE, keyCertSign), the one clients are told to trust.
    public let certificateAuthority: TLSIdentity
    /// Signed by the test CA: the trusted case.
    public let trustedLeaf: TLSIdentity
    /// Self-signed, same names as the trusted leaf.
    public let selfSignedLeaf: TLSIdentity
    /// A second CA that clients are not given.
    public let untrustedCertificateAuthority: TLSIdentity
    /// Signed by the untrusted CA.
    public let untrustedLeaf: TLSIdentity
    /// Signed by the test CA; valid from 30 days ago until yesterday.
    public let expiredLeaf: TLSIdentity
    /// Signed by the test CA; valid from tomorrow for 30 days.
    public let notYetValidLeaf: TLSIdentity
    /// Signed by the test CA, for `wrong.host.invalid` only.
    public let wrongHostLeaf: TLSIdentity

    /// The test CA certificate as PEM (what a client adds to its trust store).
    public var certificateAuthorityPEM: String { certificateAuthority.certificatePEM }

    /// The names every leaf except the wrong-host one is valid for.
    public static let serverNames = "DNS:localhost,IP:127.0.0.1,IP:::1"
    /// The only name of the wrong-host leaf.
    public static let wrongHostName = "wrong.host.invalid"

    /// Mints a fresh CA pair and all leaves. Takes a few milliseconds (EC keys).
    /// - Parameter now: the reference time for validity periods, in Unix seconds (default: the clock).
    public static func generate(now: Int? = nil) throws(TLSError) -> TLSMaterial {
        let reference = time_t(now ?? Int(time(nil)))
        let day = 86_400
        func leaf(_ cn: String, names: String = serverNames, from: Int = -day, to: Int = 365 * day) -> CertificateSpec {
            CertificateSpec(commonName: cn, isCertificateAuthority: false, subjectAltName: names,
                            keyUsage: "critical,digitalSignature", notBeforeOffset: from, notAfterOffset: to)
        }
        func authority(_ cn: String) -> CertificateSpec {
            CertificateSpec(commonName: cn, isCertificateAuthority: true, subjectAltName: nil,
                            keyUsage: "critical,keyCertSign,cRLSign", notBeforeOffset: -day, notAfterOffset: 3650 * day)
        }
        func mint(_ spec: CertificateSpec, by issuer: (OwnedCertificate, OwnedKey)?) throws(TLSError)
            -> (OwnedCertificate, OwnedKey, TLSIdentity) {
            let key = try CertificateMinter.makeKey()
            let issuerPair = issuer.map { (certificate: $0.0, key: $0.1) }
            let certificate = try CertificateMinter.mint(spec, key: key, issuer: issuerPair, now: reference)
            let identity = TLSIdentity(certificatePEM: try CertificateMinter.pem(of: certificate),
                                       privateKeyPEM: try CertificateMinter.pem(of: key))
            return (certificate, key, identity)
        }

        let ca = try mint(authority("pubnub-harness test CA"), by: nil)
        let caPair = (ca.0, ca.1)
        let otherCA = try mint(authority("pubnub-harness untrusted CA"), by: nil)
        var selfSigned = leaf("localhost")
        selfSigned.keyUsage = nil  // see CertificateSpec.keyUsage
        return TLSMaterial(
            certificateAuthority: ca.2,
            trustedLeaf: try mint(leaf("localhost"), by: caPair).2,
            selfSignedLeaf: try mint(selfSigned, by: nil).2,
            untrustedCertificateAuthority: otherCA.2,
            untrustedLeaf: try mint(leaf("localhost"), by: (otherCA.0, otherCA.1)).2,
            expiredLeaf: try mint(leaf("localhost", from: -30 * day, to: -day), by: caPair).2,
            notYetValidLeaf: try mint(leaf("localhost", from: day, to: 30 * day), by: caPair).2,
            wrongHostLeaf: try mint(leaf(wrongHostName, names: "DNS:\(wrongHostName)"), by: caPair).2
        )
    }

    /// The identity a TLS listener presents for `fault`, or nil when the fault has no certificate of
    /// its own (plain faults, and the pre-handshake TLS faults the listener applies on the socket).
    /// `none` means the trusted leaf (a TLS port serving normally).
    public func identity(for fault: ListenerFault) -> TLSIdentity? {
        switch fault {
        case .none, .tlsTrusted, .tlsVersionMismatch, .tlsNoSharedCipher: return trustedLeaf
        case .tlsSelfSigned: return selfSignedLeaf
        case .tlsUntrustedCA: return untrustedLeaf
        case .tlsExpired: return expiredLeaf
        case .tlsNotYetValid: return notYetValidLeaf
        case .tlsWrongHost: return wrongHostLeaf
        case .closeOnAccept, .resetOnAccept, .stallOnAccept, .tlsAbortAfterClientHello,
             .tlsResetDuringHandshake, .tlsStallHandshake, .tlsPlainHTTP:
            return nil
        }
    }

    /// Writes the test CA certificate (PEM) to `path`, replacing the file; mode 0644.
    public func writeCertificateAuthority(toFile path: String) throws(TLSError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .fileWrite(path: path, errno: errno) }
        defer { close(fd) }
        let bytes = Array(certificateAuthorityPEM.utf8)
        var offset = 0
        var attempts = 0
        while offset < bytes.count, attempts < 1_000 {
            attempts += 1
            let written = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if written < 0 {
                if errno == EINTR { continue }
                throw .fileWrite(path: path, errno: errno)
            }
            offset += written
        }
        guard offset == bytes.count else { throw .fileWrite(path: path, errno: EIO) }
    }
}
