// SPDX-License-Identifier: MIT
import HarnessJSON
import Foundation

/// A client in any language, run as a process speaking the JSON-lines driver protocol
/// (docs/driver-protocol.md) on its standard input and output. One process per case, or one
/// process for many cases when the driver declares `"reuse": true` in `hello` ("Reuse").
public struct ExternalProcessClient: ConformanceClient {
    public let name: String
    public let command: String
    /// What the client can do: until ``prepared()`` has asked the driver, the capabilities given
    /// to the initializer, or protocol 1's (docs/driver-protocol.md, "Protocol versions").
    public internal(set) var capabilities: Set<Capability>
    /// Where ``capabilities`` come from (the driver's list, its protocol version, or assumed).
    public internal(set) var capabilityOrigin: CapabilityOrigin
    /// The capabilities given to the initializer: used when the driver declares neither a list
    /// nor a protocol version.
    let givenCapabilities: Set<Capability>?
    /// The profile the driver declared in `hello` (reference until ``prepared()`` has asked).
    public internal(set) var profile: ClientProfile = .reference
    /// The driver's `hello`, once ``prepared()`` has asked (nil for drivers without one).
    public internal(set) var hello: DriverHello?
    /// How long `close` may take (and `configure`, if longer than ``startTimeout``).
    public internal(set) var controlTimeout: Duration
    /// How long the driver may take to start and answer `hello` or `configure`: an interpreter
    /// starting on a busy machine, outside every case's budget.
    public var startTimeout: Duration
    /// Whether a driver that declares `"reuse": true` serves many cases (`run --no-driver-reuse`: no).
    public let driverReuse: Bool
    /// The warm processes between cases; enabled by ``prepared()`` when the driver offers reuse.
    package let pool: DriverPool

    /// - Parameters:
    ///   - command: a shell command line (run with `/bin/sh -c "exec COMMAND"`).
    ///   - name: the client's name in reports and expectation files.
    ///   - driverReuse: keep processes between cases when the driver's `hello` offers it.
    ///   - warmDrivers: at most this many processes wait between cases (the run's concurrency).
    ///   - capabilities: what the client can do when its driver declares neither `capabilities`
    ///     nor `protocol` in `hello`; `nil`: protocol 1's.
    public init(command: String, name: String = "external", capabilities: Set<Capability>? = nil,
                controlTimeout: Duration = .seconds(5), startTimeout: Duration = .seconds(30),
                driverReuse: Bool = true, warmDrivers: Int = 16) {
        self.name = name
        self.command = command
        self.givenCapabilities = capabilities
        self.capabilities = capabilities ?? DriverProtocolVersion.capabilities(of: 1)
        self.capabilityOrigin = capabilities == nil ? .firstProtocolAssumed(answeredHello: false) : .client
        self.controlTimeout = controlTimeout
        self.startTimeout = startTimeout
        self.driverReuse = driverReuse
        self.pool = DriverPool(capacity: warmDrivers)
    }

    public func makeSession(configuration: ClientSessionConfiguration) async throws -> any ClientSession {
        let opened = try await pool.open(command: command, family: .pubnub, configure: .object(JSONObject(configuration.driverFields)),
                                         warmTimeout: controlTimeout, startTimeout: max(startTimeout, controlTimeout))
        let session = ExternalSession(connection: opened.connection, streams: opened.streams, pool: pool, controlTimeout: controlTimeout)
        do {
            if case .unsupported(let what) = try opened.reply.get() { throw ClientAdapterError.unsupported(what) }
        } catch {
            await session.close()
            throw error
        }
        return session
    }

    /// True unless the driver's processes are kept warm between cases (prepared, with reuse).
    public var startsProcessPerCase: Bool { !pool.isEnabled }

    /// Ends the driver processes kept between cases (at the end of a run; they also end by
    /// themselves after a few idle seconds).
    public func endWarmDrivers() { pool.drain() }

    /// How many processes the run started, reused and discarded (docs/driver-protocol.md, "Reuse").
    public var driverCounts: (started: Int, reused: Int, discarded: Int) {
        let counts = pool.counts
        return (counts.started, counts.reused, counts.discarded)
    }

    /// Why the run's last discarded driver process was discarded, if one was.
    public var lastDriverDiscard: String? { pool.lastDiscard }
}

/// One case on a driver process seen as a ``ClientSession``.
struct ExternalSession: ClientSession {
    let connection: DriverConnection
    let streams: DriverConnection.SessionStreams
    let pool: DriverPool
    let controlTimeout: Duration
    private let ticket: SessionTicket

    init(connection: DriverConnection, streams: DriverConnection.SessionStreams, pool: DriverPool, controlTimeout: Duration) {
        self.connection = connection
        self.streams = streams
        self.pool = pool
        self.controlTimeout = controlTimeout
        ticket = SessionTicket(number: streams.number)
    }

    var events: AsyncStream<ClientEvent> { streams.events }

    func perform(_ operation: ClientOperation) async throws -> OperationResult {
        switch try await connection.request(.object(JSONObject(operation.driverFields)), timeout: nil, session: streams.number) {
        case .result(let result): return result
        case .unsupported(let what): throw ClientAdapterError.unsupported("\(operation.name) (\(what))")
        case .error(let detail): throw ClientAdapterError.protocolViolation("\(operation.name): \(detail)")
        }
    }

    func close() async {
        guard ticket.claimClose() else { return }
        await pool.close(connection, session: streams.number, timeout: controlTimeout)
    }
}
