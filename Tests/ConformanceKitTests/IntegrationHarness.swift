// SPDX-License-Identifier: MIT
import ConformanceKit

/// The in-process mock server for end-to-end tests, wired at integration.
///
/// Until the MockServer wrapper (`HarnessServer` over `MockServer`) exists in this branch, this
/// throws, and the end-to-end tests fail with that message rather than pass vacuously.
enum IntegrationHarness {
    struct NotWired: Error, CustomStringConvertible {
        var description: String { "the in-process MockServer is not wired into ConformanceKitTests yet (IntegrationHarness.startServer)" }
    }

    /// Starts a server on 127.0.0.1 port 0; returns it and its stop function.
    static func startServer() async throws -> (any HarnessServer, @Sendable () async -> Void) {
        throw NotWired()
    }
}
