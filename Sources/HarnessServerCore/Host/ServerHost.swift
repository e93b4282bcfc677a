// SPDX-License-Identifier: MIT
import Logging
import Synchronization

/// The listeners of one server and the protocol modules behind them: a plain listener, an
/// optional TLS listener with minted certificates, fault listeners, and a routing table
/// (``HostRoutes``) that sends each request to the module that claims its path or upgrade.
///
/// A host with only extensions (e.g. Pusher) is a complete server; `MockServer` composes one with
/// the PubNub module and the admin API.
public final class ServerHost: Sendable {
    /// The settings the host was made with.
    public let configuration: TransportConfiguration
    /// The certificates minted for this host (test CA and the leaves of the TLS catalog).
    public let tlsMaterial: TLSMaterial

    package let http: HTTPServer
    private let tlsFactory: StreamFactory
    /// Accepts and handshake outcomes on the listeners `openListener` opened.
    private let connectionEventLog: ConnectionEventLog
    private let addresses = Mutex<Addresses?>(nil)

    private struct Addresses {
        var plain: BoundAddress
        var tls: BoundAddress?
        var faultListeners: [FaultListenerSpec: BoundAddress]
    }

    /// Creates a stopped host and mints its TLS certificates.
    ///
    /// - Parameters:
    ///   - parseErrorResponse: the answer to a request that cannot be framed (or not in time).
    ///   - makeRoutes: called once, here, with the host's scheduler and certificates; returns the routing table.
    /// - Throws: ``ServerHostError/tls(_:)`` when the certificates or TLS contexts cannot be made.
    package init(
        configuration: TransportConfiguration, logger: Logger? = nil,
        parseErrorResponse: @escaping HTTPParseErrorResponder = { $0.plainResponse },
        makeRoutes: (_ setup: HostSetup) -> HostRoutes
    ) throws(ServerHostError) {
        self.configuration = configuration
        let material: TLSMaterial
        do {
            material = try TLSMaterial.generate()
            tlsFactory = try StreamFactory.tls(material: material, recordLayer: configuration.tlsRecordLayer)
        } catch {
            throw .tls(error)
        }
        tlsMaterial = material
        let eventLog = ConnectionEventLog()
        connectionEventLog = eventLog
        // Connection events go to the per-port log (they are no warnings); the rest to the logger.
        let diagnostics = { @Sendable (diagnostic: ConnectionDiagnostic) -> Void in
            if case .connection(let event) = diagnostic {
                eventLog.record(event)
            } else {
                logger?.warning("\(diagnostic)")
            }
        }
        http = HTTPServer(
            configuration: configuration.httpServer, parseErrorResponse: parseErrorResponse, logger: logger, diagnostics: diagnostics
        ) { scheduler in
            let routes = makeRoutes(HostSetup(scheduler: scheduler, tlsMaterial: material))
            for case let scheduling as any SchedulingServerExtension in routes.upgrades { scheduling.attach(scheduler: scheduler) }
            let root = routes.handler(cors: configuration.cors)
            // Not installed when the logger would drop its lines anyway: then it costs nothing per request.
            guard let level = configuration.requestLogLevel, let logger, logger.logLevel <= level else {
                return (root, routes.upgradeRouter)
            }
            return (RequestLog(next: root, logger: logger, level: level), routes.upgradeRouter)
        }
    }

    /// A host serving only `extensions` (their path prefixes and upgrades; 404 elsewhere).
    /// Administrative prefixes (under `/__admin/`) answer loopback peers only unless `adminAllowsRemotePeers`.
    public convenience init(
        configuration: TransportConfiguration, extensions: [any ServerExtension], adminAllowsRemotePeers: Bool = false,
        logger: Logger? = nil
    ) throws(ServerHostError) {
        try self.init(configuration: configuration, logger: logger) { _ in
            let split = HostRoutes.extensionRoutes(extensions, admission: loopbackAdmission(allowRemote: adminAllowsRemotePeers))
            return HostRoutes(routes: split.administrative + split.other, upgrades: extensions)
        }
    }

    /// Binds every listener and starts serving; returns the plain HTTP address.
    ///
    /// - Throws: ``ServerHostError/bind(_:)`` when a port cannot be bound or the host was started before.
    @discardableResult
    public func start() throws(ServerHostError) -> BoundAddress {
        do throws(HTTPServerError) {
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
        } catch {
            http.stop()
            throw .bind(error)
        }
    }

    /// Timers on the host's event loops (for modules: presence sweeps, activity timeouts).
    package var scheduler: any Scheduler { http.scheduler }

    /// Accepted sockets not yet closed (every listener); for leak checks.
    public var openConnectionCount: Int { http.openConnectionCount }

    /// Connections upgraded to WebSocket and not yet closed (also in `openConnectionCount`).
    public var openWebSocketCount: Int { http.openWebSocketCount }

    /// WebSocket connections aborted because their peer stopped reading (outbound buffer limit).
    public var webSocketOverflowCount: Int { http.webSocketOverflowCount }

    /// Connections the host closed on its own: header and idle timeouts, TLS on the plain port.
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

    // MARK: - Listener faults

    /// Opens a loopback listener applying `fault` to every connection.
    public func openListener(fault: ListenerFault, port: Int = 0) throws(HTTPServerError) -> BoundAddress {
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
    public func refusedPort() throws(HTTPServerError) -> BoundAddress {
        try http.reserveRefusedPort(host: configuration.host)
    }

    // MARK: - Lifecycle

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

/// What a module gets while the host is being made: the timers and the certificates.
package struct HostSetup: Sendable {
    /// Timers on the host's event loops.
    package let scheduler: any Scheduler
    /// The certificates the TLS listeners serve (the CA is what clients must trust).
    package let tlsMaterial: TLSMaterial
}
