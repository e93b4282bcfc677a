// SPDX-License-Identifier: MIT
@testable import HarnessHTTP
@testable import HarnessServerCore
@testable import MockPubNubServer

/// Runs one TLS connection between TLSTestServer (serving `fault`) and TLSTestClient.
enum TLSHandshakeHarness {
    static let response = Array("HTTP/1.1 200 OK\r\nContent-Type: text/javascript; charset=\"UTF-8\"\r\nContent-Length: 19\r\nConnection: close\r\n\r\n[17000000000000000]".utf8)
    static let request = Array("GET /time/0 HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8)

    static func run(
        _ fault: ListenerFault, material: TLSMaterial, response: [UInt8] = response,
        client: (TLSMaterial) -> TLSClientOptions
    ) async throws -> (client: TLSClientReport, server: TLSServerOutcome) {
        let context = try TLSServerContext(material: material, fault: fault)
        let server = try TLSTestServer(context: context, response: response)
        let options = client(material)
        // Both threads start here, before any suspension: see StartedThread.
        let serverOutcome = StartedThread { server.serveOne() }
        let port = server.port
        let clientReport = StartedThread { TLSTestClient.connect(port: port, options: options) }
        return (await clientReport.value, await serverOutcome.value)
    }

    /// A client that trusts the run's CA and checks "localhost".
    static func trustingClient(_ material: TLSMaterial) -> TLSClientOptions {
        TLSClientOptions(trustedCAPEM: material.certificateAuthorityPEM)
    }
}
