// SPDX-License-Identifier: MIT
import Foundation
import MockPubNubServer
import MockPusher
import PusherServer

/// The Pusher service running in this process, built as `serve` builds it (a `PusherService`
/// whose extensions go on a `MockServer`, plain and TLS listeners on loopback): the same core,
/// deadline timer, shared-frame fan-out, HTTP API and admin routes. Control calls go to the
/// service's Swift API; triggers go through the signed HTTP API over loopback, like an app server's.
public final class InProcessPusherServer: PusherHarnessServer {
    public let server: MockServer
    public let service: PusherService
    public let host = "127.0.0.1"
    public let port: Int
    public let tlsPort: Int?
    /// The HTTP side (triggers), on the same listener.
    private let http: AdminHTTPPusherServer
    /// This process's instant of the service clock's zero.
    private let origin: ContinuousClock.Instant

    /// Starts the service on a loopback server (port 0, TLS with a freshly minted CA) serving `apps`.
    public static func start(apps: [PusherApp] = [], tls: Bool = true) throws -> InProcessPusherServer {
        let service = PusherService(apps: apps)
        var configuration = MockServerConfiguration.loopback(tls: tls)
        configuration.extensions = service.extensions
        let server = try MockServer(configuration: configuration)
        try server.start()
        return try InProcessPusherServer(server: server, service: service)
    }

    /// Wraps a started server whose extensions include `service`'s.
    public init(server: MockServer, service: PusherService) throws {
        guard let plain = server.address else { throw HarnessServerError.unsupported("a MockServer that is not started") }
        self.server = server
        self.service = service
        origin = ContinuousClock.now - .milliseconds(service.now.milliseconds)
        port = plain.port
        tlsPort = server.tlsAddress?.port
        http = try AdminHTTPPusherServer(address: "127.0.0.1:\(plain.port)")
    }

    /// Stops the server and joins its threads.
    public func shutdown() async { await server.shutdown() }

    public func caPEM() async throws -> String? { tlsPort == nil ? nil : server.certificateAuthorityPEM }

    public func register(_ app: PusherApp) async throws {
        do throws(PusherAppRegistrationError) {
            try service.register(app)
        } catch {
            throw HarnessServerError.requestFailed(operation: "register app", detail: error.description)
        }
    }

    public func installPlan(_ plan: PusherFaultPlan, appKey: String) async throws { service.faults.install(plan, for: appKey) }

    public func clearPlan(appKey: String) async throws { service.faults.clear(appKey) }

    public func journal(appKey: String) async throws -> PusherAppJournal {
        let entries = service.journal.entries(for: appKey)
        let page = service.authorizationPage(appKey: appKey)
        return PusherAppJournal(
            records: entries.map(PusherJournalRecord.init),
            authorizations: page.authorizations.map { PusherJournalAuthorization(socketID: $0.socketID, channel: $0.channel) }, refused: page.refused,
            origin: origin)
    }

    public func clearJournal(appKey: String) async throws { service.clearRecords(appKey: appKey) }

    public func trigger(app: PusherApp, channels: [String], event: String, data: String, excludeSocketID: String?) async throws {
        try await http.trigger(app: app, channels: channels, event: event, data: data, excludeSocketID: excludeSocketID)
    }

    public func send(text: String, appKey: String) async throws -> Int { service.send(text: text, appKey: appKey) }

    public func closeConnections(appKey: String, code: Int, reason: String) async throws -> Int {
        service.closeConnections(appKey: appKey, code: UInt16(clamping: code), reason: reason)
    }

    public func peerSubscribe(_ peer: PusherPeer, appKey: String, channel: String) async throws {
        do throws(PusherHarnessError) {
            try service.peerSubscribe(peer.name, userID: peer.userID, appKey: appKey, channel: channel)
        } catch {
            throw PusherSuiteError(error.description)
        }
    }

    public func peerClientEvent(_ peer: PusherPeer, appKey: String, channel: String, event: String, data: String) async throws {
        do throws(PusherHarnessError) {
            try service.peerClientEvent(peer.name, appKey: appKey, channel: channel, event: event, data: data)
        } catch {
            throw PusherSuiteError(error.description)
        }
    }

    public func peerLeave(_ peer: PusherPeer, appKey: String) async throws { service.peerLeave(peer.name, appKey: appKey) }

    public func peerMessages(_ peer: PusherPeer, appKey: String) async throws -> [PusherPeerMessage] {
        ((try? service.peerMessages(peer.name, appKey: appKey)) ?? []).map(PusherPeerMessage.init(text:))
    }

    public func removePeers(appKey: String) async throws { service.removePeers(appKey: appKey) }

    public func peerSignin(_ peer: PusherPeer, appKey: String, watchlist: [String]) async throws {
        do throws(PusherHarnessError) {
            try service.peerSignin(peer.name, userID: peer.userID, appKey: appKey, watchlist: watchlist)
        } catch {
            throw PusherSuiteError(error.description)
        }
    }

    public func terminateUser(app: PusherApp, userID: String) async throws { try await http.terminateUser(app: app, userID: userID) }

    public func webhookEvents(appKey: String) async throws -> [JSONValue] {
        do throws(PusherHarnessError) {
            return try service.webhookEvents(appKey: appKey).map(\.json)
        } catch {
            throw PusherSuiteError(error.description)
        }
    }
}
