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
    /// The certificates minted for this server (test CA and the leaves of the TLS catalog).
    public let tlsMaterial: TLSMaterial

    private let http: HTTPServer
    private let tlsFactory: StreamFactory
    /// Accepts and handshake outcomes on the listeners `openListener` opened.
    private let connectionEventLog: ConnectionEventLog
    private let addresses = Mutex<Addresses?>(nil)

    private struct Addresses {
        var plain: BoundAddress
        var tls: BoundAddress?
        var faultListeners: [FaultListenerSpec: BoundAddress]
    }

    /// Creates a stopped server and mints its TLS certificates.
    ///
    /// - Throws: `MockServerError` when the certificates or TLS contexts cannot be made.
    public init(configuration: MockServerConfiguration = MockServerConfiguration(), logger: Logger? = nil) throws {
        self.configuration = configuration
        let material: TLSMaterial
        do {
            material = try TLSMaterial.generate()
            tlsFactory = try StreamFactory.tls(material: material)
        } catch {
            throw MockServerError(.tls("\(error)"))
        }
        tlsMaterial = material
        let authorityPEM = material.certificateAuthorityPEM
        var httpConfiguration = HTTPServerConfiguration()
        httpConfiguration.host = configuration.host
        httpConfiguration.port = configuration.port
        if let loops = configuration.eventLoopCount { httpConfiguration.eventLoopCount = max(1, loops) }
        httpConfiguration.headerTimeout = configuration.headerTimeout
        httpConfiguration.idleTimeout = configuration.idleTimeout
        httpConfiguration.webSocket = configuration.webSocket
        let extensions = configuration.extensions

        var serviceConfiguration = PubNubServiceConfiguration()
        serviceConfiguration.keysets = configuration.keysets
        serviceConfiguration.longPollIdleTimeout = configuration.longPollIdleTimeout
        serviceConfiguration.presenceTimeoutFloor = configuration.presenceTimeoutFloor

        let control = ListenerControlBox()
        var made: (PubNubService, FaultLayer)?
        let eventLog = ConnectionEventLog()
        connectionEventLog = eventLog
        let diagnostics = { @Sendable (diagnostic: ConnectionDiagnostic) -> Void in
            if case .connection(let event) = diagnostic {
                eventLog.record(event)
            } else {
                logger?.warning("\(diagnostic)")
            }
        }
        http = HTTPServer(
            configuration: httpConfiguration, parseErrorResponse: BalancerErrors.response, logger: logger, diagnostics: diagnostics,
            upgradeRouter: extensions.isEmpty ? nil : ExtensionUpgradeRouter(extensions: extensions)
        ) { scheduler in
            for case let scheduling as any SchedulingServerExtension in extensions { scheduling.attach(scheduler: scheduler) }
            let service = PubNubService(configuration: serviceConfiguration, scheduler: scheduler)
            let faults = FaultLayer(upstream: service, scheduler: scheduler, logger: logger)
            let admin = AdminAPI(
                faults: faults, listeners: control, allowRemote: configuration.adminAllowsRemotePeers,
                resetService: { service.reset() }, certificateAuthorityPEM: authorityPEM,
                serviceControl: AdminServiceControl(service: service))
            made = (service, faults)
            // Extensions see their path prefixes before the fault layer; without any, PubNub alone.
            let served: any RequestHandler = extensions.isEmpty ? faults : ExtensionHTTPRouter(extensions: extensions, next: faults)
            let root: any RequestHandler = AdminRouter(admin: admin, extensions: extensions, next: served)
            guard let level = configuration.requestLogLevel, let logger else { return root }
            return RequestLog(next: root, logger: logger, level: level)
        }
        guard let (service, faults) = made else { throw MockServerError(.notRunning) }
        self.service = service
        self.faults = faults
        control.attach(http: http, tls: tlsFactory, host: configuration.host)
    }

    /// Binds every listener and starts serving; returns the plain HTTP address.
    ///
    /// - Throws: `MockServerError` when a port cannot be bound or the server was started before.
    @discardableResult
    public func start() throws -> BoundAddress {
        do {
            let plain = try http.start()
            var tls: BoundAddress?
            if let tlsPort = configuration.tlsPort {
                tls = try http.addListener(
                    host: configuration.host, port: tlsPort, fault: configuration.tlsFault, streamFactory: tlsFactory)
            }
            var extra: [FaultListenerSpec: BoundAddress] = [:]
            for spec in configuration.faultListeners {
                extra[spec] = try http.addListener(
                    host: configuration.host, port: spec.port, fault: spec.fault,
                    streamFactory: spec.fault.isTLS ? tlsFactory : nil)
            }
            addresses.withLock { $0 = Addresses(plain: plain, tls: tls, faultListeners: extra) }
            return plain
        } catch let error as MockServerError {
            http.stop()
            throw error
        } catch {
            http.stop()
            throw MockServerError(.bind("\(error)"))
        }
    }

    /// Timers on the server's event loops (for extensions: presence sweeps, activity timeouts).
    package var scheduler: any Scheduler { http.scheduler }

    /// Accepted sockets not yet closed (every listener); for leak checks.
    public var openConnectionCount: Int { http.openConnectionCount }

    /// Connections upgraded to WebSocket and not yet closed (also in `openConnectionCount`).
    public var openWebSocketCount: Int { http.openWebSocketCount }

    /// WebSocket connections aborted because their peer stopped reading (outbound buffer limit).
    public var webSocketOverflowCount: Int { http.webSocketOverflowCount }

    /// Connections the server closed on its own: header and idle timeouts, TLS on the plain port.
    public var connectionCloseCounts: ConnectionCloseCounts { http.connectionCloseCounts }

    /// The plain HTTP address (`nil` before `start()`).
    public var address: BoundAddress? { addresses.withLock { $0?.plain } }

    /// The TLS address (`nil` when no TLS port was configured or before `start()`).
    public var tlsAddress: BoundAddress? { addresses.withLock { $0?.tls } }

    /// The address of a fault listener configured at start.
    public func address(of spec: FaultListenerSpec) -> BoundAddress? {
        addresses.withLock { $0?.faultListeners[spec] }
    }

    /// The PEM of the test CA that signs the trusted leaf: what clients must trust.
    public var certificateAuthorityPEM: String { tlsMaterial.certificateAuthorityPEM }

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
    public func openListener(fault: ListenerFault, port: Int = 0) throws -> BoundAddress {
        let address = try http.addListener(
            host: configuration.host, port: port, fault: fault, streamFactory: fault.isTLS ? tlsFactory : nil)
        // Before anyone knows the port, so its first accept is kept.
        connectionEventLog.watch(address.port)
        return address
    }

    /// Closes a listener opened with `openListener` (and forgets its connection events).
    public func closeListener(port: Int) {
        http.removeListener(port: port)
        connectionEventLog.unwatch(port)
    }

    /// What happened to the connections of a listener opened with `openListener` before any HTTP:
    /// accepts (with the listener fault), failed or abandoned TLS handshakes; oldest first.
    public func connectionEvents(port: Int) -> [ConnectionEvent] {
        connectionEventLog.events(port: port)
    }

    /// Applies `faults` to the next connections accepted on `port`, one each.
    public func queueConnectionFaults(_ faults: [ListenerFault], port: Int) {
        http.queueConnectionFaults(faults, port: port)
    }

    /// A port on which connections are refused: bound, never listening, reserved until `stop()`.
    public func refusedPort() throws -> BoundAddress {
        try http.reserveRefusedPort(host: configuration.host)
    }

    // MARK: - Lifecycle

    /// Forgets every message, presence, group, grant, plan and journal entry.
    public func reset() {
        faults.reset()
        service.reset()
    }

    /// Stops serving: closes listeners and connections and joins the loop threads. Idempotent.
    /// Blocks; from async code use `shutdown()`.
    public func stop() {
        http.stop()
    }

    /// `stop()` without blocking the Swift concurrency pool.
    public func shutdown() async {
        await http.shutdown()
    }
}
