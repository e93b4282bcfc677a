// SPDX-License-Identifier: MIT
import HarnessJSON
import Foundation

/// A client in any language, run as a process speaking the JSON-lines driver protocol
/// (docs/driver-protocol.md) on its standard input and output. One process per case.
public struct ExternalProcessClient: ConformanceClient {
    public let name: String
    public let command: String
    public internal(set) var capabilities: Set<Capability>
    /// The profile the driver declared in `hello` (reference until ``prepared()`` has asked).
    public internal(set) var profile: ClientProfile = .reference
    /// The driver's `hello`, once ``prepared()`` has asked (nil for drivers without one).
    public internal(set) var hello: DriverHello?
    /// How long `close` may take (and `configure`, if longer than ``startTimeout``).
    public internal(set) var controlTimeout: Duration
    /// How long the driver may take to start and answer `hello` or `configure`: an interpreter
    /// starting on a busy machine, outside every case's budget.
    public var startTimeout: Duration

    /// - Parameters:
    ///   - command: a shell command line (run with `/bin/sh -c "exec COMMAND"`).
    ///   - name: the client's name in reports and expectation files.
    public init(command: String, name: String = "external", capabilities: Set<Capability> = Set(Capability.allCases),
                controlTimeout: Duration = .seconds(5), startTimeout: Duration = .seconds(30)) {
        self.name = name
        self.command = command
        self.capabilities = capabilities
        self.controlTimeout = controlTimeout
        self.startTimeout = startTimeout
    }

    public func makeSession(configuration: ClientSessionConfiguration) async throws -> any ClientSession {
        let connection = try DriverConnection(command: command)
        let session = ExternalSession(connection: connection, controlTimeout: controlTimeout)
        do {
            // The first request of a fresh process: its reply waits for the start-up too.
            let reply = try await connection.request(.object(JSONObject(configuration.driverFields)), timeout: max(startTimeout, controlTimeout))
            if case .unsupported(let what) = reply { throw ClientAdapterError.unsupported(what) }
        } catch {
            await session.close()
            throw error
        }
        return session
    }
}

/// One driver process seen as a ``ClientSession``.
struct ExternalSession: ClientSession {
    let connection: DriverConnection
    let controlTimeout: Duration

    var events: AsyncStream<ClientEvent> { connection.events }

    func perform(_ operation: ClientOperation) async throws -> OperationResult {
        switch try await connection.request(.object(JSONObject(operation.driverFields)), timeout: nil) {
        case .result(let result): return result
        case .unsupported(let what): throw ClientAdapterError.unsupported("\(operation.name) (\(what))")
        case .error(let detail): throw ClientAdapterError.protocolViolation("\(operation.name): \(detail)")
        }
    }

    func close() async {
        _ = try? await connection.request(["type": "close"], timeout: controlTimeout)
        connection.terminate()
    }
}
