// SPDX-License-Identifier: MIT
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
    /// How long `configure` and `close` may take.
    public internal(set) var controlTimeout: Duration

    /// - Parameters:
    ///   - command: a shell command line (run with `/bin/sh -c "exec COMMAND"`).
    ///   - name: the client's name in reports and expectation files.
    public init(command: String, name: String = "external", capabilities: Set<Capability> = Set(Capability.allCases),
                controlTimeout: Duration = .seconds(5)) {
        self.name = name
        self.command = command
        self.capabilities = capabilities
        self.controlTimeout = controlTimeout
    }

    public func makeSession(configuration: ClientSessionConfiguration) async throws -> any ClientSession {
        let connection = try DriverConnection(command: command)
        let session = ExternalSession(connection: connection, controlTimeout: controlTimeout)
        do {
            let reply = try await connection.request(.object(configuration.driverFields), timeout: controlTimeout)
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
        switch try await connection.request(.object(operation.driverFields), timeout: nil) {
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
