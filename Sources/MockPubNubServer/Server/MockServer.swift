// SPDX-License-Identifier: MIT
import Logging
import Synchronization

/// The mock PubNub server: listeners, the fault layer, the admin API and the PubNub service in one.
///
/// Start it on port 0 in-process, read the bound addresses, drive faults through the Swift API
/// (or `/__admin/` over HTTP), and stop it deterministically:
/// ```swift
/// let server = try MockServer(configuration: .loopback())
/// let address = try server.start()
/// try server.installPlan(json: Array(#"{"rules":[{"fault":{"kind":"hang"}}]}"#.utf8), subscribeKey: "sub-a")
/// defer { server.stop() }
/// ```
public final class MockServer: Sendable {
    /// The settings the server was made with.
    public let configuration: MockServerConfiguration
    /// The PubNub service (state: messages, presence, groups, grants).
    public let service: PubNubService
    /// The fault layer (plans and journals per subscribe key).
    package let faults: FaultLayer
    /// The listeners and the routing table (admin API, extensions, PubNub behind the fault layer).
    public let host: ServerHost

    /// Creates a stopped server and mints its TLS certificates.
    ///
    /// - Throws: `MockServerError` when the certificates or TLS contexts cannot be made.
    public init(configuration: MockServerConfiguration = MockServerConfiguration(), logger: Logger? = nil) throws(MockServerError) {
        self.configuration = configuration
        let control = ListenerControlBox()
        var made: (PubNubService, FaultLayer)?
        do throws(ServerHostError) {
            host = try ServerHost(configuration: Self.transport(configuration), logger: logger, parseErrorResponse: BalancerErrors.response) {
                setup in
                let service = PubNubService(configuration: configuration.pubNub, scheduler: setup.scheduler)
                let faults = FaultLayer(
                    upstream: service, scheduler: setup.scheduler,
                    cors: configuration.responses.crossOrigin ? PubNubCORS.policy : nil,
                    compression: configuration.responses.compression, logger: logger)
                made = (service, faults)
                return Self.routes(
                    configuration: configuration, service: service, faults: faults, control: control,
                    certificateAuthorityPEM: setup.tlsMaterial.certificateAuthorityPEM)
            }
        } catch {
            throw MockServerError(host: error)
        }
        guard let (service, faults) = made else { throw MockServerError(.notRunning) }
        self.service = service
        self.faults = faults
        control.attach(host: host)
    }

    /// The transport settings, with the file storage's upload route allowed a whole file as its body
    /// (every other path keeps the general limit).
    private static func transport(_ configuration: MockServerConfiguration) -> TransportConfiguration {
        var transport = configuration.transport
        transport.bodyLimitOverrides.append(
            BodyLimitOverride(pathPrefix: FileRoutes.storagePrefix, maxBodyBytes: configuration.pubNub.files.maxUploadBodyBytes))
        if configuration.responses.crossOrigin && transport.cors == nil { transport.cors = PubNubCORS.policy }
        return transport
    }

    /// The routing table: extensions' admin routes (behind the admin API's peer check), the admin API,
    /// the extensions' other prefixes, and the fault layer in front of the PubNub service for the rest
    /// (behind the interceptor, when one is configured).
    private static func routes(
        configuration: MockServerConfiguration, service: PubNubService, faults: FaultLayer, control: ListenerControlBox,
        certificateAuthorityPEM: String
    ) -> HostRoutes {
        let admin = AdminAPI(
            faults: faults, listeners: control, allowRemote: configuration.admin.allowsRemotePeers,
            resetService: { service.reset() }, certificateAuthorityPEM: certificateAuthorityPEM,
            serviceControl: AdminServiceControl(service: service))
        let split = HostRoutes.extensionRoutes(configuration.extensions, admission: { admin.refusal(for: $0) })
        let adminRoutes = [HostRoute(.exact("/__admin"), handler: admin), HostRoute(.prefix(HostRoutes.adminPrefix), handler: admin)]
        let fallback: any RequestHandler = configuration.interceptor.map { InterceptingHandler(interceptor: $0, next: faults) } ?? faults
        var routes = HostRoutes(routes: split.administrative + adminRoutes + split.other, upgrades: configuration.extensions, fallback: fallback)
        // The fault layer journals preflights and lets `preflight-failure` faults fail them.
        routes.fallbackAnswersPreflight = configuration.responses.crossOrigin
        return routes
    }

