// SPDX-License-Identifier: MIT
import Foundation
import MockPubNubServer

/// The mock server running in this process, controlled through its Swift API.
///
/// Publishing injects into the service (bypassing keys and Access Manager); keysets and grants go
/// straight to the service; journals come from the fault layer.
public final class InProcessHarnessServer: HarnessServer {
    /// The wrapped server (started).
    public let server: MockServer
    public let address: String
    public let tlsAddress: String?
    /// Plain HTTP requests to the service go over loopback like a client's.
    private let http: AdminHTTPServer

    /// Starts a loopback server (plain and TLS listeners on free ports) and wraps it.
    ///
    /// - Parameter configure: adjusts the configuration before the server starts.
    public static func start(configure: (inout MockServerConfiguration) -> Void = { _ in }) throws -> InProcessHarnessServer {
        var configuration = MockServerConfiguration.loopback(tls: true)
        configure(&configuration)
        let server = try MockServer(configuration: configuration)
        try server.start()
        return try InProcessHarnessServer(server: server)
    }

    /// Wraps a server that is already started.
    public init(server: MockServer) throws {
        guard let plain = server.address else {
            throw HarnessServerError.unsupported("a MockServer that is not started")
        }
        self.server = server
        self.address = "127.0.0.1:\(plain.port)"
        self.tlsAddress = server.tlsAddress.map { "127.0.0.1:\($0.port)" }
        self.http = AdminHTTPServer(address: address, tlsAddress: tlsAddress)
    }

    /// Stops the server and joins its threads.
    public func shutdown() async {
        await server.shutdown()
    }

    public func caPEM() async throws -> String? {
        server.certificateAuthorityPEM
    }

    public func installPlan(json: JSONValue, subscribeKey: String) async throws {
        do {
            try server.installPlan(FaultPlan(json: json), subscribeKey: subscribeKey)
        } catch {
            throw HarnessServerError.requestFailed(operation: "install plan", detail: "\(error)")
        }
    }

    public func clearPlan(subscribeKey: String) async throws {
        server.clearPlan(subscribeKey: subscribeKey)
    }

    public func journal(subscribeKey: String) async throws -> [JournalEntry] {
        server.journal(subscribeKey: subscribeKey)
    }

    public func openListener(fault: String) async throws -> Int {
        guard let listenerFault = ListenerFault(rawValue: fault) else {
            throw HarnessServerError.requestFailed(operation: "open listener", detail: "unknown listener fault \(fault)")
        }
        do {
            return try server.openListener(fault: listenerFault).port
        } catch {
            throw HarnessServerError.requestFailed(operation: "open listener \(fault)", detail: "\(error)")
        }
    }

    public func connectionEvents(port: Int) async throws -> [ConnectionEvent] {
        server.connectionEvents(port: port)
    }

    public func closeListener(port: Int) async throws {
        server.closeListener(port: port)
    }

    public func refusedPort() async throws -> Int {
        do {
            return try server.refusedPort().port
        } catch {
            throw HarnessServerError.requestFailed(operation: "refused port", detail: "\(error)")
        }
    }

    public func registerKeyset(subscribeKey: String, publishKey: String, secretKey: String) async throws {
        server.service.register(Keyset(subscribeKey: subscribeKey, publishKey: publishKey, secretKey: secretKey))
    }

    public func grant(_ grant: Grant, subscribeKey: String) async throws {
        server.service.grant(
            AccessGrant(channels: grant.channels, groups: grant.groups, authKeys: grant.authKey.map { [$0] } ?? [],
                        read: grant.read, write: grant.write, manage: grant.manage, delete: grant.delete,
                        ttlMinutes: grant.ttlMinutes),
            subscribeKey: subscribeKey)
    }

    public func publish(subscribeKey: String, publishKey: String, channel: String, message: String) async throws {
        do {
            try server.service.inject(subscribeKey: subscribeKey, channel: channel, message: message, publisher: "harness-publisher")
        } catch {
            throw HarnessServerError.requestFailed(operation: "publish", detail: "\(error)")
        }
    }

    public func request(method: String, path: String, query: [(String, String)], body: [UInt8]?) async throws -> (status: Int, body: [UInt8]) {
        try await http.request(method: method, path: path, query: query, body: body)
    }
}
