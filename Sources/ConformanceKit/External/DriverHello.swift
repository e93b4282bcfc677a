// SPDX-License-Identifier: MIT

/// What a driver says about its client in answer to `hello` (docs/driver-protocol.md).
public struct DriverHello: Sendable, Hashable {
    /// The client's own name and version, for reports (e.g. `pubnub-python 10.8.0 sync`).
    public var description: String
    /// The capabilities the driver lists; `nil` when it lists none (see ``resolvedCapabilities``).
    public var capabilities: Set<Capability>?
    /// The protocol version the driver was written for (`"protocol": N`); `nil` when it names
    /// none or names another family's protocol (a string such as `"pusher"`).
    public var protocolVersion: Int?
    public var profile: ClientProfile
    /// How long `configure` and `close` may take, when the driver asks for more than the default
    /// (a runtime that starts slowly); capped at 30 s.
    public var controlTimeout: Duration?
    /// Whether the driver can serve another case after `close` (`"reuse": true`; "Reuse").
    public var reuse: Bool

    public init(description: String, capabilities: Set<Capability>?, protocolVersion: Int? = nil, profile: ClientProfile,
                controlTimeout: Duration? = nil, reuse: Bool = false) {
        self.description = description
        self.capabilities = capabilities
        self.protocolVersion = protocolVersion
        self.profile = profile
        self.controlTimeout = controlTimeout
        self.reuse = reuse
    }

    /// Reads the `data` of a `hello` result (pure).
    public init(data: JSONValue?) {
        let parts = ["client", "version", "flavour"].compactMap { data?[$0]?.stringValue }
        description = parts.joined(separator: " ")
        capabilities = data?["capabilities"]?.arrayValue.map { list in
            Set(list.compactMap { $0.stringValue.flatMap(Capability.init(rawValue:)) })
        }
        protocolVersion = data?["protocol"]?.intValue
        profile = ClientProfile(json: data?["profile"])
        controlTimeout = data?["controlTimeoutMs"]?.intValue.map { .milliseconds(min(max($0, 1), 30_000)) }
        reuse = data?["reuse"]?.boolValue ?? false
    }

    /// The capabilities the runner gives the driver's client, and where they come from: the
    /// listed ones; else those of the declared protocol version; else protocol 1's (a driver
    /// that names no version may have been written for any, and must not get a case needing a
    /// feature that came after it).
    public var resolvedCapabilities: (capabilities: Set<Capability>, origin: CapabilityOrigin) {
        if let capabilities { return (capabilities, .listed) }
        if let protocolVersion { return (DriverProtocolVersion.capabilities(of: protocolVersion), .protocolVersion(protocolVersion)) }
        return (DriverProtocolVersion.capabilities(of: 1), .firstProtocolAssumed(answeredHello: true))
    }

    /// Starts the driver once, asks `hello`, and ends it. `nil` when the driver predates `hello`
    /// (it answers `unsupported` or `error`), fails, or does not answer within `timeout`: such a
    /// driver gets the reference profile and protocol 1's capabilities. When `pool` is given and
    /// the driver offers reuse, the pool is enabled and keeps the process (no `close`: its first
    /// case's `configure` follows).
    static func probe(command: String, timeout: Duration, pool: DriverPool? = nil) async -> DriverHello? {
        guard let connection = try? DriverConnection(command: command) else { return nil }
        guard case .result(let result)? = try? await connection.request(["type": "hello"], timeout: timeout) else {
            connection.terminate()
            return nil
        }
        let hello = DriverHello(data: result.data)
        if hello.reuse, let pool {
            pool.enable()
            pool.adopt(connection)
            return hello
        }
        _ = try? await connection.request(["type": "close"], timeout: timeout)
        connection.terminate()
        return hello
    }
}

extension ExternalProcessClient {
    /// This client with the capabilities and profile its driver declares in `hello`. Capabilities
    /// given to the initializer stand where the driver declares neither a list nor a protocol.
    public func prepared() async -> any ConformanceClient {
        let hello = await DriverHello.probe(command: command, timeout: max(startTimeout, controlTimeout),
                                            pool: driverReuse ? pool : nil)
        var copy = self
        if let declared = hello?.resolvedCapabilities, declared.origin != .firstProtocolAssumed(answeredHello: true) {
            (copy.capabilities, copy.capabilityOrigin) = declared
        } else if let givenCapabilities {
            (copy.capabilities, copy.capabilityOrigin) = (givenCapabilities, .client)
        } else {
            copy.capabilities = DriverProtocolVersion.capabilities(of: 1)
            copy.capabilityOrigin = .firstProtocolAssumed(answeredHello: hello != nil)
        }
        guard let hello else { return copy }
        copy.profile = hello.profile
        if let timeout = hello.controlTimeout, timeout > controlTimeout { copy.controlTimeout = timeout }
        copy.hello = hello
        return copy
    }
}
