// SPDX-License-Identifier: MIT
import Foundation
import HarnessJSON

/// The event lines of a Pusher driver (docs/driver-protocol.md, "Pusher"), pure.
enum PusherDriverLines {
    /// The observation an event line carries; nil for a reply or log line (decoded as usual).
    static func event(_ text: String) throws(ClientAdapterError) -> PusherObservation? {
        guard let value = try? JSONValue.parse(text), value.objectValue != nil, let type = value["type"]?.stringValue else {
            throw .protocolViolation("not a JSON object with a type: \(text.prefix(200))")
        }
        if value["id"] != nil || type == "log" { return nil }
        func string(_ name: String) throws(ClientAdapterError) -> String {
            guard let text = value[name]?.stringValue else { throw .protocolViolation("\(type) without \(name): \(text.prefix(200))") }
            return text
        }
        switch type {
        case "connected": return .connected(socketID: try string("socketID"))
        case "disconnected": return .disconnected(code: value["code"]?.intValue)
        case "subscribed": return .subscribed(channel: try string("channel"))
        case "subscriptionError": return .subscriptionError(channel: try string("channel"), message: value["message"]?.stringValue ?? "")
        case "error": return .errorEvent(code: value["code"]?.intValue, message: value["message"]?.stringValue ?? "")
        case "event":
            return .event(channel: try string("channel"), name: try string("event"), data: value["data"], userID: value["userID"]?.stringValue)
        case "memberAdded": return .memberAdded(channel: try string("channel"), userID: try string("userID"))
        case "memberRemoved": return .memberRemoved(channel: try string("channel"), userID: try string("userID"))
        case "members":
            return .members(channel: try string("channel"), userIDs: (value["userIDs"]?.arrayValue ?? []).compactMap(\.stringValue))
        case "signedIn": return .signedIn(userID: try string("userID"))
        case "userEvent": return .userEvent(name: try string("event"), data: value["data"])
        case "watchlist":
            return .watchlist(name: try string("name"), userIDs: (value["userIDs"]?.arrayValue ?? []).compactMap(\.stringValue))
        default: throw .protocolViolation("unknown Pusher event line type \"\(type)\"")
        }
    }
}

/// A Pusher client in any language, run as a driver process (one per case) speaking the JSON-lines
/// driver protocol with the Pusher operations and events; its `hello` says `"protocol":"pusher"`.
public struct PusherDriverClient: PusherConformanceClient {
    public let name: String
    public let command: String
    public internal(set) var capabilities: Set<PusherCapability> = Set(PusherCapability.allCases)
    public internal(set) var profile: PusherProfile = .reference
    public var controlTimeout: Duration
    public var startTimeout: Duration
    /// Set when the driver's `hello` named another protocol (a PubNub driver): every session fails with it.
    public internal(set) var protocolMismatch: String?
    /// Whether a driver that declares `"reuse": true` serves many cases (`run --no-driver-reuse`: no).
    public let driverReuse: Bool
    /// The warm processes between cases (docs/driver-protocol.md, "Reuse").
    package let pool: DriverPool

    public init(command: String, name: String = "external", controlTimeout: Duration = .seconds(5), startTimeout: Duration = .seconds(30),
                driverReuse: Bool = true, warmDrivers: Int = 16) {
        self.command = command
        self.name = name
        self.controlTimeout = controlTimeout
        self.startTimeout = startTimeout
        self.driverReuse = driverReuse
        self.pool = DriverPool(capacity: warmDrivers)
    }

    /// Ends the driver processes kept between cases (at the end of a run).
    public func endWarmDrivers() { pool.drain() }

    /// True unless the driver's processes are kept warm between cases (prepared, with reuse).
    public var startsProcessPerCase: Bool { !pool.isEnabled }

    /// How many processes the run started, reused and discarded.
    public var driverCounts: (started: Int, reused: Int, discarded: Int) {
        let counts = pool.counts
        return (counts.started, counts.reused, counts.discarded)
    }

    /// Why the run's last discarded driver process was discarded, if one was.
    public var lastDriverDiscard: String? { pool.lastDiscard }

    /// Asks the driver's `hello` for its capabilities and profile; a driver whose `protocol` is not
    /// `pusher` keeps the defaults (and will fail its cases with the reason).
    public func prepared() async -> any PusherConformanceClient {
        guard let connection = try? DriverConnection(command: command, family: .pusher) else { return self }
        guard case .result(let result)? = try? await connection.request(["type": "hello"], timeout: max(startTimeout, controlTimeout)) else {
            connection.terminate()
            return self
        }
        var copy = self
        let declared = result.data?["protocol"]?.stringValue
        if declared == "pusher", driverReuse, result.data?["reuse"]?.boolValue == true {
            // The probe's process serves the first case (docs/driver-protocol.md, "Reuse").
            pool.enable()
            pool.adopt(connection)
        } else {
            _ = try? await connection.request(["type": "close"], timeout: controlTimeout)
            connection.terminate()
        }
        if declared != "pusher" {
            copy.protocolMismatch = "the driver's hello declares protocol \(declared.map { "\"\($0)\"" } ?? "none"), not \"pusher\" (docs/driver-protocol.md, Pusher drivers)"
        }
        if let list = result.data?["capabilities"]?.arrayValue {
            copy.capabilities = Set(list.compactMap { $0.stringValue.flatMap(PusherCapability.init(rawValue:)) })
        }
        copy.profile = PusherProfile(json: result.data?["profile"])
        if let ms = result.data?["controlTimeoutMs"]?.intValue { copy.controlTimeout = max(controlTimeout, .milliseconds(min(max(ms, 1), 30_000))) }
        return copy
    }

    public func makeSession(configuration: PusherSessionConfiguration) async throws -> any PusherClientSession {
        if let protocolMismatch { throw ClientAdapterError.startFailed(protocolMismatch) }
        let opened = try await pool.open(command: command, family: .pusher, configure: .object(JSONObject(configuration.driverFields)),
                                         warmTimeout: controlTimeout, startTimeout: max(startTimeout, controlTimeout))
        let session = PusherDriverSession(connection: opened.connection, streams: opened.streams, pool: pool, controlTimeout: controlTimeout)
        do {
            let reply = try opened.reply.get()
            if case .unsupported(let what) = reply { throw ClientAdapterError.unsupported(what) }
            if case .error(let what) = reply { throw ClientAdapterError.startFailed(what) }
        } catch {
            await session.close()
            throw error
        }
        return session
    }
}

struct PusherDriverSession: PusherClientSession {
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

    var events: AsyncStream<PusherObservation> { streams.pusherEvents }

    func perform(_ operation: PusherOperation) async throws {
        switch try await connection.request(.object(JSONObject(operation.driverFields)), timeout: .seconds(10), session: streams.number) {
        case .result: return
        case .unsupported(let what): throw ClientAdapterError.unsupported("\(operation.name) (\(what))")
        case .error(let detail): throw ClientAdapterError.protocolViolation("\(operation.name): \(detail)")
        }
    }

    func close() async {
        guard ticket.claimClose() else { return }
        await pool.close(connection, session: streams.number, timeout: controlTimeout)
    }
}
