// SPDX-License-Identifier: MIT
import Logging

/// Everything a mock server is configured with, nested by owner: the core's transport, the PubNub
/// service, the admin API, and the extension modules. The defaults suit an in-process test server.
public struct MockServerConfiguration: Sendable {
    /// Listeners, loops, timeouts, request log, WebSocket limits (owned by the server core).
    public var transport = TransportConfiguration()
    /// Keysets, long-poll and presence tunables (owned by the PubNub service).
    public var pubNub = PubNubServiceConfiguration()
    /// Who may use `/__admin/` (owned by the admin API).
    public var admin = AdminConfiguration()
    /// Modules served beside PubNub on the same listeners: they claim WebSocket upgrades and HTTP
    /// path prefixes (docs/websocket.md). None = the PubNub server alone, unchanged.
    public var extensions: [any ServerExtension] = []
    /// What the answers carry for browsers and slow links: cross-origin fields, gzip.
    public var responses = ResponseSettings()
    /// Answers chosen requests before the fault layer (`serve --playback`); nil = none.
    public var interceptor: (any RequestInterceptor)? = nil

    public init() {}

    /// A loopback server on free ports, as tests and the conformance runner use it.
    public static func loopback(tls: Bool = true) -> MockServerConfiguration {
        var configuration = MockServerConfiguration()
        configuration.transport.tlsPort = tls ? 0 : nil
        return configuration
    }
}

/// How answers are dressed as the live service dresses them.
public struct ResponseSettings: Sendable, Hashable {
    /// Whether every answer carries the live service's cross-origin fields (`Access-Control-*`),
    /// `Cache-Control` and `Date`, and preflights (`OPTIONS`) are answered (docs/endpoints.md "CORS").
    public var crossOrigin: Bool
    /// When answers go out gzip-compressed (docs/endpoints.md "Compression").
    public var compression: CompressionSettings

    public init(crossOrigin: Bool = true, compression: CompressionSettings = CompressionSettings()) {
        self.crossOrigin = crossOrigin
        self.compression = compression
    }
}

/// The admin API's settings.
public struct AdminConfiguration: Sendable {
    /// Whether `/__admin/` (and extensions' administrative routes) answer peers other than loopback.
    public var allowsRemotePeers = false

    public init(allowsRemotePeers: Bool = false) {
        self.allowsRemotePeers = allowsRemotePeers
    }
}

// The flat names of the fields, for embedders written against them; each reads and writes the
// nested field it names.
extension MockServerConfiguration {
    /// ``TransportConfiguration/host``.
    public var host: String {
        get { transport.host }
        set { transport.host = newValue }
    }
    /// ``TransportConfiguration/port``.
    public var port: Int {
        get { transport.port }
        set { transport.port = newValue }
    }
    /// ``TransportConfiguration/tlsPort``.
    public var tlsPort: Int? {
        get { transport.tlsPort }
        set { transport.tlsPort = newValue }
    }
    /// ``TransportConfiguration/tlsFault``.
    public var tlsFault: ListenerFault {
        get { transport.tlsFault }
        set { transport.tlsFault = newValue }
    }
    /// ``TransportConfiguration/faultListeners``.
    public var faultListeners: [FaultListenerSpec] {
        get { transport.faultListeners }
        set { transport.faultListeners = newValue }
    }
    /// ``TransportConfiguration/eventLoopCount``.
    public var eventLoopCount: Int? {
        get { transport.eventLoopCount }
        set { transport.eventLoopCount = newValue }
    }
    /// ``TransportConfiguration/headerTimeout``.
    public var headerTimeout: Duration? {
        get { transport.headerTimeout }
        set { transport.headerTimeout = newValue }
    }
    /// ``TransportConfiguration/idleTimeout``.
    public var idleTimeout: Duration? {
        get { transport.idleTimeout }
        set { transport.idleTimeout = newValue }
    }
    /// ``TransportConfiguration/requestLogLevel``.
    public var requestLogLevel: Logger.Level? {
        get { transport.requestLogLevel }
        set { transport.requestLogLevel = newValue }
    }
    /// ``TransportConfiguration/webSocket``.
    public var webSocket: WebSocketSettings {
        get { transport.webSocket }
        set { transport.webSocket = newValue }
    }
    /// ``PubNubServiceConfiguration/keysets``.
    public var keysets: [Keyset] {
        get { pubNub.keysets }
        set { pubNub.keysets = newValue }
    }
    /// ``PubNubServiceConfiguration/longPollIdleTimeout``.
    public var longPollIdleTimeout: Duration {
        get { pubNub.longPollIdleTimeout }
        set { pubNub.longPollIdleTimeout = newValue }
    }
    /// ``PubNubServiceConfiguration/presenceTimeoutFloor``.
    public var presenceTimeoutFloor: Int? {
        get { pubNub.presenceTimeoutFloor }
        set { pubNub.presenceTimeoutFloor = newValue }
    }
    /// ``PubNubServiceConfiguration/files``.
    public var files: FileServiceSettings {
        get { pubNub.files }
        set { pubNub.files = newValue }
    }
    /// ``PubNubServiceConfiguration/features``: the add-on switches of keys without an override.
    public var keyFeatures: KeyFeatures {
        get { pubNub.features }
        set { pubNub.features = newValue }
    }
    /// ``PubNubServiceConfiguration/featuresByKey``.
    public var keyFeaturesByKey: [String: KeyFeatures] {
        get { pubNub.featuresByKey }
        set { pubNub.featuresByKey = newValue }
    }
    /// ``AdminConfiguration/allowsRemotePeers``.
    public var adminAllowsRemotePeers: Bool {
        get { admin.allowsRemotePeers }
        set { admin.allowsRemotePeers = newValue }
    }
}
