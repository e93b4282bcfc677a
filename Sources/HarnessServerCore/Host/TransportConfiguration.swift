// SPDX-License-Identifier: MIT
import Logging

/// The listeners and connection limits of a ``ServerHost``: the transport part of a server's
/// configuration, owned by the core (protocol modules own theirs).
public struct TransportConfiguration: Sendable {
    /// Address of the listeners (default loopback).
    public var host: String = "127.0.0.1"
    /// Port of the plain HTTP listener; 0 picks a free one.
    public var port: Int = 0
    /// Port of the TLS listener serving the same routes; `nil` = none, 0 = a free one.
    public var tlsPort: Int? = nil
    /// The fault the TLS listener applies to every connection (`.none` = the trusted leaf).
    public var tlsFault: ListenerFault = .none
    /// Who carries TLS records after a TLS 1.3 handshake: the stream itself (frees OpenSSL's
    /// per-connection state; the default) or OpenSSL for the whole connection.
    public var tlsRecordLayer: TLSRecordLayer = .own
    /// Extra listeners opened at start, each applying its fault to every connection.
    public var faultListeners: [FaultListenerSpec] = []
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
    /// Limits of WebSocket connections (message size, outbound buffer, close timeout).
    public var webSocket = WebSocketSettings()
    /// Request bodies larger than the general limit that some paths accept (a module's upload route).
    package var bodyLimitOverrides: [BodyLimitOverride] = []
    /// Cross-origin resource sharing: the fields (and `Date`) every well-framed answer carries,
    /// and the preflight answers of the routing table; nil = none (a protocol module sets its own).
    public var cors: CORSPolicy? = nil

    public init() {}

    /// The HTTP server settings these stand for (listen address, loops, timeouts, WebSocket limits).
    package var httpServer: HTTPServerConfiguration {
        var configuration = HTTPServerConfiguration()
        configuration.host = host
        configuration.port = port
        if let eventLoopCount { configuration.eventLoopCount = max(1, eventLoopCount) }
        configuration.headerTimeout = headerTimeout
        configuration.idleTimeout = idleTimeout
        configuration.webSocket = webSocket
        configuration.bodyLimitOverrides = bodyLimitOverrides
        configuration.cors = cors
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
