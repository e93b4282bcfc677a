// SPDX-License-Identifier: MIT
import ConformanceKit

/// The in-process mock server for end-to-end tests.
enum IntegrationHarness {
    /// Starts a server on 127.0.0.1 port 0 (plain and TLS); returns it and its stop function.
    static func startServer() async throws -> (any HarnessServer, @Sendable () async -> Void) {
        let server = try InProcessHarnessServer.start()
        return (server, { await server.shutdown() })
    }
}
