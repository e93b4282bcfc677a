// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Settings of the HTTP transport.
public struct HTTPServerConfiguration: Sendable, Hashable {
    /// Numeric address of the main listener (IPv4 or IPv6 literal).
    public var host: String
    /// Port of the main listener; 0 picks a free one.
    public var port: Int
    /// Number of event-loop threads; default: the number of online processors.
    public var eventLoopCount: Int
    /// Bytes of header fields per request before answering 431.
    public var maxHeaderBytes: Int
    /// Bytes of request-target before answering 414.
    public var maxTargetBytes: Int
    /// Bytes of body before answering 413.
    public var maxBodyBytes: Int
    /// Parsed requests queued behind the one being answered before the connection stops reading.
    public var maxPipelinedRequests: Int
    /// How long a connection closed with FIN keeps discarding input while waiting for the peer to close.
    public var finDrainTimeout: Duration
    /// `listen()` backlog.
    public var listenBacklog: Int
    /// How long a request head (and its body) may take to arrive, counted from its first byte, or
    /// from the accept for a connection's first request; then 408 and close. `nil` = no limit.
    public var headerTimeout: Duration?
    /// How long a keep-alive connection may stay without a request in flight before it is closed
    /// (FIN). A parked request is not idle. `nil` = no limit.
    public var idleTimeout: Duration?
    /// Limits of connections upgraded to WebSocket (only used when an upgrade router is installed).
    public var webSocket = WebSocketSettings()
    /// Body limits other than `maxBodyBytes` for some path prefixes (the file storage's uploads).
    package var bodyLimitOverrides: [BodyLimitOverride] = []
    /// The cross-origin fields (and `Date`) of every well-framed answer; nil = none (the default).
    public var cors: CORSPolicy? = nil

    /// Creates a configuration; every parameter has the documented default.
    public init(
        host: String = "127.0.0.1", port: Int = 0, eventLoopCount: Int = HTTPServerConfiguration.defaultLoopCount,
        maxHeaderBytes: Int = 16 * 1024, maxTargetBytes: Int = 32 * 1024, maxBodyBytes: Int = 1 << 20,
        maxPipelinedRequests: Int = 16, finDrainTimeout: Duration = .seconds(2), listenBacklog: Int = 4096,
        headerTimeout: Duration? = .seconds(10), idleTimeout: Duration? = .seconds(60)
    ) {
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.host = host
        self.port = port
        self.eventLoopCount = eventLoopCount
        self.maxHeaderBytes = maxHeaderBytes
        self.maxTargetBytes = maxTargetBytes
        self.maxBodyBytes = maxBodyBytes
        self.maxPipelinedRequests = maxPipelinedRequests
        self.finDrainTimeout = finDrainTimeout
        self.listenBacklog = listenBacklog
    }

    /// The number of online processors (at least 1).
    public static var defaultLoopCount: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    var limits: HTTPRequestParser.Limits {
        var limits = HTTPRequestParser.Limits(maxHeaderBytes: maxHeaderBytes, maxTargetBytes: maxTargetBytes, maxBodyBytes: maxBodyBytes)
        limits.bodyLimitOverrides = bodyLimitOverrides
        return limits
    }
}

/// Where a listener is bound.
public struct BoundAddress: Sendable, Hashable, CustomStringConvertible {
    /// The numeric host.
    public var host: String
    /// The port.
    public var port: Int

    /// Creates an address value.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// `host:port`, with brackets around IPv6 hosts.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
