// SPDX-License-Identifier: MIT
import Logging

/// Everything a mock server is configured with; the defaults suit an in-process test server.
public struct MockServerConfiguration: Sendable {
    /// Address of the listeners (default loopback).
    public var host: String = "127.0.0.1"
    /// Port of the plain HTTP listener; 0 picks a free one.
    public var port: Int = 0
    /// Port of the TLS listener serving the same endpoints; `nil` = none, 0 = a free one.
    public var tlsPort: Int? = nil
    /// The fault the TLS listener applies to every connection (`.none` = the trusted leaf).
    public var tlsFault: ListenerFault = .none
    /// Extra listeners opened at start, each applying its fault to every connection.
    public var faultListeners: [FaultListenerSpec] = []
    /// Keysets with Access Manager on; other keys are open demo keys.
    public var keysets: [Keyset] = []
    /// How long an idle subscribe long-poll is held before it answers with no messages.
    public var longPollIdleTimeout: Duration = .seconds(280)
    /// A minimum presence timeout in seconds; `nil` honours whatever the client sends.
    public var presenceTimeoutFloor: Int? = nil
    /// The service's add-on switches for keys without an override (wildcard subscribe, filter answer).
    public var keyFeatures = KeyFeatures()
    /// Per subscribe key overrides of `keyFeatures`.
    public var keyFeaturesByKey: [String: KeyFeatures] = [:]
    /// Whether `/__admin/` answers peers other than loopback.
    public var adminAllowsRemotePeers = false
    /// Event-loop threads; `nil` = one per core.
    public var eventLoopCount: Int? = nil
    /// How long a request head may take from its first byte (from the accept for a connection's
    /// first request) before 408 and close; `nil` = no limit.
    public var headerTimeout: Duration? = .seconds(10)
    /// How long a keep-alive connection may stay without a request in flight before it is closed;
    /// parked long-polls are not idle. `nil` = no limit.
    public var idleTimeout: Duration? = .seconds(60)
    /// The level at which each request is logged on one line (`nil` = no request log).
    public var requestLogLevel: Logger.Level? = nil
    /// Modules served beside PubNub on the same listeners: they claim WebSocket upgrades and HTTP
    /// path prefixes (docs/websocket.md). None = the PubNub server alone, unchanged.
    public var extensions: [any ServerExtension] = []
    /// Limits of WebSocket connections (message size, outbound buffer, close timeout).
    public var webSocket = WebSocketSettings()

    public init() {}

    /// A loopback server on free ports, as tests and the conformance runner use it.
    public static func loopback(tls: Bool = true) -> MockServerConfiguration {
        var configuration = MockServerConfiguration()
        configuration.tlsPort = tls ? 0 : nil
        return configuration
    }
}

/// An extra listener opened at start: `fault` on `port` (0 = a free one).
public struct FaultListenerSpec: Sendable, Hashable {
    public var fault: ListenerFault
    public var port: Int

    public init(fault: ListenerFault, port: Int) {
        self.fault = fault
        self.port = port
    }
}