    /// Binds every listener and starts serving; returns the plain HTTP address.
    ///
    /// - Throws: `MockServerError` when a port cannot be bound or the server was started before.
    @discardableResult
    public func start() throws(MockServerError) -> BoundAddress {
        do throws(ServerHostError) { return try host.start() } catch { throw MockServerError(host: error) }
    }

    /// The certificates minted for this server (test CA and the leaves of the TLS catalog).
    public var tlsMaterial: TLSMaterial { host.tlsMaterial }

    /// Timers on the server's event loops (for extensions: presence sweeps, activity timeouts).
    package var scheduler: any Scheduler { host.scheduler }

    /// Accepted sockets not yet closed (every listener); for leak checks.
    public var openConnectionCount: Int { host.openConnectionCount }

    /// Connections upgraded to WebSocket and not yet closed (also in `openConnectionCount`).
    public var openWebSocketCount: Int { host.openWebSocketCount }

    /// WebSocket connections aborted because their peer stopped reading (outbound buffer limit).
    public var webSocketOverflowCount: Int { host.webSocketOverflowCount }

    /// Connections the server closed on its own: header and idle timeouts, TLS on the plain port.
    public var connectionCloseCounts: ConnectionCloseCounts { host.connectionCloseCounts }

    /// The plain HTTP address (`nil` before `start()`).
    public var address: BoundAddress? { host.address }

    /// The TLS address (`nil` when no TLS port was configured or before `start()`).
    public var tlsAddress: BoundAddress? { host.tlsAddress }

    /// The address of a fault listener configured at start.
    public func address(of spec: FaultListenerSpec) -> BoundAddress? { host.address(of: spec) }

    /// The PEM of the test CA that signs the trusted leaf: what clients must trust.
    public var certificateAuthorityPEM: String { host.certificateAuthorityPEM }

    // MARK: - Faults and journal

    /// Installs `plan` for `subscribeKey`, replacing any plan it had; returns the seed in use.
    @discardableResult
    public func installPlan(_ plan: FaultPlan, subscribeKey: String) throws(FaultPlanError) -> UInt64 {
        try faults.installPlan(plan, for: subscribeKey)
    }

    /// Installs a plan given as JSON (docs/fault-plans.md); returns the seed in use.
    @discardableResult
    public func installPlan(json: [UInt8], subscribeKey: String) throws(FaultPlanError) -> UInt64 {
        try faults.installPlan(json: json, for: subscribeKey)
    }

    /// Removes the plan of `subscribeKey`; its requests are served normally again.
    public func clearPlan(subscribeKey: String) {
        _ = faults.clearPlan(for: subscribeKey)
    }

    /// The requests journaled for `subscribeKey`, oldest first, after sequence number `since`.
    public func journal(subscribeKey: String, since: UInt64 = 0) -> [JournalEntry] {
        faults.journal(for: subscribeKey, since: since)
    }

    // MARK: - Listener faults

    /// Opens a loopback listener applying `fault` to every connection.
    public func openListener(fault: ListenerFault, port: Int = 0) throws(HTTPServerError) -> BoundAddress {
        try host.openListener(fault: fault, port: port)
    }

    /// Closes a listener opened with `openListener` (and forgets its connection events).
    public func closeListener(port: Int) { host.closeListener(port: port) }

    /// What happened to the connections of a listener opened with `openListener` before any HTTP:
    /// accepts (with the listener fault), failed or abandoned TLS handshakes; oldest first.
    public func connectionEvents(port: Int) -> [ConnectionEvent] { host.connectionEvents(port: port) }

    /// Applies `faults` to the next connections accepted on `port`, one each.
    public func queueConnectionFaults(_ faults: [ListenerFault], port: Int) { host.queueConnectionFaults(faults, port: port) }

    /// A port on which connections are refused: bound, never listening, reserved until `stop()`.
    public func refusedPort() throws(HTTPServerError) -> BoundAddress { try host.refusedPort() }

    // MARK: - Lifecycle

    /// Forgets every message, presence, group, grant, plan and journal entry.
    public func reset() {
        faults.reset()
        service.reset()
    }

    /// Stops serving: closes listeners and connections and joins the loop threads. Idempotent.
    /// Blocks; from async code use `shutdown()`.
    public func stop() {
        host.stop()
    }

    /// `stop()` without blocking the Swift concurrency pool.
    public func shutdown() async {
        await host.shutdown()
    }
}

extension MockServer: SchedulerProviding {}
